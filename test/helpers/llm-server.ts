// vitest globalSetup (Node side): a loopback server speaking the OpenAI chat
// completions wire format (SSE when stream: true), so the OpenAI-compatible
// provider is tested against real HTTP. It records the last request body.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    llmBaseUrl: string;
  }
}

export const STREAMED_PARTS = ["Payroll taxes ", "are due quarterly ", "[1]."];

export default async function setup(project: TestProject) {
  let lastBody = "";
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      if (req.url === "/v1/last-request") {
        res.writeHead(200, { "Content-Type": "application/json" }).end(lastBody || "{}");
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
      for (const part of STREAMED_PARTS) res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: part } }] })}\n\n`);
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  project.provide("llmBaseUrl", `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
