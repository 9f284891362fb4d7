// Proves the history search (GET /api/chat/search): the caller's own chats whose
// title or messages contain the typed text (part of a word is enough, any case),
// with a snippet around the match (no citation marks); never another user's chat, nor a chat shared
// with the caller; `%` and `_` are letters; a deleted chat is gone; an empty or
// missing query is a 400 with a message; signed out is a 401.
import { describe, expect, it } from "vitest";
import { CHAT_MESSAGES, type ChatSearchResponse } from "../../worker/contract/protocol";
import { call, newUser } from "../helpers/api";
import { uploadAndIndex, waitUntilDone } from "../helpers/documents";
import { textPdf } from "../helpers/pdfs";
import { openSocket } from "../helpers/sockets";

const PAGES = [
  "Benefits. Dental coverage starts after ninety days of employment.",
  "Equipment. New employees receive a laptop and a badge on their first day.",
];

async function userWithChats(prefix: string, questions: string[]) {
  const u = await newUser(prefix);
  const doc = await uploadAndIndex(u.token, "Handbook.pdf", await textPdf(PAGES));
  await waitUntilDone(u.token, doc.fileId);
  const sessions: string[] = [];
  for (const query of questions) {
    const sessionId = `${u.email}-${crypto.randomUUID()}`;
    const socket = await openSocket(sessionId, u.token);
    socket.send({ action: "chat", query, session_id: sessionId, token: u.token });
    await socket.next("end");
    socket.ws.close();
    sessions.push(sessionId);
  }
  return { ...u, sessions };
}

const search = async (token: string | undefined, q: string) => {
  const res = await call("GET", `/api/chat/search?q=${encodeURIComponent(q)}`, token ? { token } : {});
  return { status: res.status, json: res.json as ChatSearchResponse & { message?: string } };
};

describe("searching the chat history", () => {
  it("finds the caller's chats by message text and title, with a snippet, and nothing of other users", async () => {
    const ann = await userWithChats("search-ann", ["When does dental coverage start?", "What equipment do new hires get?"]);
    const bob = await userWithChats("search-bob", ["Tell me about dental coverage"]);

    // words of the answer (not of the question): the message text is searched
    const byAnswer = await search(ann.token, "NINETY DAYS");
    expect(byAnswer.status).toBe(200);
    expect(byAnswer.json.chats.map((c) => c.session_id)).toEqual([ann.sessions[0]]);
    expect(byAnswer.json.chats[0]!.snippet).toMatch(/ninety days/i);
    // the answer's citation marks are not part of what is shown (or searched)
    expect(byAnswer.json.chats[0]!.snippet).not.toMatch(/\[\d+\]/);
    expect((await search(ann.token, "[1]")).json.chats).toEqual([]);
    expect(byAnswer.json.chats[0]!.summary).toBe("When does dental coverage start?");

    // several words: each anywhere in the chat, in any order (title and messages alike)
    expect((await search(ann.token, "ninety dental")).json.chats.map((c) => c.session_id)).toEqual([ann.sessions[0]]);
    expect((await search(ann.token, "  coverage   WHEN ")).json.chats.map((c) => c.session_id)).toEqual([ann.sessions[0]]);
    expect((await search(ann.token, "dental laptop")).json.chats).toEqual([]);

    // part of a word, as typed
    expect((await search(ann.token, "lapto")).json.chats.map((c) => c.session_id)).toEqual([ann.sessions[1]]);
    expect((await search(ann.token, "denta")).json.chats.map((c) => c.session_id)).toEqual([ann.sessions[0]]);
    expect((await search(bob.token, "denta")).json.chats.map((c) => c.session_id)).toEqual([bob.sessions[0]]);

    // a title renamed by its owner is searched too
    await call("PATCH", `/api/chat/${encodeURIComponent(ann.sessions[1]!)}`, { token: ann.token, body: { title: "Onboarding kit" } });
    const byTitle = await search(ann.token, "onboarding");
    expect(byTitle.json.chats).toEqual([expect.objectContaining({ session_id: ann.sessions[1], summary: "Onboarding kit" })]);

    // wildcards are letters
    expect((await search(ann.token, "%")).json.chats).toEqual([]);
    expect((await search(ann.token, "_")).json.chats).toEqual([]);
  });

  it("leaves out chats shared with the caller and deleted chats", async () => {
    const owner = await userWithChats("search-owner", ["When does dental coverage start?"]);
    const reader = await newUser("search-reader");
    const shared = await call("POST", "/api/chat/share", {
      token: owner.token,
      body: { session_id: owner.sessions[0], emails: [reader.email] },
    });
    expect(shared.status).toBe(200);
    const list = await call("GET", "/api/chat/list", { token: reader.token });
    expect(list.json.chats).toHaveLength(1); // it is in the reader's history...
    expect((await search(reader.token, "dental")).json.chats).toEqual([]); // ...but not searched as theirs

    await call("DELETE", `/api/chat/${encodeURIComponent(owner.sessions[0]!)}`, { token: owner.token });
    expect((await search(owner.token, "dental")).json.chats).toEqual([]);
  });

  it("refuses an empty query and a signed-out caller", async () => {
    const u = await newUser("search-bad");
    const empty = await search(u.token, "   ");
    expect(empty.status).toBe(400);
    expect(empty.json.message).toBe(CHAT_MESSAGES.searchRequired);
    const missing = await call("GET", "/api/chat/search", { token: u.token });
    expect(missing.status).toBe(400);
    expect(missing.json.message).toBe(CHAT_MESSAGES.searchRequired);
    const long = await search(u.token, "x".repeat(201));
    expect(long.status).toBe(400);
    expect(long.json.message).toBe(CHAT_MESSAGES.searchTooLong);
    expect((await search(undefined, "dental")).status).toBe(401);
  });
});
