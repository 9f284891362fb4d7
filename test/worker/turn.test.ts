// Proves a chat turn as a plain module, without sockets: admission refuses
// another session, a reader, an empty question and another user's or an unknown
// file without changing the chat's documents or using the quota; an admitted
// question streams an answer citing the chat's document, stores both messages
// with the cited sources, records the chat with a title and sends `end` and
// `chat_list_update`; a turn answers from the documents its admission just checked
// without reading them again; a failing answer provider ends with the plain failure text;
// Regenerate replaces the last answer (owner only, a chat ending with an answer, one quota message).
import { env } from "cloudflare:workers";
import { describe, expect, inject, it, vi } from "vitest";
import {
  CHAT_MESSAGES,
  partialIndexNotes,
  type ChatFile,
  type FileInfo,
  type ServerMessage,
  type Source,
  type StoredMessage,
} from "../../worker/contract/protocol";
import type { SocketIdentity } from "../../worker/chat/identity";
import { admitQuestion, admitRegenerate, type ChatQuestion } from "../../worker/chat/admission";
import { runTurn, type ChatRoom } from "../../worker/chat/turn";
import type { ReadChatFiles } from "../../worker/chat/chat-documents";
import { getDb } from "../../worker/db/client";
import { usageDay } from "../../worker/services/quotas";
import { resolveChatFiles } from "../../worker/services/chat-files";
import { call, GOOD_PASSWORD, newUser } from "../helpers/api";
import { uploadAndIndex, waitUntilDone } from "../helpers/documents";
import { libraryRows } from "../helpers/library";
import { library } from "../../worker/library/stub";
import { textPdf } from "../helpers/pdfs";
import { memoryRoom } from "../helpers/memory-room";
import { openSocket } from "../helpers/sockets";

async function owner(prefix: string) {
  const u = await newUser(prefix);
  const doc = await uploadAndIndex(u.token, "Leave.pdf", await textPdf(["Parental leave is sixteen weeks at full pay."]));
  await waitUntilDone(u.token, doc.fileId);
  const sessionId = `${u.email}-${crypto.randomUUID()}`;
  const who: SocketIdentity = { sessionId, access: "owner", userId: u.user.id, email: u.email, authSessionId: null, ip: "203.0.113.9" };
  const question = (query: string, extra: Partial<ChatQuestion> = {}): ChatQuestion => ({
    action: "chat",
    query,
    session_id: sessionId,
    ...extra,
  });
  return { ...u, doc, who, question };
}

/** Today's messages, as the user's Library counts them. */
const usedToday = async (userId: string) =>
  (await libraryRows<{ messages: number }>(userId, "SELECT messages FROM daily_messages WHERE day = ?", usageDay()))[0]?.messages ?? 0;

const listedChats = async (userId: string) =>
  (await env.DB.prepare("SELECT session_id, summary FROM chats WHERE user_id = ?").bind(userId).all()).results;

describe("admitting a question", () => {
  it("refuses without changing the chat's documents or using the quota", async () => {
    const u = await owner("turn-refuse");
    const stranger = await owner("turn-stranger");
    const { room, documentIds } = memoryRoom();
    const cases: [SocketIdentity, ChatQuestion, number, string][] = [
      [u.who, { ...u.question("Hi"), session_id: "another-session" }, 403, CHAT_MESSAGES.notYourSession],
      [{ ...u.who, access: "member" }, u.question("Hi"), 403, CHAT_MESSAGES.readOnly],
      [u.who, u.question("   "), 400, CHAT_MESSAGES.emptyQuery],
      [
        { ...u.who, access: "anonymous", userId: null, email: null },
        u.question("Hi", { file_ids: [u.doc.fileId] }),
        403,
        CHAT_MESSAGES.anonymousFiles,
      ],
      [u.who, u.question("Hi", { s3_key: `users/${u.user.id}/nothing.pdf` }), 404, CHAT_MESSAGES.fileNotFound],
      [u.who, u.question("Hi", { file_ids: [stranger.doc.fileId] }), 404, CHAT_MESSAGES.fileNotFound],
    ];
    for (const [who, message, code, text] of cases) {
      expect((await admitQuestion(room, who, message)).admission).toEqual({ ok: false, code, message: text });
    }
    expect(documentIds()).toEqual([]);
    expect(await usedToday(u.user.id)).toBe(0);
    expect(await listedChats(u.user.id)).toEqual([]);

    expect(
      (await admitQuestion(room, u.who, u.question("  How long is parental leave? ", { file_ids: [u.doc.fileId] }))).admission,
    ).toEqual({
      ok: true,
      query: "How long is parental leave?",
      // the documents it just checked, so the turn need not read them again, and the search over them
      files: [expect.objectContaining({ fileId: u.doc.fileId, status: "indexed" })],
      hits: [expect.objectContaining({ document_id: u.doc.fileId, text: expect.stringContaining("Parental leave") })],
    });
    expect(documentIds()).toEqual([u.doc.fileId]);
    expect(await usedToday(u.user.id)).toBe(1);
    // the chat is listed when its answer begins, not by admission
    expect(await listedChats(u.user.id)).toEqual([]);
    // so does a question about the chat's documents as they are
    expect((await admitQuestion(room, u.who, u.question("And at what pay?"))).admission).toEqual({
      ok: true,
      query: "And at what pay?",
      files: [expect.objectContaining({ fileId: u.doc.fileId })],
      hits: [expect.objectContaining({ document_id: u.doc.fileId, text: expect.stringContaining("full pay") })],
    });
  });

  it("checks the chat's signed-in sessions in the same call: an asker signed out meanwhile is not admitted and not counted", async () => {
    const u = await owner("turn-revoked");
    const { room, documentIds } = memoryRoom();
    const jti = (token: string) => JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))).jti as string;
    const asker = { ...u.who, authSessionId: jti(u.token) };
    const other = await call("POST", "/api/auth/signin", { body: { email: u.email, password: GOOD_PASSWORD } });
    const otherSession = jti(other.json.token as string);

    // both live: admitted, counted, both sessions reported live
    const first = await admitQuestion(room, asker, u.question("Hi", { file_ids: [u.doc.fileId] }), {
      own: [asker.authSessionId, otherSession],
      others: [],
    });
    expect(first.admission.ok).toBe(true);
    expect([...first.liveSessions].sort()).toEqual([asker.authSessionId, otherSession].sort());
    expect(await usedToday(u.user.id)).toBe(1);

    // the asker signs out: the next question is refused, takes back its count and reports the session revoked
    expect((await call("POST", "/api/auth/signout", { token: u.token })).status).toBeLessThan(300);
    const second = await admitQuestion(room, asker, u.question("Hi again"), {
      own: [asker.authSessionId, otherSession],
      others: [],
    });
    expect(second.admission.ok).toBe(false);
    expect([...second.liveSessions]).toEqual([otherSession]);
    expect(await usedToday(u.user.id)).toBe(1);
    expect(documentIds()).toEqual([u.doc.fileId]);
  });
});

describe("running a turn", () => {
  it("streams a cited answer from the chat's document, stores both messages and records the chat", async () => {
    const u = await owner("turn-run");
    const { room, stored, frames } = memoryRoom();
    await admitQuestion(room, u.who, u.question("How long is parental leave?", { file_ids: [u.doc.fileId] }));
    await runTurn(room, u.who, "How long is parental leave?");

    const types = frames.map((f) => f.message.type);
    expect(types.filter((t) => t === "stream").length).toBeGreaterThan(0);
    expect(types.slice(-2)).toEqual(["end", "chat_list_update"]);
    expect(frames.at(-1)!.to).toBe(u.user.id);
    const streamed = frames.flatMap((f) => (f.message.type === "stream" ? [f.message.text] : [])).join("");

    expect(stored.map((m) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "complete"],
    ]);
    expect(stored[0]!.fileInfo).toEqual([{ fileId: u.doc.fileId, name: "Leave.pdf" }]);
    const answer = stored[1]!;
    expect(answer.content).toBe(streamed);
    expect(answer.content).toMatch(/sixteen weeks/i);
    expect(answer.sources).toEqual([expect.objectContaining({ fileId: u.doc.fileId, fileName: "Leave.pdf", page: 1 })]);
    const end = frames.at(-2)!.message as Extract<ServerMessage, { type: "end" }>;
    expect(end.message).toEqual(answer);

    const chat = await env.DB.prepare("SELECT summary FROM chats WHERE session_id = ?").bind(u.who.sessionId).first<{ summary: string }>();
    expect(chat?.summary).toBeTruthy();
  });

  it("records a turn of a chat without documents and sends the owner's chat list with it", async () => {
    const u = await owner("turn-nofiles");
    const { room, frames } = memoryRoom();
    await admitQuestion(room, u.who, u.question("How long is parental leave?"));
    await runTurn(room, u.who, "How long is parental leave?");

    const end = frames.find((f) => f.message.type === "end")!.message as Extract<ServerMessage, { type: "end" }>;
    expect(end.files).toEqual([]);
    expect(end.message.content).toMatch(/sixteen weeks/i); // retrieval over all of the owner's documents
    const update = frames.at(-1)!.message as Extract<ServerMessage, { type: "chat_list_update" }>;
    expect(update.chats).toEqual([expect.objectContaining({ session_id: u.who.sessionId, summary: "How long is parental leave?" })]);
    const row = await env.DB.prepare("SELECT search_text FROM chats WHERE session_id = ?")
      .bind(u.who.sessionId)
      .first<{ search_text: string }>();
    expect(row?.search_text).toMatch(/sixteen weeks/i);
  });

  it("answers from the documents admission just checked, reading them again only for the end frame", async () => {
    const u = await owner("turn-files");
    const { room, frames } = memoryRoom();
    const admitted = (await admitQuestion(room, u.who, u.question("How long is parental leave?", { file_ids: [u.doc.fileId] }))).admission;
    const read = room.files;
    let reads = 0;
    room.files = (how) => (reads++, read(how));
    await runTurn(room, u.who, "How long is parental leave?", undefined, { files: admitted.ok ? admitted.files : undefined });
    expect(reads).toBe(1);
    const end = frames.find((f) => f.message.type === "end")!.message as Extract<ServerMessage, { type: "end" }>;
    expect(end.message.content).toMatch(/sixteen weeks/i);
    expect(end.files).toEqual([expect.objectContaining({ fileId: u.doc.fileId })]);
  });

  it("stops writing when asked: what was written is kept, marked stopped, and the turn ends", async () => {
    const u = await owner("turn-stop");
    const { room, stored, frames } = memoryRoom();
    const stop = new AbortController();
    const broadcast = room.broadcast;
    room.broadcast = (message, to) => {
      broadcast(message, to);
      if (message.type === "stream") stop.abort(); // the user pressed Stop after the first words
    };
    await admitQuestion(room, u.who, u.question("How long is parental leave?", { file_ids: [u.doc.fileId] }));
    await runTurn(room, u.who, "How long is parental leave?", stop.signal);

    const streamed = frames.filter((f) => f.message.type === "stream");
    expect(streamed).toHaveLength(1);
    const answer = stored[1]!;
    expect(answer).toMatchObject({ role: "assistant", status: "stopped" });
    expect(answer.content).toBe((streamed[0]!.message as { text: string }).text);
    const end = frames.find((f) => f.message.type === "end")!.message as Extract<ServerMessage, { type: "end" }>;
    expect(end.message.status).toBe("stopped");
  });

  it("lists the chat in the history from its first question, even when the answer never comes", async () => {
    const u = await owner("turn-cut");
    const { room } = memoryRoom();
    room.messages.startAnswer = () => {
      throw new Error("the object went away");
    };
    await expect(runTurn(room, u.who, "How long is parental leave?")).rejects.toThrow("the object went away");
    const chats = await call("GET", "/api/chat/list", { token: u.token });
    expect(chats.json.chats).toEqual([expect.objectContaining({ session_id: u.who.sessionId, summary: "How long is parental leave?" })]);
  });

  it("lists the chat from its first question while its answer is written: a turn that never ends leaves it in the history", async () => {
    const u = await owner("turn-never-ends");
    // a model that sends its first words and then nothing (as an object killed mid-answer never ends its turn)
    const encode = (text: string) => new TextEncoder().encode(text);
    let finish = () => {};
    vi.spyOn(globalThis, "fetch").mockImplementation(async (_input, init) => {
      if (!JSON.parse(String(init?.body ?? "{}")).stream) return Response.json({ choices: [{ message: { content: "Leave" } }] });
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encode(`data: ${JSON.stringify({ choices: [{ delta: { content: "Parental leave is " } }] })}\n\n`));
          finish = () => {
            controller.enqueue(encode("data: [DONE]\n\n"));
            controller.close();
          };
        },
      });
      return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
    });
    const { room, frames } = memoryRoom({ ...env, LLM_BASE_URL: "http://model.test/v1", LLM_API_KEY: "key" } as Env);
    const turn = runTurn(room, u.who, "How long is parental leave?");
    await vi.waitFor(() => expect(frames.some((f) => f.message.type === "stream")).toBe(true));

    const listed = [expect.objectContaining({ session_id: u.who.sessionId, summary: "How long is parental leave?" })];
    expect((await call("GET", "/api/chat/list", { token: u.token })).json.chats).toEqual(listed);
    const elsewhere = await openSocket(`${u.email}-${crypto.randomUUID()}`, u.token);
    elsewhere.send({ action: "get_chats", token: u.token });
    expect((await elsewhere.next("chat_list")).chats).toEqual(listed);
    expect(frames.some((f) => f.message.type === "end")).toBe(false); // the turn has not reached its end
    elsewhere.ws.close();

    finish();
    await turn;
    vi.restoreAllMocks();
  });

  it("answers from the pages done so far of a document still being indexed after the wait, and says so first", async () => {
    const u = await owner("turn-partial");
    const { room, stored, frames } = memoryRoom();
    await admitQuestion(room, u.who, u.question("How long is parental leave?", { file_ids: [u.doc.fileId] }));
    // the document is reported still indexing when the wait ends
    const stillIndexing = async () =>
      (await resolveChatFiles({ db: getDb(env) }, { ownerId: u.user.id, ids: [u.doc.fileId] })).map((f) => ({
        ...f,
        status: "processing" as const,
        pagesDone: 120,
        pagesTotal: 417,
      }));
    room.files = stillIndexing;
    room.untilIndexed = stillIndexing;
    await runTurn(room, u.who, "How long is parental leave?");

    const first = frames.find((f) => f.message.type === "stream")!.message as Extract<ServerMessage, { type: "stream" }>;
    expect(first.text).toBe("_Leave.pdf is still being indexed (120/417 pages); this answer uses the pages done so far._\n\n");
    expect(stored[1]!.content.startsWith(first.text)).toBe(true);
    expect(stored[1]!.content).toMatch(/sixteen weeks/i);
  });

  it("in a chat without documents, answers from the pages done so far of a file still being indexed, and says so first", async () => {
    const u = await owner("turn-all-partial");
    const { room, stored, frames } = memoryRoom();
    // the owner's handbook: 1 of its 2 pages read so far
    const handbook = library(env, u.user.id);
    await handbook.enqueue("handbook", "Handbook.pdf");
    const run = (await handbook.begin("handbook"))!;
    await handbook.setPageCount("handbook", run.runId, 2);
    await handbook.addPages("handbook", run.runId, 1, ["Remote work is allowed two days a week with the manager's approval."], false);

    const question = "How many days a week is remote work allowed?";
    const { admission } = await admitQuestion(room, u.who, u.question(question));
    expect(admission).toMatchObject({ ok: true, indexing: [{ fileName: "Handbook.pdf", pagesDone: 1, pagesTotal: 2 }] });
    const admitted = admission as Extract<typeof admission, { ok: true }>;
    await runTurn(room, u.who, question, undefined, { files: admitted.files, hits: admitted.hits, indexing: admitted.indexing });

    const first = frames.find((f) => f.message.type === "stream")!.message as Extract<ServerMessage, { type: "stream" }>;
    expect(first.text).toBe("_Handbook.pdf is still being indexed (1/2 pages); this answer uses the pages done so far._\n\n");
    expect(stored[1]!.content).toMatch(/two days a week/);
    // once it is indexed, nothing is said
    await handbook.finish("handbook", run.runId);
    const again = await admitQuestion(room, u.who, u.question(question));
    expect(again.admission).not.toHaveProperty("indexing");
  });

  it("names at most three of the files still being indexed before an answer over all files", () => {
    const file = (n: number) => ({ fileName: `Scan${n}.pdf`, pagesDone: n, pagesTotal: 10 });
    expect(partialIndexNotes([file(1), file(2)])).toEqual([
      "Scan1.pdf is still being indexed (1/10 pages); this answer uses the pages done so far.",
      "Scan2.pdf is still being indexed (2/10 pages); this answer uses the pages done so far.",
    ]);
    expect(partialIndexNotes([file(1), file(2), file(3)])).toEqual([
      "Scan1.pdf, Scan2.pdf and Scan3.pdf are still being indexed; this answer uses the pages done so far.",
    ]);
    // a drive import of thirty files: one line, not thirty
    expect(partialIndexNotes(Array.from({ length: 30 }, (_, i) => file(i + 1)))).toEqual([
      "Scan1.pdf, Scan2.pdf, Scan3.pdf and 27 more are still being indexed; this answer uses the pages done so far.",
    ]);
  });

  it("in a chat without documents, waits for a file still being indexed when nothing else answers, then answers from it", async () => {
    const u = await newUser("turn-all-wait");
    const sessionId = `${u.email}-${crypto.randomUUID()}`;
    const who: SocketIdentity = { sessionId, access: "owner", userId: u.user.id, email: u.email, authSessionId: null, ip: "203.0.113.9" };
    const { room, stored, frames } = memoryRoom();
    // the user's only file, just uploaded: no page read yet
    const handbook = library(env, u.user.id);
    await handbook.enqueue("handbook", "Handbook.pdf");
    const run = (await handbook.begin("handbook"))!;
    await handbook.setPageCount("handbook", run.runId, 1);

    const question = "How many days a week is remote work allowed?";
    const { admission } = await admitQuestion(room, who, { action: "chat", query: question, session_id: sessionId });
    const admitted = admission as Extract<typeof admission, { ok: true }>;
    expect(admitted.indexing).toEqual([expect.objectContaining({ fileName: "Handbook.pdf", pagesDone: 0 })]);
    const turn = runTurn(room, who, question, undefined, { files: admitted.files, hits: admitted.hits, indexing: admitted.indexing });
    await new Promise((resolve) => setTimeout(resolve, 400));
    await handbook.addPages("handbook", run.runId, 1, ["Remote work is allowed two days a week with the manager's approval."], false);
    await handbook.finish("handbook", run.runId);
    await turn;

    // indexed meanwhile: the answer comes from it, and says nothing about indexing
    expect(stored[1]!.content).toMatch(/^Remote work is allowed two days a week/);
    expect(frames.some((f) => f.message.type === "stream" && f.message.text.includes("still being indexed"))).toBe(false);
  });

  it("numbers a model's citations in the order it first uses them, one source per page, also when the stream cuts one", async () => {
    const u = await newUser("turn-model-cites");
    const doc = await uploadAndIndex(
      u.token,
      "Policy.pdf",
      await textPdf(["Parental leave is sixteen weeks.", "Parental leave is paid in full.", "Parental leave can be split in two."]),
    );
    await waitUntilDone(u.token, doc.fileId);
    const who: SocketIdentity = {
      sessionId: `${u.email}-cites`,
      access: "owner",
      userId: u.user.id,
      email: u.email,
      authSessionId: null,
      ip: "203.0.113.9",
    };
    const { room, stored, frames } = memoryRoom({ ...env, LLM_BASE_URL: inject("llmBaseUrl"), LLM_API_KEY: "test-key" } as Env);
    await admitQuestion(room, who, {
      action: "chat",
      query: "Parental leave, out of order?",
      session_id: who.sessionId,
      file_ids: [doc.fileId],
    });
    await runTurn(room, who, "Parental leave, out of order?");
    const streamed = frames.flatMap((f) => (f.message.type === "stream" ? [f.message.text] : [])).join("");
    expect(streamed).toBe("Leave is sixteen weeks [1]; it is paid [2] and can be split [3]. See [1].");
    const answer = stored[1]!;
    expect(answer.content).toBe(streamed);
    expect(answer.sources!.map((s) => s.n)).toEqual([1, 2, 3]);
    expect(new Set(answer.sources!.map((s) => s.page)).size).toBe(3);
  });

  it("ends with the plain failure text when the answer provider fails", async () => {
    const u = await owner("turn-fail");
    const { room, stored, frames } = memoryRoom({ ...env, LLM_BASE_URL: inject("llmBaseUrl"), LLM_API_KEY: "wrong-key" } as Env);
    await runTurn(room, u.who, "How long is parental leave?");
    expect(frames.map((f) => f.message)).toContainEqual({ type: "error", code: 500, message: CHAT_MESSAGES.sendFailed });
    expect(stored[1]).toMatchObject({ role: "assistant", content: CHAT_MESSAGES.sendFailed, status: "complete" });
  });
});

describe("regenerating the last answer", () => {
  it("refuses another session, a reader and a chat without an answer, without using the quota", async () => {
    const u = await owner("regen-refuse");
    const { room } = memoryRoom();
    const regenerate = { action: "regenerate" as const, session_id: u.who.sessionId };
    expect((await admitRegenerate(room, u.who, { ...regenerate, session_id: "another" })).admission).toEqual({
      ok: false,
      code: 403,
      message: CHAT_MESSAGES.notYourSession,
    });
    expect((await admitRegenerate(room, u.who, regenerate)).admission).toEqual({
      ok: false,
      code: 400,
      message: CHAT_MESSAGES.nothingToRegenerate,
    });
    room.messages.addQuestion("How long is parental leave?", []);
    room.messages.completeAnswer(room.messages.startAnswer(), "Sixteen weeks.", []);
    expect((await admitRegenerate(room, { ...u.who, access: "member" }, regenerate)).admission).toEqual({
      ok: false,
      code: 403,
      message: CHAT_MESSAGES.readOnly,
    });
    expect(await usedToday(u.user.id)).toBe(0);
  });

  it("replaces the last answer with a new one to the same question, and uses one message of the quota", async () => {
    const u = await owner("regen-run");
    const { room, stored, frames } = memoryRoom();
    await admitQuestion(room, u.who, u.question("How long is parental leave?", { file_ids: [u.doc.fileId] }));
    await runTurn(room, u.who, "How long is parental leave?");
    const first = stored[1]!;
    frames.length = 0;

    const admitted = (await admitRegenerate(room, u.who, { action: "regenerate", session_id: u.who.sessionId })).admission;
    expect(admitted).toEqual({ ok: true, query: "How long is parental leave?" });
    expect(await usedToday(u.user.id)).toBe(2);
    await runTurn(room, u.who, "ignored: the stored question is asked", undefined, { regenerate: true });

    expect(frames[0]!.message).toEqual({ type: "regenerating", session_id: u.who.sessionId, message_id: first.id });
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(stored[0]!.content).toBe("How long is parental leave?");
    const again = stored[1]!;
    expect(again.id).not.toBe(first.id);
    expect(again).toMatchObject({ status: "complete", sources: [expect.objectContaining({ fileId: u.doc.fileId })] });
    expect(again.content).toMatch(/sixteen weeks/i);
    const end = frames.find((f) => f.message.type === "end")!.message as Extract<ServerMessage, { type: "end" }>;
    expect(end.message.id).toBe(again.id);
  });
});
