// vitest globalSetup (Node side): a loopback server speaking the OpenAI chat
// completions wire format (SSE when stream: true), so the OpenAI-compatible
// provider is tested against real HTTP, plus a minimal HTTP mail API. It records
// what it receives.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    llmBaseUrl: string;
    mailApiUrl: string;
  }
}

export const STREAMED_PARTS = ["Payroll taxes ", "are due quarterly ", "[1]."];
/** A model that cites its passages out of order, one citation cut between two parts: asked when the question holds "out of order". */
export const OUT_OF_ORDER_PARTS = ["Leave is sixteen weeks [3", "]; it is paid [1] ", "and can be split [", "2]. See [3]."];

export default async function setup(project: TestProject) {
  let lastBody = "";
  const mailRequests: unknown[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      if (req.url === "/v1/last-request") {
        res.writeHead(200, { "Content-Type": "application/json" }).end(lastBody || "{}");
        return;
      }
      if (req.url === "/mail/send") {
        // an HTTP mail API: accepts JSON with a bearer key; "fail" in the address makes it answer 500
        const mail = JSON.parse(body || "{}") as { to?: string[] };
        const ok = req.headers.authorization === "Bearer mail-key" && !mail.to?.some((t) => t.includes("fail"));
        mailRequests.push(mail);
        res
          .writeHead(ok ? 202 : 500, { "Content-Type": "application/json" })
          .end(JSON.stringify(ok ? { id: `msg_${mailRequests.length}` } : { error: "nope" }));
        return;
      }
      if (req.url === "/mail/requests") {
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(mailRequests));
        return;
      }
      lastBody = body;
      if (req.url !== "/v1/chat/completions" || req.headers.authorization !== "Bearer test-key") {
        res.writeHead(401, { "Content-Type": "application/json" }).end(JSON.stringify({ error: { message: "bad key" } }));
        return;
      }
      const request = JSON.parse(body) as { stream?: boolean };
      if (!request.stream) {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: '"Quarterly Payroll Taxes"' } }] }));
        return;
      }
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write(": keep-alive\n\n");
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { role: "assistant" } }] })}\n\n`);
      const parts = body.includes("out of order") ? OUT_OF_ORDER_PARTS : STREAMED_PARTS;
      for (const part of parts) res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: part } }] })}\n\n`);
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  project.provide("llmBaseUrl", `${base}/v1`);
  project.provide("mailApiUrl", `${base}/mail/send`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
