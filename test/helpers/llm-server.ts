// vitest globalSetup (Node side): a loopback server speaking the OpenAI chat
// completions wire format (the scripted model of scripted-model.ts), so the
// OpenAI-compatible provider is tested against real HTTP, plus a minimal HTTP
// mail API. It records what it receives.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import { answerCompletion } from "./scripted-model";

declare module "vitest" {
  export interface ProvidedContext {
    llmBaseUrl: string;
    mailApiUrl: string;
  }
}

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
      answerCompletion(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  project.provide("llmBaseUrl", `${base}/v1`);
  project.provide("mailApiUrl", `${base}/mail/send`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
