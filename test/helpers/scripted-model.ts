// A scripted model behind the OpenAI chat-completions wire format (SSE when
// stream: true, as the real APIs send it), for the worker tests (through
// llm-server.ts) and the browser tests (startScriptedModel). Asked a question
// holding one of these words, it answers from the first source it was given:
// "faithfully" (a sentence of the source, cited), "changed figure" (that sentence
// again with its first figure changed to 99,999), "wrong citation" (cited as
// [42], a source it was not given), "uncited figure" (a figure with no [n]);
// "model busy" is refused with 429, as a model over its rate limit answers.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const STREAMED_PARTS = ["Payroll taxes ", "are due quarterly ", "[1]."];
/** A model that cites its passages out of order, one citation cut between two parts: asked when the question holds "out of order". */
export const OUT_OF_ORDER_PARTS = ["Leave is sixteen weeks [3", "]; it is paid [1] ", "and can be split [", "2]. See [3]."];
/** The figure a "changed figure" answer states instead of its source's. */
export const CHANGED_FIGURE = "99,999";
/** The sentence an "uncited figure" answer adds without a citation. */
export const UNCITED_SENTENCE = "Most filers pay about 42% more than that.";

const SCRIPTS = ["faithfully", "changed figure", "wrong citation", "uncited figure"] as const;

/** The first sentence of source [1] of the sources block that states a figure (else its first sentence). */
function sentenceOfFirstSource(prompt: string): string {
  const text = /\[1\] [^\n]*, page \d+:\n([\s\S]*?)(?:\n\n\[2\] |\n\nQuestion: |$)/.exec(prompt)?.[1] ?? "";
  const sentences = text
    .replace(/\s+/g, " ")
    .split(/(?<=[.!?])\s+(?=[A-Z$])/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 20 && s.length <= 300);
  const sentence = sentences.find((s) => /\d/.test(s)) ?? sentences[0] ?? "The sources say nothing more";
  return sentence.replace(/[.!?]$/, "");
}

/** What the model answers: a script of its own when the question names one, else the fixed parts. */
export function scriptedAnswer(requestBody: string): string[] {
  const request = JSON.parse(requestBody) as { messages?: { content: string }[] };
  const prompt = request.messages?.at(-1)?.content ?? "";
  const question = /Question: ([^\n]*)$/.exec(prompt)?.[1] ?? "";
  const script = SCRIPTS.find((s) => question.includes(s));
  if (!script) return requestBody.includes("out of order") ? OUT_OF_ORDER_PARTS : STREAMED_PARTS;
  const sentence = sentenceOfFirstSource(prompt);
  const answer = {
    faithfully: `${sentence} [1].`,
    "changed figure": `${sentence} [1]. In other words, ${sentence.replace(/\d[\d,.]*\d|\d/, CHANGED_FIGURE).replace(/^\p{Lu}/u, (c) => c.toLowerCase())} [1].`,
    "wrong citation": `${sentence} [42].`,
    "uncited figure": `${sentence} [1]. ${UNCITED_SENTENCE}`,
  }[script];
  // streamed in pieces of 7 characters, so citations are cut between pieces as real streams cut them
  return answer.match(/[\s\S]{1,7}/g) ?? [];
}

/** Streams the parts as an OpenAI-compatible SSE response. */
export function writeSse(res: ServerResponse, parts: readonly string[]): void {
  res.writeHead(200, { "Content-Type": "text/event-stream" });
  res.write(": keep-alive\n\n");
  res.write(`data: ${JSON.stringify({ choices: [{ delta: { role: "assistant" } }] })}\n\n`);
  for (const part of parts) res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: part } }] })}\n\n`);
  res.end("data: [DONE]\n\n");
}

/** Answers a chat-completions request (key "test-key"): a chat title when not streamed, else the scripted answer. */
export function answerCompletion(req: IncomingMessage, res: ServerResponse, body: string): void {
  if (req.url !== "/v1/chat/completions" || req.headers.authorization !== "Bearer test-key") {
    res.writeHead(401, { "Content-Type": "application/json" }).end(JSON.stringify({ error: { message: "bad key" } }));
    return;
  }
  const request = JSON.parse(body) as { stream?: boolean; messages?: { content: string }[] };
  if (!request.stream) {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: '"Quarterly Payroll Taxes"' } }] }));
    return;
  }
  // "model busy" in the question: over its rate limit, as a real API answers then
  if (/Question: [^\n]*model busy/.test(request.messages?.at(-1)?.content ?? "")) {
    res.writeHead(429, { "Content-Type": "application/json" }).end(JSON.stringify({ error: { message: "rate limit reached" } }));
    return;
  }
  writeSse(res, scriptedAnswer(body));
}

/** The scripted model on a loopback port of its own (browser tests start a dev server pointed at it). */
export async function startScriptedModel(): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => answerCompletion(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
