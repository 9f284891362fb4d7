// Proves the chat session end to end through the Worker and the ChatSession
// Durable Object: connection checks (4001 logout, 4403 no access, 1008 token mismatch), per-message tokens, signed-out
// and password-revoked sessions losing their open sockets, ping
// auto-response, a grounded turn with page citations and history, hibernation,
// queued concurrent questions, resuming a dropped answer, anonymous chat, and
// that one user's documents never reach another user's answers.
import { env } from "cloudflare:workers";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chatSession } from "../../worker/chat/stub";
import { library } from "../../worker/library/stub";
import { normalisePageText } from "../../worker/library/chunker";
import {
  CHAT_MESSAGES,
  CHAT_QUERY_MAX,
  CLOSE_NO_ACCESS,
  CLOSE_POLICY,
  CLOSE_UNAUTHORIZED,
  PING,
  PONG,
} from "../../worker/contract/protocol";
import { call, GOOD_PASSWORD, newUser } from "../helpers/api";
import { MESSAGES } from "../../worker/contract/messages";
import { uploadAndIndex, waitUntilDone } from "../helpers/documents";
import { textPdf } from "../helpers/pdfs";
import { libraryRows } from "../helpers/library";
import { openSocket, openSocketWith, socketTicket } from "../helpers/sockets";
import { MEMO_MESSAGES } from "../../worker/contract/mail";
import { mintTicket } from "../../worker/lib/tickets";

const PAGES = [
  "Employee handbook. New employees receive a laptop and a badge on their first day.",
  "Travel policy. Economy class is required for flights shorter than six hours. Receipts must be submitted within thirty days.",
  "Benefits. Dental coverage starts after ninety days of employment.",
];

async function userWithDocument(prefix = "chat", pages = PAGES) {
  const account = await newUser(prefix);
  const doc = await uploadAndIndex(account.token, "Handbook.pdf", await textPdf(pages));
  await waitUntilDone(account.token, doc.fileId);
  return { ...account, doc, sessionId: `${account.email}-${crypto.randomUUID()}` };
}

describe("connecting", () => {
  it("closes an invalid or revoked token with 4001 after an error frame", async () => {
    const bad = await openSocket(`x@example.com-${crypto.randomUUID()}`, "not-a-token");
    expect(await bad.closed).toMatchObject({ code: CLOSE_UNAUTHORIZED });
    expect(bad.received[0]).toMatchObject({ type: "error", code: 401 });

    const { email, token } = await newUser("revoked");
    await call("POST", "/api/auth/signout", { token });
    const revoked = await openSocket(`${email}-${crypto.randomUUID()}`, token);
    expect((await revoked.closed).code).toBe(CLOSE_UNAUTHORIZED);
  });

  it("closes with 4403 (no access, not a logout) a session the caller may not open", async () => {
    const alice = await userWithDocument("alice");
    const bob = await newUser("bob");
    // Alice's session exists once she has asked something.
    const socket = await openSocket(alice.sessionId, alice.token);
    socket.send({ action: "chat", query: "dental coverage", session_id: alice.sessionId, token: alice.token });
    await socket.next("end");

    const intruder = await openSocket(alice.sessionId, bob.token);
    expect((await intruder.closed).code).toBe(CLOSE_NO_ACCESS);
    expect(intruder.received).toEqual([{ type: "error", code: 403, message: "You cannot open this chat." }]);
    // a new session must carry the caller's own e-mail
    expect((await (await openSocket(`${alice.email}-${crypto.randomUUID()}`, bob.token)).closed).code).toBe(CLOSE_NO_ACCESS);
    // an anonymous visitor cannot name a user's session
    expect((await (await openSocket(alice.sessionId)).closed).code).toBe(CLOSE_NO_ACCESS);
    // nor may anyone open a socket naming no session: refused, not signed out
    for (const ticket of [undefined, await socketTicket(`${bob.email}-${crypto.randomUUID()}`, bob.token)]) {
      const none = await openSocketWith("", ticket);
      expect((await none.closed).code).toBe(CLOSE_NO_ACCESS);
      expect(none.received).toEqual([{ type: "error", code: 400, message: MEMO_MESSAGES.sessionMissing }]);
    }
  });

  it("answers the ping without waking the object", async () => {
    const socket = await openSocket(`guest-${crypto.randomUUID()}`);
    socket.ws.send(PING);
    await expect.poll(() => socket.received.some((m) => JSON.stringify(m) === PONG)).toBe(true);
  });

  it("refuses a message whose token belongs to another user, and an expired one", async () => {
    const alice = await newUser("tok-a");
    const bob = await newUser("tok-b");
    const sessionId = `${alice.email}-${crypto.randomUUID()}`;
    const mismatch = await openSocket(sessionId, alice.token);
    mismatch.send({ action: "get_chats", token: bob.token });
    expect((await mismatch.closed).code).toBe(CLOSE_POLICY);
    expect(mismatch.received.at(-1)).toMatchObject({ type: "error", code: 403 });

    // a message carrying a signed-out token is refused as a logout
    const expiring = await openSocket(sessionId, alice.token);
    const elsewhere = (await call("POST", "/api/auth/signin", { body: { email: alice.email, password: GOOD_PASSWORD } })).json.token;
    await call("POST", "/api/auth/signout", { token: elsewhere });
    expiring.send({ action: "get_chats", token: elsewhere });
    expect((await expiring.closed).code).toBe(CLOSE_UNAUTHORIZED);
    expect(expiring.received.at(-1)).toMatchObject({ type: "error", code: 401 });
    // signing out the socket's own session closes it at once, before it sends anything
    const own = await openSocket(sessionId, alice.token);
    await call("POST", "/api/auth/signout", { token: alice.token });
    expect((await own.closed).code).toBe(CLOSE_UNAUTHORIZED);
    expect(own.received).toEqual([{ type: "error", code: 401, message: MESSAGES.unauthorized }]);
  });

  it("closes the open sockets of a signed-out session and of sessions a password change revoked, before the next answer", async () => {
    const owner = await userWithDocument("revoke-live");
    const signIn = async () =>
      (await call("POST", "/api/auth/signin", { body: { email: owner.email, password: GOOD_PASSWORD } })).json.token as string;
    const [asker, signedOut, otherDevice] = [owner.token, await signIn(), await signIn()];
    const askerSocket = await openSocket(owner.sessionId, asker);
    const signedOutSocket = await openSocket(owner.sessionId, signedOut);
    const otherSocket = await openSocket(owner.sessionId, otherDevice);

    await call("POST", "/api/auth/signout", { token: signedOut });
    askerSocket.send({ action: "chat", query: "dental coverage", session_id: owner.sessionId, token: asker });
    await askerSocket.next("end");
    expect((await signedOutSocket.closed).code).toBe(CLOSE_UNAUTHORIZED);
    expect(signedOutSocket.received).toEqual([{ type: "error", code: 401, message: MESSAGES.unauthorized }]);
    expect(otherSocket.all("end")).toHaveLength(1); // still signed in: still served

    // a password change signs out every other session, and their sockets with them
    const changed = await call("POST", "/api/auth/password", {
      token: asker,
      body: { current_password: GOOD_PASSWORD, new_password: "Changed456" },
    });
    expect(changed.status).toBe(200);
    askerSocket.send({ action: "chat", query: "laptop", session_id: owner.sessionId, token: asker });
    await askerSocket.next("end", 1);
    expect((await otherSocket.closed).code).toBe(CLOSE_UNAUTHORIZED);
    expect(otherSocket.all("end")).toHaveLength(1);
    expect(otherSocket.all("stream").every((f) => askerSocket.all("end")[0]!.message.id === f.message_id)).toBe(true);
  });

  it("answers malformed frames with an error, not a crash", async () => {
    const sessionId = `guest-${crypto.randomUUID()}`;
    const socket = await openSocket(sessionId);
    socket.send("{not json");
    socket.send({ action: "fly" });
    // what the sender can fix is said: a question over the composer's limit, more documents than a chat takes
    socket.send({ action: "chat", query: "x".repeat(CHAT_QUERY_MAX + 1), session_id: sessionId });
    socket.send({ action: "set_files", session_id: sessionId, file_ids: Array.from({ length: 1000 }, (_, i) => `f${i}`) });
    await socket.next("error", 3);
    expect(socket.all("error").map((e) => [e.code, e.message])).toEqual([
      [400, CHAT_MESSAGES.badMessage],
      [400, CHAT_MESSAGES.badMessage],
      [400, `A question can be at most ${CHAT_QUERY_MAX} characters. Shorten it and send it again.`],
      [400, CHAT_MESSAGES.tooManyFiles],
    ]);
  });
});

describe("socket tickets", () => {
  const ticketFor = async (token: string, sessionId: string) =>
    call("POST", "/api/chat/ticket", { token, body: { session_id: sessionId } });
  const refusedAsBadToken = async (socket: Awaited<ReturnType<typeof openSocketWith>>) => {
    expect(await socket.closed).toMatchObject({ code: CLOSE_UNAUTHORIZED });
    expect(socket.received).toEqual([{ type: "error", code: 401, message: MESSAGES.unauthorized }]);
  };

  it("are minted for a signed-in caller and a session, hold no sign-in token, and open the chat once", async () => {
    const u = await newUser("ticket");
    const sessionId = `${u.email}-${crypto.randomUUID()}`;
    expect((await call("POST", "/api/chat/ticket", { body: { session_id: sessionId } })).status).toBe(401);
    expect(await ticketFor(u.token, "")).toMatchObject({ status: 400, json: { message: "Session ID is missing" } });

    const minted = await ticketFor(u.token, sessionId);
    expect(minted.status).toBe(200);
    const ticket = minted.json.ticket as string;
    expect(ticket).not.toContain(u.token);
    expect(ticket).not.toContain(u.token.split(".")[2]!); // not even the token's signature
    const socket = await openSocketWith(sessionId, ticket);
    // frames still carry the sign-in token
    socket.send({ action: "get_chats", token: u.token });
    expect((await socket.next("chat_list")).chats).toEqual([]);

    // the same ticket again, while the first socket is open and after it closed: refused as a bad token
    await refusedAsBadToken(await openSocketWith(sessionId, ticket));
    socket.ws.close(1000);
    await refusedAsBadToken(await openSocketWith(sessionId, ticket));
  });

  it("refuse an expired ticket, another session's, a forged one, one whose sign-in ended, and the sign-in token itself", async () => {
    const u = await newUser("ticket-bad");
    const sessionId = `${u.email}-${crypto.randomUUID()}`;
    const jti = JSON.parse(atob(u.token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))).jti as string;
    const claims = { userId: u.user.id, authSessionId: jti, sessionId };

    await refusedAsBadToken(await openSocketWith(sessionId, await mintTicket(env.JWT_SECRET, claims, -1000)));
    const otherSession = (await ticketFor(u.token, `${u.email}-${crypto.randomUUID()}`)).json.ticket as string;
    await refusedAsBadToken(await openSocketWith(sessionId, otherSession));
    await refusedAsBadToken(await openSocketWith(sessionId, await mintTicket("another-secret-that-is-long-enough-0123456789", claims)));
    await refusedAsBadToken(await openSocketWith(sessionId, u.token));

    const beforeSignOut = (await ticketFor(u.token, sessionId)).json.ticket as string;
    await call("POST", "/api/auth/signout", { token: u.token });
    await refusedAsBadToken(await openSocketWith(sessionId, beforeSignOut));
  });

  it("are their minter's: another user's ticket opens only what that user may open", async () => {
    const alice = await userWithDocument("ticket-alice");
    const bob = await newUser("ticket-bob");
    const socket = await openSocket(alice.sessionId, alice.token);
    socket.send({ action: "chat", query: "dental coverage", session_id: alice.sessionId, token: alice.token });
    await socket.next("end");

    // Bob's ticket for Alice's chat is Bob's: the chat is not his to open
    const bobs = (await ticketFor(bob.token, alice.sessionId)).json.ticket as string;
    const intruder = await openSocketWith(alice.sessionId, bobs);
    expect((await intruder.closed).code).toBe(CLOSE_NO_ACCESS);
    // Alice's ticket with Bob's id written into it no longer verifies
    const alices = (await ticketFor(alice.token, alice.sessionId)).json.ticket as string;
    const [version, body, signature] = alices.split(".");
    const claims = JSON.parse(atob(body!.replace(/-/g, "+").replace(/_/g, "/")));
    const forged = btoa(JSON.stringify({ ...claims, u: bob.user.id }))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    await refusedAsBadToken(await openSocketWith(alice.sessionId, `${version}.${forged}.${signature}`));
    // an anonymous visitor still connects without any
    expect((await openSocket(`guest-${crypto.randomUUID()}`)).ws.readyState).toBe(WebSocket.READY_STATE_OPEN);
  });
});

describe("a chat turn", () => {
  it("streams a grounded answer citing file and page, stores it, titles the chat and lists it", async () => {
    const u = await userWithDocument();
    const socket = await openSocket(u.sessionId, u.token);
    socket.send({ action: "chat", query: "When must travel receipts be submitted?", session_id: u.sessionId, token: u.token });
    const end = await socket.next("end");

    const streamed = socket
      .all("stream")
      .map((s) => s.text)
      .join("");
    expect(streamed).toBe(end.message.content);
    expect(socket.all("stream").length).toBeGreaterThan(1); // in pieces, not in one frame
    expect(end.mode).toBe("local");
    expect(end.message.content).toContain("Receipts must be submitted within thirty days.");
    expect(end.message.content).toMatch(/\[1\]/);
    expect(end.message.sources).toEqual([
      {
        n: 1,
        fileId: u.doc.fileId,
        fileName: "Handbook.pdf",
        page: 2,
        charStart: expect.any(Number),
        charEnd: expect.any(Number),
        quote: expect.any(String),
      },
    ]);
    // the source keeps the cited passage's span in its page's text, for the viewer's highlight
    const [source] = end.message.sources!;
    const cited = normalisePageText(PAGES[1]!).slice(source!.charStart, source!.charEnd);
    expect(cited).toContain("Receipts must be submitted within thirty days.");
    expect(cited.startsWith(source!.quote!)).toBe(true);

    const update = await socket.next("chat_list_update");
    expect(update.chats).toEqual([
      { session_id: u.sessionId, updated_at: expect.any(Number), summary: "When must travel receipts be submitted?" },
    ]);
    const row = await env.DB.prepare("SELECT user_id, summary FROM chats WHERE session_id = ?").bind(u.sessionId).first();
    expect(row).toEqual({ user_id: u.user.id, summary: "When must travel receipts be submitted?" });

    socket.send({ action: "get_full_chat", session_id: u.sessionId, token: u.token });
    const full = await socket.next("full_chat");
    expect(full.messages.map((m) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "complete"],
    ]);
    expect(full.messages[1]).toMatchObject({ content: end.message.content, sources: end.message.sources });
    expect(full.readOnly).toBe(false);

    socket.send({ action: "get_chats", token: u.token });
    expect((await socket.next("chat_list")).chats.map((c) => c.session_id)).toEqual([u.sessionId]);
  });

  it("scopes retrieval to the attached document", async () => {
    const u = await userWithDocument("attach");
    const other = await uploadAndIndex(u.token, "Other.pdf", await textPdf(["Receipts for office supplies go to the finance team."]));
    await waitUntilDone(u.token, other.fileId);
    const socket = await openSocket(u.sessionId, u.token);
    socket.send({ action: "chat", query: "receipts", session_id: u.sessionId, s3_key: other.s3Key, token: u.token });
    const end = await socket.next("end");
    expect(end.message.sources?.map((s) => s.fileId)).toEqual([other.fileId]);
    socket.send({ action: "get_full_chat", session_id: u.sessionId, token: u.token });
    expect((await socket.next("full_chat")).messages[0]!.fileInfo).toEqual([{ name: "Other.pdf", fileId: other.fileId }]);
  });

  it("says plainly when nothing relevant is found, and cites nothing", async () => {
    const u = await userWithDocument("nothing");
    const socket = await openSocket(u.sessionId, u.token);
    socket.send({ action: "chat", query: "quantum chromodynamics lattice", session_id: u.sessionId, token: u.token });
    const end = await socket.next("end");
    expect(end.message.content).toContain("I could not find this in your documents");
    expect(end.message.sources).toEqual([]);
  });

  it("says the question failed, never leaves it waiting, when the user's Library cannot admit it", async () => {
    const u = await userWithDocument("broken-library");
    // a Library whose documents table is gone: its admission of the question throws
    await runInDurableObject(library(env, u.user.id), (_object, state) => void state.storage.sql.exec("DROP TABLE documents"));
    const socket = await openSocket(u.sessionId, u.token);
    socket.send({ action: "chat", query: "dental coverage", session_id: u.sessionId, token: u.token });
    expect(await socket.next("error")).toEqual({ type: "error", code: 500, message: CHAT_MESSAGES.sendFailed });
  });

  it("keeps working after the object hibernates", async () => {
    const u = await userWithDocument("hibernate");
    const socket = await openSocket(u.sessionId, u.token);
    socket.send({ action: "chat", query: "dental coverage", session_id: u.sessionId, token: u.token });
    await socket.next("end");

    const stub = chatSession(env, u.sessionId);
    await evictDurableObject(stub, { webSockets: "hibernate" });

    socket.send({ action: "chat", query: "economy class flights", session_id: u.sessionId, token: u.token });
    const second = await socket.next("end", 1);
    expect(second.message.content).toContain("Economy class is required");
    socket.send({ action: "get_full_chat", session_id: u.sessionId, token: u.token });
    expect((await socket.next("full_chat")).messages).toHaveLength(4);
  });

  it("regenerates the last answer for the owner: the old one is gone after a reload; a reader is refused", async () => {
    const u = await userWithDocument("regen");
    const socket = await openSocket(u.sessionId, u.token);
    socket.send({ action: "regenerate", session_id: u.sessionId, token: u.token });
    expect(await socket.next("error")).toMatchObject({ code: 400, message: CHAT_MESSAGES.nothingToRegenerate });

    socket.send({ action: "chat", query: "dental coverage", session_id: u.sessionId, token: u.token });
    const first = await socket.next("end");
    socket.send({ action: "regenerate", session_id: u.sessionId, token: u.token });
    expect(await socket.next("regenerating")).toEqual({ type: "regenerating", session_id: u.sessionId, message_id: first.message.id });
    const again = await socket.next("end", 1);
    expect(again.message.id).not.toBe(first.message.id);
    expect(again.message.content).toContain("Dental coverage starts after ninety days");

    socket.send({ action: "get_full_chat", session_id: u.sessionId, token: u.token });
    const full = await socket.next("full_chat");
    expect(full.messages.map((m) => [m.role, m.id === again.message.id])).toEqual([
      ["user", false],
      ["assistant", true],
    ]);

    const reader = await newUser("regen-reader");
    const shared = await call("POST", "/api/chat/share", { token: u.token, body: { session_id: u.sessionId, emails: [reader.email] } });
    expect(shared.status).toBe(200);
    const readerSocket = await openSocket(u.sessionId, reader.token);
    readerSocket.send({ action: "regenerate", session_id: u.sessionId, token: reader.token });
    expect(await readerSocket.next("error")).toMatchObject({ code: 403, message: CHAT_MESSAGES.readOnly });
  });

  it("stops a question whose Stop arrives before its answer starts; the next question is answered in full", async () => {
    const u = await userWithDocument("stop-early");
    const socket = await openSocket(u.sessionId, u.token);
    socket.send({ action: "chat", query: "dental coverage", session_id: u.sessionId, token: u.token });
    socket.send({ action: "stop", session_id: u.sessionId, token: u.token });
    const stopped = await socket.next("end");
    expect(stopped.message.status).toBe("stopped");
    expect(socket.all("stream")).toEqual([]);

    socket.send({ action: "chat", query: "economy class flights", session_id: u.sessionId, token: u.token });
    const next = await socket.next("end", 1);
    expect(next.message).toMatchObject({ status: "complete", content: expect.stringContaining("Economy class is required") });
    socket.send({ action: "get_full_chat", session_id: u.sessionId, token: u.token });
    const full = await socket.next("full_chat");
    expect(full.messages.map((m) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "stopped"],
      ["user", "complete"],
      ["assistant", "complete"],
    ]);
  });

  it("queues two questions sent at once: complete, separate answers that never interleave", async () => {
    const u = await userWithDocument("queue");
    const socket = await openSocket(u.sessionId, u.token);
    socket.send({ action: "chat", query: "dental coverage", session_id: u.sessionId, token: u.token });
    socket.send({ action: "chat", query: "laptop and badge", session_id: u.sessionId, token: u.token });
    const [first, second] = [await socket.next("end"), await socket.next("end", 1)];
    expect(first.message.content).toContain("Dental coverage starts after ninety days");
    expect(second.message.content).toContain("laptop and a badge");

    const order = socket.all("stream").map((s) => s.message_id);
    const switchPoint = order.indexOf(second.message.id);
    expect(order.slice(0, switchPoint).every((id) => id === first.message.id)).toBe(true);
    expect(order.slice(switchPoint).every((id) => id === second.message.id)).toBe(true);
    const text = (id: string) =>
      socket
        .all("stream")
        .filter((s) => s.message_id === id)
        .map((s) => s.text)
        .join("");
    expect(text(first.message.id)).toBe(first.message.content);
    expect(text(second.message.id)).toBe(second.message.content);
  });

  it("finishes an answer after the socket drops; a reconnect gets the partial text and the rest", async () => {
    const u = await userWithDocument("resume");
    const first = await openSocket(u.sessionId, u.token);
    first.send({ action: "chat", query: "travel receipts economy flights dental", session_id: u.sessionId, token: u.token });
    await first.next("stream");
    first.ws.close(1000, "tab closed");

    const second = await openSocket(u.sessionId, u.token);
    second.send({ action: "get_full_chat", session_id: u.sessionId, token: u.token });
    const full = await second.next("full_chat");
    const partial = full.messages[1]!;
    expect(partial.status).toBe("streaming");
    const end = await second.next("end");
    // what the client appends to the snapshot: the chunks that arrive after it (earlier ones are in it)
    const afterSnapshot = second.received
      .slice(second.received.indexOf(full) + 1)
      .flatMap((m) => (m.type === "stream" ? [m.text] : []))
      .join("");
    expect(end.message.content.startsWith(partial.content)).toBe(true);
    expect(partial.content + afterSnapshot).toBe(end.message.content);
  });

  it("keeps an answer cut off by a restart as written, marked interrupted, and leaves it out of the model's history", async () => {
    const u = await userWithDocument("cut");
    const socket = await openSocket(u.sessionId, u.token);
    socket.send({ action: "chat", query: "dental coverage", session_id: u.sessionId, token: u.token });
    await socket.next("end");
    // the object dies while writing the second answer: its row is still marked streaming
    const stub = chatSession(env, u.sessionId);
    await runInDurableObject(stub, (_object, state) => {
      const now = Date.now();
      state.storage.sql.exec(
        "INSERT INTO messages (id, role, content, status, created_at) VALUES ('q2', 'user', 'laptop?', 'complete', ?)",
        now,
      );
      state.storage.sql.exec(
        "INSERT INTO messages (id, role, content, status, created_at) VALUES ('a2', 'assistant', 'New employees receive a lap', 'streaming', ?)",
        now,
      );
    });
    await evictDurableObject(stub);

    const again = await openSocket(u.sessionId, u.token);
    again.send({ action: "get_full_chat", session_id: u.sessionId, token: u.token });
    const cut = (await again.next("full_chat")).messages.at(-1)!;
    expect(cut).toMatchObject({ id: "a2", content: "New employees receive a lap", status: "interrupted" });
  });

  it("tells every socket of the chat the question it is about to answer, before its answer", async () => {
    const u = await userWithDocument("two-tabs");
    const asking = await openSocket(u.sessionId, u.token);
    const other = await openSocket(u.sessionId, u.token);
    asking.send({ action: "chat", query: "dental coverage", session_id: u.sessionId, token: u.token });
    const end = await other.next("end");
    const question = other.received.find((m) => m.type === "question");
    expect(question).toMatchObject({ session_id: u.sessionId, message: { role: "user", content: "dental coverage" } });
    expect(other.received.indexOf(question!)).toBeLessThan(other.received.findIndex((m) => m.type === "stream"));
    await asking.next("end");
    expect((await asking.next("question")).message).toEqual((question as { message: unknown }).message);
    other.send({ action: "get_full_chat", session_id: u.sessionId, token: u.token });
    const stored = (await other.next("full_chat")).messages;
    expect(stored.map((m) => m.id)).toEqual([(question as { message: { id: string } }).message.id, end.message.id]);
  });

  it("answers a question cut off by a restart before its answer began with an empty answer marked interrupted", async () => {
    const u = await userWithDocument("cut-before");
    const socket = await openSocket(u.sessionId, u.token);
    socket.send({ action: "chat", query: "dental coverage", session_id: u.sessionId, token: u.token });
    await socket.next("end");
    // the object dies while the second question waits for a document being indexed: no answer row yet
    const stub = chatSession(env, u.sessionId);
    await runInDurableObject(stub, (_object, state) => {
      state.storage.sql.exec(
        "INSERT INTO messages (id, role, content, status, created_at) VALUES ('q2', 'user', 'laptop?', 'complete', ?)",
        Date.now(),
      );
    });
    await evictDurableObject(stub);

    const again = await openSocket(u.sessionId, u.token);
    again.send({ action: "get_full_chat", session_id: u.sessionId, token: u.token });
    const messages = (await again.next("full_chat")).messages;
    expect(messages.at(-2)).toMatchObject({ id: "q2", role: "user" });
    expect(messages.at(-1)).toMatchObject({ role: "assistant", content: "", status: "interrupted" });
    // once: opened again, the chat is as it was
    await evictDurableObject(stub);
    const third = await openSocket(u.sessionId, u.token);
    third.send({ action: "get_full_chat", session_id: u.sessionId, token: u.token });
    expect((await third.next("full_chat")).messages).toHaveLength(messages.length);
  });

  it("lets an anonymous visitor chat, with no documents to cite", async () => {
    const sessionId = `guest-${crypto.randomUUID()}`;
    const socket = await openSocket(sessionId);
    socket.send({ action: "chat", query: "What is a W-4 form?", session_id: sessionId });
    const end = await socket.next("end");
    expect(end.message.content).toContain("Log in and upload a PDF");
    expect(end.message.sources).toEqual([]);
    socket.send({ action: "get_chats" });
    expect((await socket.next("chat_list")).chats).toEqual([]);
  });

  it("refuses an empty question and another session's history", async () => {
    const u = await newUser("empty");
    const sessionId = `${u.email}-${crypto.randomUUID()}`;
    const socket = await openSocket(sessionId, u.token);
    socket.send({ action: "chat", query: "   ", session_id: sessionId, token: u.token });
    socket.send({ action: "get_full_chat", session_id: `${u.email}-other`, token: u.token });
    await socket.next("error", 1);
    expect(socket.all("error").map((e) => e.code)).toEqual([400, 403]);
  });

  it("reads a question of hidden characters as empty, and keeps them out of the chat's title", async () => {
    const u = await newUser("hidden");
    const sessionId = `${u.email}-${crypto.randomUUID()}`;
    const socket = await openSocket(sessionId, u.token);
    for (const [i, query] of ["\u0000\u202e\u2066 ", "   \u200b ", "\ufeff\u3164\u200d", "\ud800 \udc00"].entries()) {
      socket.send({ action: "chat", query, session_id: sessionId, token: u.token });
      expect(await socket.next("error", i)).toMatchObject({ code: 400, message: CHAT_MESSAGES.emptyQuery });
    }
    // an override would show the title reversed ("fdp.exe"); the question keeps its line break
    socket.send({ action: "chat", query: "Where is\u202e my exe.pdf?\nThanks\u0007\ud800 👍", session_id: sessionId, token: u.token });
    const end = await socket.next("end");
    const row = await env.DB.prepare("SELECT summary FROM chats WHERE session_id = ?").bind(sessionId).first<{ summary: string }>();
    expect(row?.summary).not.toMatch(/[\u0000-\u001f\u202e]/);
    expect(row?.summary).toContain("Where is my exe.pdf?");
    socket.send({ action: "get_full_chat", session_id: sessionId, token: u.token });
    const full = await socket.next("full_chat");
    expect(full.messages[0]!.content).toBe("Where is my exe.pdf?\nThanks 👍");
    expect(end.message.role).toBe("assistant");
  });
});

describe("plan limits", () => {
  it("refuses a question over the free plan's daily messages with an upgrade link, and a paid plan lifts it", async () => {
    const u = await userWithDocument("daily");
    const day = new Date().toISOString().slice(0, 10);
    // the day's messages are counted in the user's Library
    await libraryRows(u.user.id, "INSERT INTO daily_messages (day, messages) VALUES (?, 50)", day);
    const socket = await openSocket(u.sessionId, u.token);
    socket.send({ action: "chat", query: "dental coverage", session_id: u.sessionId, token: u.token });
    const refused = await socket.next("error");
    expect(refused.code).toBe(429);
    expect(refused.message).toBe("You have used today's 50 messages of the free plan. [Upgrade your plan](/app/payment) to keep chatting.");
    expect(socket.all("stream")).toEqual([]);

    await env.DB.prepare("INSERT INTO subscriptions (user_id, plan_id, status, current_period_end) VALUES (?, 'monthly', 'active', ?)")
      .bind(u.user.id, Date.now() + 86_400_000)
      .run();
    socket.send({ action: "chat", query: "dental coverage", session_id: u.sessionId, token: u.token });
    expect((await socket.next("end")).message.content).toContain("Dental coverage starts after ninety days");
  });
});

describe("privacy between users", () => {
  it("never lets one user's canary phrase reach another user's answer or sources", async () => {
    const alice = await userWithDocument("canary-a", ["The secret merger codename is Bluefin Pelican and closes in March."]);
    const bob = await userWithDocument("canary-b");
    const socket = await openSocket(bob.sessionId, bob.token);
    socket.send({ action: "chat", query: "What is the merger codename Bluefin Pelican?", session_id: bob.sessionId, token: bob.token });
    const end = await socket.next("end");
    const everything = JSON.stringify(socket.received);
    expect(everything).not.toContain("Pelican and closes");
    expect(end.message.sources?.every((s) => s.fileId !== alice.doc.fileId)).toBe(true);

    // Bob's attaching Alice's document by its key gets nothing either.
    socket.send({ action: "chat", query: "merger codename", session_id: bob.sessionId, s3_key: alice.doc.s3Key, token: bob.token });
    expect(await socket.next("error")).toMatchObject({ code: 404 });
  });
});
