// Proves that every finished answer is checked against the pages it cites (#43): a scripted
// OpenAI-compatible model answering faithfully, with a changed figure, with a citation naming no
// source and with a figure stated without one; the checks travel in `end`, are stored with the
// answer (a reload, a shared reader's view) and the memo says in words what was not found. Local
// answers are checked by the same code and pass.
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { ALL_CHECKED, checkSummary } from "../../worker/contract/checks";
import type { SocketIdentity } from "../../worker/chat/identity";
import type { ChatRoom } from "../../worker/chat/turn";
import { admitQuestion } from "../../worker/chat/admission";
import { runTurn } from "../../worker/chat/turn";
import { isBusyError, MODEL_BUSY_NOTE } from "../../worker/providers/llm/busy";
import { chatSession } from "../../worker/chat/stub";
import { call, newUser } from "../helpers/api";
import { uploadAndIndex, waitUntilDone } from "../helpers/documents";
import { memoryRoom } from "../helpers/memory-room";
import { textPdf } from "../helpers/pdfs";
import { CHANGED_FIGURE, UNCITED_SENTENCE } from "../helpers/scripted-model";
import { openSocket } from "../helpers/sockets";

afterEach(() => vi.restoreAllMocks());

const DEDUCTION = "The standard deduction for a single filer is $14,600 for 2024.";
const modelEnv = () => ({ ...env, LLM_BASE_URL: inject("llmBaseUrl"), LLM_API_KEY: "test-key" }) as Env;

async function ownerWithDeduction(prefix: string) {
  const u = await newUser(prefix);
  const doc = await uploadAndIndex(u.token, "Deduction.pdf", await textPdf([DEDUCTION]));
  await waitUntilDone(u.token, doc.fileId);
  const sessionId = `${u.email}-${crypto.randomUUID()}`;
  const who: SocketIdentity = { sessionId, access: "owner", userId: u.user.id, email: u.email, authSessionId: null, ip: "203.0.113.9" };
  return { ...u, doc, sessionId, who };
}

/** One turn in a room without a Durable Object; returns the stored answer and the `end` frame's message. */
async function ask(roomEnv: Env, prefix: string, query: string) {
  const u = await ownerWithDeduction(prefix);
  const { room, stored, frames } = memoryRoom(roomEnv);
  await admitQuestion(room as ChatRoom, u.who, { action: "chat", query, session_id: u.sessionId, file_ids: [u.doc.fileId] });
  await runTurn(room, u.who, query);
  const end = frames.flatMap((f) => (f.message.type === "end" ? [f.message.message] : []))[0]!;
  return { answer: stored[1]!, end };
}

describe("a model's answer checked against its cited pages", () => {
  it("finds every figure of a faithful answer on the cited page", async () => {
    const { answer, end } = await ask(modelEnv(), "check-faithful", "What is the deduction? Answer faithfully.");
    expect(answer.content).toBe(`${DEDUCTION.replace(/\.$/, "")} [1].`);
    expect(answer.verified).toEqual({ sentences: 1, unsupported: 0 });
    expect(end.checks).toEqual(answer.checks);
    expect(checkSummary(answer.checks!, answer.sources)).toBe(ALL_CHECKED);
  });

  it("marks a changed figure with the figure not found, and the quiet line says so", async () => {
    const { answer, end } = await ask(modelEnv(), "check-changed", "What is the deduction? changed figure");
    expect(answer.checks!.map((c) => [c.status, c.missing])).toEqual([
      ["supported", []],
      ["unsupported", [`$${CHANGED_FIGURE}`]],
    ]);
    expect(answer.verified).toEqual({ sentences: 2, unsupported: 1 });
    expect(end).toMatchObject({ checks: answer.checks, verified: answer.verified });
    expect(checkSummary(answer.checks!, answer.sources)).toBe("1 figure not found on the cited pages");
  });

  it("marks a citation that names no source of the answer", async () => {
    const { answer } = await ask(modelEnv(), "check-wrong-cite", "What is the deduction? wrong citation");
    expect(answer.sources).toEqual([]);
    expect(answer.checks!.map((c) => [c.status, c.missing])).toEqual([["unsupported", ["[42]", "$14,600", "2024"]]]);
  });

  it("marks a figure stated without a citation", async () => {
    const { answer } = await ask(modelEnv(), "check-uncited", "What is the deduction? uncited figure");
    expect(answer.checks!.map((c) => [c.sentence, c.status, c.missing])).toEqual([
      [`${DEDUCTION.replace(/\.$/, "")} [1].`, "supported", []],
      [UNCITED_SENTENCE, "unsupported", ["42%"]],
    ]);
  });

  it("answers with the local writer, said so and checked, when the model is over its rate limit", async () => {
    const { answer, end } = await ask(modelEnv(), "check-busy", "What is the standard deduction for a single filer? model busy");
    expect(answer.status).toBe("complete");
    expect(answer.content.startsWith(MODEL_BUSY_NOTE)).toBe(true);
    expect(answer.content).toContain("$14,600");
    expect(answer.sources!.map((s) => s.fileName)).toEqual(["Deduction.pdf"]);
    expect(end.verified).toEqual({ sentences: answer.checks!.length, unsupported: 0 });
  });

  it("reads Workers AI's rate-limit and capacity refusals as busy, and no other error", () => {
    expect(isBusyError(new Error("AiError: 3040: Capacity temporarily exceeded, please try again."))).toBe(true);
    expect(isBusyError(new Error("AiError: 429 Too Many Requests"))).toBe(true);
    expect(isBusyError(new Error("AiError: 5007: No such model @cf/none"))).toBe(false);
  });

  it("passes the local writer's answer, checked by the same code", async () => {
    const { answer, end } = await ask(env, "check-local", "What is the standard deduction for a single filer?");
    expect(answer.sources!.length).toBeGreaterThan(0);
    expect(answer.verified).toEqual({ sentences: answer.checks!.length, unsupported: 0 });
    expect(end.verified).toEqual(answer.verified);
  });
});

describe("the check kept with the answer", () => {
  it("is in the stored chat after a reload, in a shared reader's view and in the memo", async () => {
    const u = await ownerWithDeduction("check-kept");
    const stub = chatSession(env, u.sessionId);
    const socket = await openSocket(u.sessionId, u.token);
    // this chat's object answers with the scripted model (the test pool's environment has none)
    await runInDurableObject(stub, (chat) => void ((chat as unknown as { room: ChatRoom }).room.env = modelEnv()));
    const query = "What is the deduction? changed figure";
    socket.send({ action: "chat", query, session_id: u.sessionId, token: u.token, file_ids: [u.doc.fileId] });
    const end = await socket.next("end");
    expect(end.message.verified).toEqual({ sentences: 2, unsupported: 1 });
    socket.ws.close(1000);
    await evictDurableObject(stub); // a reload reads the chat from storage

    const reader = await newUser("check-reader");
    expect(
      (await call("POST", "/api/chat/share", { token: u.token, body: { session_id: u.sessionId, emails: [reader.email] } })).status,
    ).toBe(200);
    for (const token of [u.token, reader.token]) {
      const again = await openSocket(u.sessionId, token);
      again.send({ action: "get_full_chat", session_id: u.sessionId, token });
      const stored = (await again.next("full_chat")).messages.at(-1)!;
      expect(stored).toMatchObject({ checks: end.message.checks, verified: end.message.verified });
      again.ws.close(1000);
    }

    vi.spyOn(env.EMAIL, "send").mockResolvedValue(undefined as never);
    const memo = await call("POST", "/api/chat/sendMemo", { token: reader.token, body: { session_id: u.sessionId } });
    expect(memo.status).toBe(200);
    expect(memo.json.memo).toContain(`($${CHANGED_FIGURE} is not on p. 1 of Deduction.pdf)`);
    expect(memo.json.memo).toContain('Not found on the cited pages: "In other words, the standard deduction');
  });
});
