// Proves push, not poll (#44 item 5): a chat's documents' progress comes from the
// owner's Library (a chat reads no D1 while a file indexes; frames arrive in order
// and end with the final status), a question waiting for a file wakes on that
// push, and revocation reaches open sockets when it happens, with no read of the
// sockets' sessions while an answer streams.
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { chatSession } from "../../worker/chat/stub";
import { library } from "../../worker/library/stub";
import type { SyncSql } from "../../worker/library/library-schema";
import type { DocumentProgress } from "../../worker/library/types";
import { PUSH_INTERVAL_MS, Watchers } from "../../worker/library/watchers";
import type { SocketIdentity } from "../../worker/chat/identity";
import { ATTACHMENT_WAIT_MS, type ChatRoom } from "../../worker/chat/turn";
import { MESSAGES } from "../../worker/contract/messages";
import { CLOSE_UNAUTHORIZED, type ChatFile } from "../../worker/contract/protocol";
import { call, GOOD_PASSWORD, newUser } from "../helpers/api";
import { countD1Calls } from "../helpers/d1-calls";
import { listFiles, uploadAndIndex, waitUntilDone } from "../helpers/documents";
import { textPdf } from "../helpers/pdfs";
import { openSocket, type TestSocket } from "../helpers/sockets";

const PAGES = 450;
const FILLER = "General provisions about expenses, approvals, cost centres and the reimbursement of employees. ".repeat(12);
// made once: a long PDF whose answer is near its end
const longPdf = textPdf(
  Array.from({ length: PAGES }, (_, i) =>
    i === PAGES - 50 ? "Per diem. The daily meal allowance abroad is forty-five euros." : `Chapter ${i + 1}. ${FILLER}`,
  ),
);
const QUESTION = "What is the daily meal allowance abroad?";

const RANK: Record<string, number> = { uploading: 0, pending: 1, processing: 2, indexed: 3 };

/** The file's chips as the socket saw them, in order: statuses never go back, pages never decrease. */
function expectInOrder(frames: ChatFile[]) {
  for (let i = 1; i < frames.length; i++) {
    expect(RANK[frames[i]!.status]!).toBeGreaterThanOrEqual(RANK[frames[i - 1]!.status]!);
    expect(frames[i]!.pagesDone).toBeGreaterThanOrEqual(frames[i - 1]!.pagesDone);
  }
  expect(frames.at(-1)).toMatchObject({ status: "indexed", pagesDone: PAGES, pagesTotal: PAGES });
}

const chipsOf = (socket: TestSocket, fileId: string) =>
  socket.all("files").flatMap((f) => f.files.filter((file) => file.fileId === fileId));

async function chatOf(prefix: string) {
  const u = await newUser(prefix);
  const sessionId = `${u.email}-${crypto.randomUUID()}`;
  return { ...u, sessionId, socket: await openSocket(sessionId, u.token) };
}

describe("the Library's pushes", () => {
  it("tell a watching chat at most once per interval, the latest state each time, and a final status at once; a watch lasts while the chat keeps it", async () => {
    await runInDurableObject(library(env, `push-unit-${crypto.randomUUID()}`), async (_library, state) => {
      const sql: SyncSql = {
        rows: <T>(query: string, ...params: (string | number | null)[]) => state.storage.sql.exec(query, ...params).toArray() as T[],
        transaction: (fn) => state.storage.transactionSync(fn),
      };
      const told: { chatId: string; progress: DocumentProgress; at: number }[] = [];
      let keep = { ids: true, all: true };
      const watchers = new Watchers(sql, async (chatId, progress) => {
        told.push({ chatId, progress, at: Date.now() });
        return keep;
      });
      const step = (status: string, pagesDone: number) => {
        sql.rows("UPDATE documents SET status = ?, pages_done = ?, updated_at = ? WHERE id = 'doc'", status, pagesDone, Date.now());
        watchers.changed("doc", status === "indexed");
      };
      sql.rows("INSERT INTO documents (id, file_name, status, pages_total, updated_at) VALUES ('doc', 'A.pdf', 'processing', 100, ?)", 0);
      expect(watchers.watch("chat-a", "user-1", { documentIds: ["doc"] }).files).toMatchObject([{ fileId: "doc", pagesDone: 0 }]);
      watchers.watch("chat-b", "user-1", { all: true });

      // nine steps 50 ms apart: each chat is told at once, then at most once per interval, the latest state each time
      for (let page = 10; page <= 90; page += 10) {
        step("processing", page);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise((resolve) => setTimeout(resolve, PUSH_INTERVAL_MS + 100));
      for (const chatId of ["chat-a", "chat-b"]) {
        const pushes = told.filter((t) => t.chatId === chatId);
        expect(pushes.length).toBeGreaterThanOrEqual(2);
        expect(pushes.length).toBeLessThanOrEqual(3);
        expect(pushes[0]!.progress.files[0]!.pagesDone).toBe(10);
        expect(pushes.at(-1)!.progress.files[0]!.pagesDone).toBe(90);
        // pushes are flushed an interval apart; each runs after its flush (queued behind the one before),
        // so a busy test run can start the first a few tens of milliseconds late (466 ms apart seen in CI)
        for (let i = 1; i < pushes.length; i++) expect(pushes[i]!.at - pushes[i - 1]!.at).toBeGreaterThanOrEqual(PUSH_INTERVAL_MS - 100);
      }
      expect(told.find((t) => t.chatId === "chat-b")!.progress.indexing).toHaveLength(1); // a watch over all files hears what is still being indexed

      // the final status goes at once, within the interval
      step("processing", 95);
      await vi.waitFor(() => expect(told.at(-1)!.progress.files[0]!.pagesDone).toBe(95));
      const before = told.length;
      step("indexed", 100);
      await vi.waitFor(() => expect(told).toHaveLength(before + 2));
      expect(told.at(-1)!.at - told[before - 1]!.at).toBeLessThan(PUSH_INTERVAL_MS);
      expect(told.slice(before).map((t) => t.progress.files[0]!.status)).toEqual(["indexed", "indexed"]);
      expect(told.slice(before).find((t) => t.chatId === "chat-b")!.progress.indexing).toEqual([]);
      // both watches go on while the chats keep them (an indexed document may still be deleted)...
      const watching = () => sql.rows<{ chat_id: string }>("SELECT chat_id FROM document_watchers ORDER BY chat_id").map((w) => w.chat_id);
      expect(watching()).toEqual(["chat-a", "chat-b"]);
      // ...and end when a chat answers a push that it no longer watches (its last tab closed)
      keep = { ids: false, all: true };
      step("indexed", 100);
      await vi.waitFor(() => expect(watching()).toEqual(["chat-b"]));
    });
  });
});

describe("a chat's documents, pushed by the Library", () => {
  it("show a long file's progress with no D1 read from the chat: frames in order, the last one indexed", async () => {
    const u = await chatOf("push-progress");
    const doc = await uploadAndIndex(u.token, "Long.pdf", await longPdf);
    u.socket.send({ action: "set_files", session_id: u.sessionId, file_ids: [doc.fileId], token: u.token });
    await u.socket.next("files");
    const d1 = countD1Calls();
    try {
      await vi.waitFor(() => expect(chipsOf(u.socket, doc.fileId).at(-1)?.status).toBe("indexed"), { timeout: 60_000, interval: 20 });
    } finally {
      d1.stop();
    }
    const frames = chipsOf(u.socket, doc.fileId);
    expect(frames[0]!.status).not.toBe("indexed");
    expect(frames.length).toBeGreaterThan(2);
    expectInOrder(frames);
    expect(d1.from("/worker/chat/")).toEqual([]);
  });

  it("wake a question waiting for its file on the push, with a fixed number of D1 statements from the chat", async () => {
    const u = await chatOf("push-question");
    const doc = await uploadAndIndex(u.token, "Long.pdf", await longPdf);
    const d1 = countD1Calls();
    const started = Date.now();
    let end;
    try {
      u.socket.send({ action: "chat", query: QUESTION, session_id: u.sessionId, file_ids: [doc.fileId], token: u.token });
      end = await u.socket.next("end");
    } finally {
      d1.stop();
    }
    // woken by the push, not by the end of the wait
    expect(Date.now() - started).toBeLessThan(ATTACHMENT_WAIT_MS);
    expect(end.message.content).toContain("forty-five euros");
    expect(end.message.content).not.toContain("still being indexed");
    expectInOrder(chipsOf(u.socket, doc.fileId));
    // the first question lists the chat; its end records the turn and reads the chat's files and list: none in a loop
    expect(d1.from("/worker/chat/").length).toBeLessThanOrEqual(4);
  });

  it("wake a question over all files (none attached) when the owner's file is indexed", async () => {
    const u = await chatOf("push-all");
    await uploadAndIndex(u.token, "Long.pdf", await longPdf);
    const d1 = countD1Calls();
    const started = Date.now();
    let end;
    try {
      u.socket.send({ action: "chat", query: QUESTION, session_id: u.sessionId, token: u.token });
      end = await u.socket.next("end");
    } finally {
      d1.stop();
    }
    expect(Date.now() - started).toBeLessThan(ATTACHMENT_WAIT_MS);
    expect(end.message.content).toContain("forty-five euros");
    // the first question lists the chat, its end records the turn and reads the chat list
    expect(d1.from("/worker/chat/").length).toBeLessThanOrEqual(3);
  });
});

describe("a document that leaves the chat", () => {
  it("a file uploaded again (a duplicate) and asked about at once gives its place to the one it repeats, told by the push", async () => {
    const u = await chatOf("push-duplicate");
    const bytes = await textPdf(["Benefits. Dental coverage starts after ninety days."]);
    const first = await uploadAndIndex(u.token, "Benefits.pdf", bytes);
    await waitUntilDone(u.token, first.fileId);
    const again = await uploadAndIndex(u.token, "Benefits.pdf", bytes);
    expect(again.fileId).not.toBe(first.fileId); // its own id until the indexer finds it a duplicate
    const started = Date.now();
    u.socket.send({
      action: "chat",
      query: "When does dental coverage start?",
      session_id: u.sessionId,
      file_ids: [again.fileId],
      token: u.token,
    });
    const end = await u.socket.next("end");
    expect(Date.now() - started).toBeLessThan(ATTACHMENT_WAIT_MS);
    expect(end.message.content).toContain("ninety days");
    expect(end.files.map((f) => f.fileId)).toEqual([first.fileId]);
    expect(u.socket.all("files").at(-1)!.files).toEqual([expect.objectContaining({ fileId: first.fileId, status: "indexed" })]);
  });

  it("the chips follow a document the Library removes: one dropped as a duplicate shows the one it repeats, one deleted leaves", async () => {
    const u = await chatOf("push-removed");
    const original = await uploadAndIndex(u.token, "Benefits.pdf", await textPdf(["Benefits. Dental coverage starts after ninety days."]));
    await waitUntilDone(u.token, original.fileId);
    // two uploads waiting for the indexer, as the index call leaves them
    const pending = ["dup", "other"].map((name) => `${name}-${crypto.randomUUID()}`);
    for (const id of pending) {
      await env.DB.prepare("INSERT INTO documents (id, user_id, file_name, r2_key, status) VALUES (?, ?, ?, ?, 'pending')")
        .bind(id, u.user.id, `${id}.pdf`, `users/${u.user.id}/${id}.pdf`)
        .run();
      await library(env, u.user.id).enqueue(id, `${id}.pdf`, null, { catalogued: true });
    }
    const [dup, other] = pending as [string, string];
    u.socket.send({ action: "set_files", session_id: u.sessionId, file_ids: [dup, other], token: u.token });
    expect((await u.socket.next("files")).files.map((f) => [f.fileId, f.status])).toEqual([
      [dup, "pending"],
      [other, "pending"],
    ]);
    const d1 = countD1Calls();
    try {
      const frames = u.socket.all("files").length;
      await library(env, u.user.id).remove(dup, original.fileId);
      expect((await u.socket.next("files", frames)).files.map((f) => [f.fileId, f.status])).toEqual([
        [original.fileId, "indexed"],
        [other, "pending"],
      ]);
      await library(env, u.user.id).remove(other);
      expect((await u.socket.next("files", frames + 1)).files.map((f) => f.fileId)).toEqual([original.fileId]);
    } finally {
      d1.stop();
    }
    expect(d1.from("/worker/chat/")).toEqual([]);
  });

  it("an indexed file deleted from My Files in another tab leaves the chips of a chat open on it at once", async () => {
    const u = await chatOf("push-deleted-elsewhere");
    const kept = await uploadAndIndex(u.token, "Handbook.pdf", await textPdf(["Leave. Parental leave is sixteen weeks."]));
    const gone = await uploadAndIndex(u.token, "Benefits.pdf", await textPdf(["Benefits. Dental coverage starts after ninety days."]));
    for (const doc of [kept, gone]) await waitUntilDone(u.token, doc.fileId);
    u.socket.send({ action: "set_files", session_id: u.sessionId, file_ids: [kept.fileId, gone.fileId], token: u.token });
    expect((await u.socket.next("files")).files.map((f) => f.status)).toEqual(["indexed", "indexed"]);
    // another tab opens the same chat, then My Files deletes one of its files
    const tab = await openSocket(u.sessionId, u.token);
    tab.send({ action: "get_full_chat", session_id: u.sessionId, token: u.token });
    expect((await tab.next("full_chat")).files).toHaveLength(2);
    const frames = { chat: u.socket.all("files").length, tab: tab.all("files").length };
    const hash = (await listFiles(u.token)).files.find((f) => f.fileId === gone.fileId)!.fileHash;
    expect((await call("DELETE", "/api/documents", { token: u.token, body: { file_hashes: [hash] } })).json.deleted).toEqual([hash]);
    for (const [socket, after] of [
      [u.socket, frames.chat],
      [tab, frames.tab],
    ] as const)
      expect((await socket.next("files", after)).files.map((f) => f.fileId)).toEqual([kept.fileId]);
  });

  it("a file a question attached is watched from that question's admission: deleting it leaves the chips at once", async () => {
    const u = await chatOf("push-deleted-asked");
    const doc = await uploadAndIndex(u.token, "Benefits.pdf", await textPdf(["Benefits. Dental coverage starts after ninety days."]));
    await waitUntilDone(u.token, doc.fileId);
    u.socket.send({
      action: "chat",
      query: "When does dental coverage start?",
      session_id: u.sessionId,
      file_ids: [doc.fileId],
      token: u.token,
    });
    expect((await u.socket.next("end")).message.content).toContain("ninety days");
    const frames = u.socket.all("files").length;
    const hash = (await listFiles(u.token)).files.find((f) => f.fileId === doc.fileId)!.fileHash;
    expect((await call("DELETE", "/api/documents", { token: u.token, body: { file_hashes: [hash] } })).json.deleted).toEqual([hash]);
    expect((await u.socket.next("files", frames)).files).toEqual([]);
  });
});

/**
 * A model that writes a few words, then one more every 200 ms for `ms` (an answer
 * that streams for as long as a test needs). Its stream is made, fed and ended
 * by the chat's object that fetched it (I/O of one object cannot be fed from another).
 */
function slowModel(ms: number) {
  vi.spyOn(globalThis, "fetch").mockImplementation(async (_input, init) => {
    if (!JSON.parse(String(init?.body ?? "{}")).stream) return Response.json({ choices: [{ message: { content: "Dental" } }] });
    const encode = (text: string) => new TextEncoder().encode(`data: ${text}\n\n`);
    const chunk = (text: string) => encode(JSON.stringify({ choices: [{ delta: { content: text } }] }));
    let timer: ReturnType<typeof setInterval>;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk("Dental coverage "));
        const endsAt = Date.now() + ms;
        timer = setInterval(() => {
          if (Date.now() < endsAt) return controller.enqueue(chunk("starts "));
          clearInterval(timer);
          controller.enqueue(chunk("after ninety days [1]."));
          controller.enqueue(encode("[DONE]"));
          controller.close();
        }, 200);
      },
      cancel: () => clearInterval(timer),
    });
    return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
  });
}

async function signedInTwice(prefix: string) {
  const u = await newUser(prefix);
  const doc = await uploadAndIndex(u.token, "Benefits.pdf", await textPdf(["Benefits. Dental coverage starts after ninety days."]));
  await waitUntilDone(u.token, doc.fileId);
  const signIn = await call("POST", "/api/auth/signin", { body: { email: u.email, password: GOOD_PASSWORD } });
  return { ...u, other: signIn.json.token as string };
}

describe("revocation reaches open sockets as it happens", () => {
  afterEach(() => vi.restoreAllMocks());

  it("sign-out closes the session's sockets on every chat at once, while an answer streams, with no read of the sessions from the chat", async () => {
    const u = await signedInTwice("push-signout");
    const sessionId = `${u.email}-${crypto.randomUUID()}`;
    const asker = await openSocket(sessionId, u.token);
    const signedOut = await openSocket(sessionId, u.other);
    const elsewhere = await openSocket(`${u.email}-${crypto.randomUUID()}`, u.other);
    await runInDurableObject(chatSession(env, sessionId), (chat) => {
      (chat as unknown as { room: ChatRoom }).room.env = { ...env, LLM_BASE_URL: "http://model.test/v1", LLM_API_KEY: "key" } as Env;
    });
    slowModel(3_000);
    asker.send({ action: "chat", query: "When does dental coverage start?", session_id: sessionId, token: u.token });
    await signedOut.next("stream");

    const d1 = countD1Calls();
    try {
      // two seconds of streaming: the chat used to read the sockets' sessions every second of it
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect((await call("POST", "/api/auth/signout", { token: u.other })).status).toBe(200);
      // closed by the time sign-out answers: the session's Library told both chats
      const closedBy = (socket: TestSocket) => Promise.race([socket.closed, new Promise((resolve) => setTimeout(resolve, 50, null))]);
      expect(await closedBy(signedOut)).toMatchObject({ code: CLOSE_UNAUTHORIZED });
      expect(await closedBy(elsewhere)).toMatchObject({ code: CLOSE_UNAUTHORIZED });
      expect(elsewhere.received).toEqual([{ type: "error", code: 401, message: MESSAGES.unauthorized }]);
      expect(asker.all("end")).toEqual([]); // the answer was still being written
      expect((await asker.next("end")).message.content).toContain("ninety days");
    } finally {
      d1.stop();
    }
    expect(d1.from("/worker/chat/").filter((statement) => statement.includes("auth_sessions"))).toEqual([]);
    expect(signedOut.all("end")).toEqual([]);
  });

  it("a deleted account's sockets on a chat shared with it close at once", async () => {
    const owner = await signedInTwice("push-owner");
    const member = await newUser("push-member");
    const sessionId = `${owner.email}-${crypto.randomUUID()}`;
    const socket = await openSocket(sessionId, owner.token);
    socket.send({ action: "chat", query: "When does dental coverage start?", session_id: sessionId, token: owner.token });
    await socket.next("end");
    expect(
      (await call("POST", "/api/chat/share", { token: owner.token, body: { session_id: sessionId, emails: [member.email] } })).status,
    ).toBe(200);
    const reader = await openSocket(sessionId, member.token);
    reader.send({ action: "get_full_chat", session_id: sessionId, token: member.token });
    await reader.next("full_chat");

    expect((await call("DELETE", "/api/account", { token: member.token, body: { email: member.email } })).status).toBe(200);
    expect(await reader.closed).toMatchObject({ code: CLOSE_UNAUTHORIZED });
    expect(reader.received.at(-1)).toEqual({ type: "error", code: 401, message: MESSAGES.unauthorized });
    expect(socket.received.filter((m) => m.type === "error")).toEqual([]); // the owner stays
  });

  it("a session that ran out of time is closed at the chat's next frame, from the socket's own record", async () => {
    const u = await signedInTwice("push-expired");
    const sessionId = `${u.email}-${crypto.randomUUID()}`;
    const live = await openSocket(sessionId, u.token);
    const running = await openSocket(sessionId, u.other);
    await runInDurableObject(chatSession(env, sessionId), (_chat, state) => {
      for (const ws of state.getWebSockets()) {
        const who = ws.deserializeAttachment() as SocketIdentity;
        if (who.sessionExpiresAt === undefined) throw new Error("the socket does not know when its session expires");
        ws.serializeAttachment({
          ...who,
          sessionExpiresAt: who.authSessionId === sessionOf(u.other) ? Date.now() - 1 : who.sessionExpiresAt,
        });
      }
    });
    live.send({ action: "get_chats", token: u.token }); // its token, read once, is known from now on
    await live.next("chat_list");
    const d1 = countD1Calls();
    live.send({ action: "set_files", session_id: sessionId, file_ids: [], token: u.token });
    await live.next("files");
    d1.stop();
    expect(await running.closed).toMatchObject({ code: CLOSE_UNAUTHORIZED });
    expect(d1.from("/worker/chat/").filter((statement) => statement.includes("auth_sessions"))).toEqual([]);
  });
});

/** The signed-in session a token names (its jti). */
const sessionOf = (token: string) => JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))).jti as string;
