// Proves account deletion removes every trace: R2 objects, the Library (chunks,
// index, lifecycle), the vectors, each chat's Durable Object (its open sockets
// are told and closed: the user's own with a logout, a member's with "chat deleted"), and the D1 rows (user, sessions, documents, chats,
// shares); the old token stops working; a wrong confirmation deletes nothing;
// another user's data is untouched.
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chatSession } from "../../worker/chat/stub";
import { MESSAGES } from "../../worker/contract/messages";
import { CHAT_MESSAGES, CLOSE_NO_ACCESS, CLOSE_UNAUTHORIZED } from "../../worker/contract/protocol";
import { getDb } from "../../worker/db/client";
import { library } from "../../worker/library/stub";
import { deleteAccount } from "../../worker/services/account-deletion";
import { GOOD_PASSWORD, call, newUser } from "../helpers/api";
import { uploadAndIndex, waitUntilDone } from "../helpers/documents";
import { libraryRows } from "../helpers/library";
import { textPdf } from "../helpers/pdfs";
import { openSocket } from "../helpers/sockets";
import { MemoryVectorize } from "../helpers/vectors";

async function userWithEverything(prefix: string) {
  const account = await newUser(prefix);
  const doc = await uploadAndIndex(account.token, "Handbook.pdf", await textPdf(["Our notice period is ninety days for managers."]));
  await waitUntilDone(account.token, doc.fileId);
  const sessionId = `${account.email}-${crypto.randomUUID()}`;
  const socket = await openSocket(sessionId, account.token);
  socket.send({ action: "chat", query: "What is the notice period?", session_id: sessionId, token: account.token });
  await socket.next("end");
  return { ...account, doc, sessionId, socket };
}

const d1Count = async (query: string, ...params: string[]) =>
  (await env.DB.prepare(query)
    .bind(...params)
    .first<{ n: number }>())!.n;

const chatRows = (sessionId: string) =>
  runInDurableObject(
    chatSession(env, sessionId),
    (_object, state) => state.storage.sql.exec("SELECT (SELECT COUNT(*) FROM messages) + (SELECT COUNT(*) FROM chat_files) AS n").one().n,
  );

describe("account deletion", () => {
  it("removes the user's files, Library, vectors, chats, shares and rows, and ends their sessions", async () => {
    const owner = await userWithEverything("delete-me");
    const keeper = await userWithEverything("keep-me");
    const share = await call("POST", "/api/chat/share", {
      token: owner.token,
      body: { session_id: owner.sessionId, emails: [keeper.email] },
    });
    expect(share.status).toBe(200);
    // the member has the shared chat open too
    const memberSocket = await openSocket(owner.sessionId, keeper.token);
    memberSocket.send({ action: "get_full_chat", session_id: owner.sessionId, token: keeper.token });
    await memberSocket.next("full_chat");
    const vectors = new MemoryVectorize();
    await vectors.upsert([{ id: `${owner.doc.fileId}:1:0`, values: [1], namespace: owner.user.id }]);
    expect(await env.DOCUMENTS.head(owner.doc.s3Key)).not.toBeNull();

    await deleteAccount(
      {
        db: getDb(env),
        bucket: env.DOCUMENTS,
        LIBRARY: env.LIBRARY,
        CHAT_SESSION: env.CHAT_SESSION,
        AI: {} as Ai,
        VECTORIZE: vectors as unknown as VectorizeIndex,
        payments: null,
      },
      { userId: owner.user.id, confirmEmail: ` ${owner.email.toUpperCase()} ` },
    );

    // the user's open tab is signed out (the client goes to login); the member's is told the chat is gone
    expect(await owner.socket.next("error")).toMatchObject({ code: 401 });
    expect((await owner.socket.closed).code).toBe(CLOSE_UNAUTHORIZED);
    expect(await memberSocket.next("error")).toMatchObject({ code: 404, message: CHAT_MESSAGES.chatDeleted });
    expect((await memberSocket.closed).code).toBe(CLOSE_NO_ACCESS);
    // R2, vectors, Library, chat storage
    expect(await env.DOCUMENTS.head(owner.doc.s3Key)).toBeNull();
    expect(vectors.idsInNamespace(owner.user.id)).toEqual([]);
    expect(await library(env, owner.user.id).status(owner.doc.fileId)).toBeNull();
    expect(await libraryRows(owner.user.id, "SELECT (SELECT COUNT(*) FROM chunks) + (SELECT COUNT(*) FROM documents) AS n")).toEqual([
      { n: 0 },
    ]);
    expect(await chatRows(owner.sessionId)).toBe(0);
    // D1 rows
    for (const [query, param] of [
      ["SELECT COUNT(*) AS n FROM users WHERE id = ?", owner.user.id],
      ["SELECT COUNT(*) AS n FROM auth_sessions WHERE user_id = ?", owner.user.id],
      ["SELECT COUNT(*) AS n FROM documents WHERE user_id = ?", owner.user.id],
      ["SELECT COUNT(*) AS n FROM chats WHERE user_id = ?", owner.user.id],
      ["SELECT COUNT(*) AS n FROM chat_shares WHERE session_id = ?", owner.sessionId],
    ] as const) {
      expect(await d1Count(query, param), query).toBe(0);
    }
    // the old token is dead, and the member no longer sees the chat
    expect((await call("GET", "/api/getUserInfo", { token: owner.token })).status).toBe(401);
    const memberChats = (await call("GET", "/api/chat/list", { token: keeper.token })).json.chats as { session_id: string }[];
    expect(memberChats.map((c) => c.session_id)).not.toContain(owner.sessionId);

    // the other user keeps everything
    expect(await env.DOCUMENTS.head(keeper.doc.s3Key)).not.toBeNull();
    expect(await library(env, keeper.user.id).status(keeper.doc.fileId)).toMatchObject({ status: "indexed" });
    expect(await chatRows(keeper.sessionId)).toBe(2);
    expect(await d1Count("SELECT COUNT(*) AS n FROM chats WHERE user_id = ?", keeper.user.id)).toBe(1);
  });

  it("empties a chat of theirs not yet listed (its first answer still being written), so a later account with the address reads nothing", async () => {
    const owner = await userWithEverything("delete-unlisted");
    // as while its first answer is written: the chat holds the user's socket, and no chats row names it yet
    await env.DB.prepare("DELETE FROM chats WHERE session_id = ?").bind(owner.sessionId).run();
    expect(await chatRows(owner.sessionId)).toBe(2);
    const deleted = await call("DELETE", "/api/account", { token: owner.token, body: { email: owner.email } });
    expect(deleted.status).toBe(200);
    expect(await chatRows(owner.sessionId)).toBe(0);
    // whoever signs up with the same address finds the chat empty
    const again = await call("POST", "/api/auth/signup", { body: { email: owner.email, password: GOOD_PASSWORD } });
    expect(again.status).toBe(201);
    const socket = await openSocket(owner.sessionId, again.json.token as string);
    socket.send({ action: "get_full_chat", session_id: owner.sessionId, token: again.json.token });
    expect((await socket.next("full_chat")).messages).toEqual([]);
  });

  it("ends the shares of other users' chats with its address, so a later account with the address was never invited", async () => {
    const owner = await userWithEverything("share-owner");
    const member = await newUser("share-member-deleted");
    const share = await call("POST", "/api/chat/share", {
      token: owner.token,
      body: { session_id: owner.sessionId, emails: [member.email] },
    });
    expect(share.status).toBe(200);
    expect(((await call("GET", "/api/chat/list", { token: member.token })).json.chats as { session_id: string }[]).length).toBe(1);

    expect((await call("DELETE", "/api/account", { token: member.token, body: { email: member.email } })).status).toBe(200);
    expect(await d1Count("SELECT COUNT(*) AS n FROM chat_shares WHERE email = ?", member.email)).toBe(0);
    const again = await call("POST", "/api/auth/signup", { body: { email: member.email, password: GOOD_PASSWORD } });
    expect(again.status).toBe(201);
    expect((await call("GET", "/api/chat/list", { token: again.json.token as string })).json.chats).toEqual([]);
    const socket = await openSocket(owner.sessionId, again.json.token as string);
    expect((await socket.closed).code).toBe(CLOSE_NO_ACCESS);
    // the owner's chat and their other shares are untouched
    expect(await chatRows(owner.sessionId)).toBe(2);
  });

  it("DELETE /api/account asks for the account's own e-mail, and a wrong one deletes nothing", async () => {
    const u = await newUser("delete-confirm");
    const doc = await uploadAndIndex(u.token, "Keep.pdf", await textPdf(["Nothing to see here, just a page of text."]));
    await waitUntilDone(u.token, doc.fileId);

    for (const body of [{}, { email: "" }, { email: "someone-else@example.com" }]) {
      const refused = await call("DELETE", "/api/account", { token: u.token, body });
      expect(refused.status).toBe(400);
      expect(refused.json.message).toBe(MESSAGES.deleteAccountConfirm);
    }
    expect(await env.DOCUMENTS.head(doc.s3Key)).not.toBeNull();
    expect((await call("GET", "/api/getUserInfo", { token: u.token })).status).toBe(200);
    expect((await call("DELETE", "/api/account", { body: { email: u.email } })).status).toBe(401);

    const deleted = await call("DELETE", "/api/account", { token: u.token, body: { email: u.email } });
    expect(deleted).toMatchObject({ status: 200, json: { status: "success", message: MESSAGES.accountDeleted } });
    expect(await env.DOCUMENTS.head(doc.s3Key)).toBeNull();
    expect(await d1Count("SELECT COUNT(*) AS n FROM users WHERE id = ?", u.user.id)).toBe(0);
    expect((await call("GET", "/api/documents", { token: u.token })).status).toBe(401);
  });
});
