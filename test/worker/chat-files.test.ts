// Proves a chat's documents (its set): attached by file id or by an upload's
// s3_key (also when the upload duplicated a file already in My Files), kept
// across turns and after the Durable Object is evicted, used by every follow-up
// question, the memo and a shared reader; refused for another user's, unknown or
// failed documents without changing anything; left when a document is deleted.
import { env } from "cloudflare:workers";
import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chatSession } from "../../worker/chat/stub";
import { getDb } from "../../worker/db/client";
import type { IngestMessage } from "../../worker/ingest/consumer";
import { indexDocument } from "../../worker/ingest/indexer";
import { startIndexing } from "../../worker/services/uploads";
import { CHAT_MESSAGES, MAX_CHAT_FILES } from "../../worker/contract/protocol";
import { call, newUser } from "../helpers/api";
import { indexAnswerOnceSettled, listFiles, putToLink, uploadAndIndex, waitUntilDone } from "../helpers/documents";
import { textPdf } from "../helpers/pdfs";
import { openSocket, type TestSocket } from "../helpers/sockets";

const TRAVEL = [
  "Travel policy. Receipts must be submitted within thirty days of the trip.",
  "Economy class is required for short flights.",
];
const OFFICE = ["Office supplies. Receipts for office supplies go to the finance team every Friday."];

// pdf-lib stamps the creation time into the file: the same bytes are made once, so a re-upload is a true duplicate
const travelPdf = textPdf(TRAVEL);

async function userWithTwoFiles(prefix: string) {
  const account = await newUser(prefix);
  const travel = await uploadAndIndex(account.token, "Travel.pdf", await travelPdf);
  const office = await uploadAndIndex(account.token, "Office.pdf", await textPdf(OFFICE));
  await waitUntilDone(account.token, travel.fileId);
  await waitUntilDone(account.token, office.fileId);
  return { ...account, travel, office, sessionId: `${account.email}-${crypto.randomUUID()}` };
}

type User = Awaited<ReturnType<typeof userWithTwoFiles>>;

async function ask(socket: TestSocket, u: Pick<User, "sessionId" | "token">, query: string, extra: object = {}) {
  const ends = socket.all("end").length;
  socket.send({ action: "chat", query, session_id: u.sessionId, token: u.token, ...extra });
  return socket.next("end", ends);
}

async function setFiles(socket: TestSocket, u: Pick<User, "sessionId" | "token">, fileIds: string[]) {
  const frames = socket.all("files").length;
  socket.send({ action: "set_files", session_id: u.sessionId, file_ids: fileIds, token: u.token });
  return socket.next("files", frames);
}

async function fullChat(socket: TestSocket, u: Pick<User, "sessionId" | "token">) {
  const frames = socket.all("full_chat").length;
  socket.send({ action: "get_full_chat", session_id: u.sessionId, token: u.token });
  return socket.next("full_chat", frames);
}

/** A chat with both files attached, then the office file deleted from My Files. */
async function withOfficeDeleted(prefix: string) {
  const u = await userWithTwoFiles(prefix);
  const socket = await openSocket(u.sessionId, u.token);
  await setFiles(socket, u, [u.travel.fileId, u.office.fileId]);
  const office = (await listFiles(u.token)).files.find((f) => f.fileId === u.office.fileId)!;
  expect((await call("DELETE", "/api/documents", { token: u.token, body: { file_hashes: [office.fileHash] } })).status).toBe(200);
  return { u, socket };
}

describe("a chat's documents", () => {
  it("keeps the set across turns and after eviction; every follow-up cites only the attached file", async () => {
    const u = await userWithTwoFiles("set");
    const socket = await openSocket(u.sessionId, u.token);
    const frame = await setFiles(socket, u, [u.office.fileId]);
    expect(frame.files).toEqual([
      { fileId: u.office.fileId, fileName: "Office.pdf", status: "indexed", pagesDone: 1, pagesTotal: 1, error: null },
    ]);

    const first = await ask(socket, u, "When are receipts due?");
    expect(first.message.sources?.map((s) => s.fileId)).toEqual([u.office.fileId]);
    expect(first.files.map((f) => f.fileId)).toEqual([u.office.fileId]);
    // the follow-up carries no attachment: the chat's set still scopes it
    const second = await ask(socket, u, "And what about receipts for trips?");
    expect(second.message.sources?.length).toBeGreaterThan(0);
    expect(second.message.sources?.every((s) => s.fileId === u.office.fileId)).toBe(true);

    const stub = chatSession(env, u.sessionId);
    await evictDurableObject(stub, { webSockets: "hibernate" });
    const third = await ask(socket, u, "receipts thirty days trip");
    expect(third.message.sources?.every((s) => s.fileId === u.office.fileId)).toBe(true);

    const reloaded = await openSocket(u.sessionId, u.token);
    const full = await fullChat(reloaded, u);
    expect(full.files.map((f) => f.fileName)).toEqual(["Office.pdf"]);
    // the question that attached the file names it; later ones do not repeat it
    expect(full.messages.filter((m) => m.role === "user").map((m) => m.fileInfo?.map((f) => f.name))).toEqual([
      ["Office.pdf"],
      undefined,
      undefined,
    ]);
  });

  it("a question that adds a document by its upload key shows the new chips first and answers from the whole new set", async () => {
    const u = await userWithTwoFiles("add-key");
    const socket = await openSocket(u.sessionId, u.token);
    await setFiles(socket, u, [u.office.fileId]);
    const ended = await ask(socket, u, "Which receipts are due, and by when?", { s3_key: u.travel.s3Key });
    // the set the question made, on the chips before any word of the answer
    const both = [u.office.fileId, u.travel.fileId];
    const chips = socket.received.findIndex((m) => m.type === "files" && m.files.length === 2);
    const firstWords = socket.received.findIndex((m) => m.type === "stream");
    expect(chips).toBeGreaterThanOrEqual(0);
    expect(chips).toBeLessThan(firstWords);
    expect(ended.files.map((f) => f.fileId).sort()).toEqual([...both].sort());
    // searched over both documents: each is cited
    expect(new Set(ended.message.sources?.map((s) => s.fileId))).toEqual(new Set(both));
  });

  it("searches all of the user's files when nothing is attached, and removing a chip narrows the next question", async () => {
    const u = await userWithTwoFiles("narrow");
    const socket = await openSocket(u.sessionId, u.token);
    const all = await ask(socket, u, "receipts");
    expect(new Set(all.message.sources?.map((s) => s.fileId))).toEqual(new Set([u.travel.fileId, u.office.fileId]));
    expect(all.files).toEqual([]);

    await setFiles(socket, u, [u.travel.fileId, u.office.fileId]);
    expect((await setFiles(socket, u, [u.travel.fileId])).files.map((f) => f.fileId)).toEqual([u.travel.fileId]);
    const narrowed = await ask(socket, u, "receipts");
    expect(narrowed.message.sources?.map((s) => s.fileId)).toEqual([u.travel.fileId]);
  });

  it("sets the documents with file_ids on a question, and lists sources in [n] order", async () => {
    const u = await userWithTwoFiles("fileids");
    const socket = await openSocket(u.sessionId, u.token);
    const end = await ask(socket, u, "receipts economy class flights finance team", { file_ids: [u.travel.fileId, u.office.fileId] });
    expect(end.files.map((f) => f.fileId)).toEqual([u.travel.fileId, u.office.fileId]);
    const numbers = end.message.sources!.map((s) => s.n);
    expect(numbers.length).toBeGreaterThan(1);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    // nothing found: the answer says where it looked and how to look further
    const missing = await ask(socket, u, "quantum chromodynamics lattice");
    expect(missing.message.content).toBe(
      "I could not find this in this chat's documents (Travel.pdf, Office.pdf). Remove them from the chat to search all your files, or attach the document that covers it.",
    );
  });

  it("attaches the existing document when the same PDF is uploaded again from the chat", async () => {
    const u = await userWithTwoFiles("reupload");
    const again = await uploadAndIndex(u.token, "Travel copy.pdf", await travelPdf);
    // the indexer finds the duplicate, after the index call answered: asked again once it has, the existing document
    expect(await indexAnswerOnceSettled(u.token, again.s3Key)).toMatchObject({ fileId: u.travel.fileId, duplicate: true });
    // asking the index step again for that key gives the same answer, not "not found"
    const repeat = await call("POST", "/api/documents/index", { token: u.token, body: { s3_key: again.s3Key } });
    expect(repeat.json).toMatchObject({ fileId: u.travel.fileId, duplicate: true });

    const socket = await openSocket(u.sessionId, u.token);
    const end = await ask(socket, u, "When must receipts be submitted?", { s3_key: again.s3Key });
    expect(end.message.content).not.toContain("not found");
    expect(end.message.sources?.map((s) => s.fileId)).toEqual([u.travel.fileId]);
    expect(end.files.map((f) => f.fileName)).toEqual(["Travel.pdf"]);
    expect((await listFiles(u.token)).files).toHaveLength(2);
  });

  it("a chat that attached a re-upload before the indexer found it a duplicate gets the existing document", async () => {
    const u = await userWithTwoFiles("reupload-early");
    const link = await call("GET", "/api/documents/uploadLink?fileName=Travel%20again.pdf&contentType=application/pdf", { token: u.token });
    await putToLink(link.json.presignedUrl, await travelPdf);
    // the index call answers before the indexer has read the file: its message is held here until the chat has attached it
    const held: IngestMessage[] = [];
    const queue = { send: async (message: IngestMessage) => void held.push(message) } as unknown as Queue<IngestMessage>;
    const deps = { db: getDb(env), bucket: env.DOCUMENTS, queue, LIBRARY: env.LIBRARY };
    const early = await startIndexing(deps, { userId: u.user.id, r2Key: link.json.s3Key });
    expect(early).toEqual({ status: "pending", fileId: expect.any(String) });

    // attached as the client does, by the fileId the index call answered
    const socket = await openSocket(u.sessionId, u.token);
    const attached = await setFiles(socket, u, [u.office.fileId, early.fileId]);
    expect(attached.files.map((f) => [f.fileId, f.status])).toEqual([
      [u.office.fileId, "indexed"],
      [early.fileId, "pending"],
    ]);
    expect(await indexDocument(env, held[0]!.documentId)).toBe("skipped"); // the indexer finds the duplicate

    // the next question (and its chips) use the existing document in the upload's place, and so does the chat from then on
    const end = await ask(socket, u, "When must receipts be submitted after a trip?");
    expect(end.files.map((f) => f.fileId)).toEqual([u.office.fileId, u.travel.fileId]);
    expect(end.message.sources?.map((s) => s.fileId)).toContain(u.travel.fileId);
    expect((await fullChat(socket, u)).files.map((f) => f.fileName)).toEqual(["Office.pdf", "Travel.pdf"]);
    // naming the upload's id again attaches the existing document; My Files lists the file once
    expect((await setFiles(socket, u, [early.fileId])).files.map((f) => f.fileId)).toEqual([u.travel.fileId]);
    expect((await listFiles(u.token)).files.map((f) => f.fileName).sort()).toEqual(["Office.pdf", "Travel.pdf"]);
  });

  it("refuses another user's, an unknown or a failed document, and too many, changing nothing", async () => {
    const u = await userWithTwoFiles("refuse");
    const stranger = await userWithTwoFiles("stranger");
    const broken = await uploadAndIndex(u.token, "Broken.pdf", new TextEncoder().encode("%PDF-1.4 this is not really a pdf"));
    expect((await waitUntilDone(u.token, broken.fileId)).status).toBe("failed");

    const socket = await openSocket(u.sessionId, u.token);
    await setFiles(socket, u, [u.travel.fileId]);

    const refusals = [
      { ids: [u.travel.fileId, stranger.office.fileId], code: 404, message: CHAT_MESSAGES.fileNotFound },
      { ids: ["no-such-file"], code: 404, message: CHAT_MESSAGES.fileNotFound },
      { ids: [broken.fileId], code: 409, message: expect.stringMatching(/^Broken\.pdf could not be indexed, so it cannot be attached: /) },
      { ids: Array.from({ length: MAX_CHAT_FILES + 1 }, (_, i) => `id-${i}`), code: 400, message: CHAT_MESSAGES.tooManyFiles },
    ];
    for (const [i, r] of refusals.entries()) {
      socket.send({ action: "set_files", session_id: u.sessionId, file_ids: r.ids, token: u.token });
      expect(await socket.next("error", i)).toEqual({ type: "error", code: r.code, message: r.message, action: "set_files" });
    }
    // on a question too: refused, not answered, and the set is unchanged
    socket.send({ action: "chat", query: "receipts", session_id: u.sessionId, file_ids: [stranger.travel.fileId], token: u.token });
    expect(await socket.next("error", refusals.length)).toMatchObject({ code: 404, message: CHAT_MESSAGES.fileNotFound });
    socket.send({ action: "chat", query: "receipts", session_id: u.sessionId, s3_key: stranger.office.s3Key, token: u.token });
    expect(await socket.next("error", refusals.length + 1)).toMatchObject({ code: 404 });
    expect(socket.all("end")).toEqual([]);
    expect(JSON.stringify(socket.received)).not.toContain("finance team");
    expect((await fullChat(socket, u)).files.map((f) => f.fileId)).toEqual([u.travel.fileId]);
  });

  it("drops a document deleted from My Files from the chat's set", async () => {
    const { u, socket } = await withOfficeDeleted("delete");

    expect((await fullChat(socket, u)).files.map((f) => f.fileId)).toEqual([u.travel.fileId]);
    const end = await ask(socket, u, "receipts finance team");
    expect(end.message.sources?.every((s) => s.fileId === u.travel.fileId)).toBe(true);
  });

  it("a question right after a document is deleted from My Files answers from the rest and drops it from the set", async () => {
    const { u, socket } = await withOfficeDeleted("delete-ask");

    const end = await ask(socket, u, "receipts finance team");
    expect(end.message.sources?.length).toBeGreaterThan(0);
    expect(end.message.sources?.every((s) => s.fileId === u.travel.fileId)).toBe(true);
    expect(end.files.map((f) => f.fileId)).toEqual([u.travel.fileId]);
    const again = await openSocket(u.sessionId, u.token);
    expect((await fullChat(again, u)).files.map((f) => f.fileId)).toEqual([u.travel.fileId]);
  });

  it("waits for a document still indexing, sending its progress, then answers from it", async () => {
    const u = await newUser("progress");
    const filler = "General provisions about expenses, approvals, cost centres and the reimbursement of employees. ".repeat(12);
    const pages = Array.from({ length: 300 }, (_, i) =>
      i === 249 ? "Per diem. The daily meal allowance abroad is forty-five euros." : `Chapter ${i + 1}. ${filler}`,
    );
    const bytes = await textPdf(pages);
    const sessionId = `${u.email}-${crypto.randomUUID()}`;
    const socket = await openSocket(sessionId, u.token);
    const doc = await uploadAndIndex(u.token, "Long.pdf", bytes);
    socket.send({
      action: "chat",
      query: "What is the daily meal allowance abroad?",
      session_id: sessionId,
      file_ids: [doc.fileId],
      token: u.token,
    });
    const end = await socket.next("end");
    expect(end.message.content).toContain("forty-five euros");
    expect(end.message.sources?.[0]).toMatchObject({ fileId: doc.fileId, page: 250 });
    const frames = socket.all("files").map((f) => f.files[0]!);
    expect(frames[0]!.status).not.toBe("indexed");
    expect(frames.at(-1)).toMatchObject({ status: "indexed", pagesDone: 300, pagesTotal: 300 });
  });
});

describe("who sees a chat's documents", () => {
  it("gives a shared reader the owner's set, read-only, and the memo names the documents", async () => {
    const owner = await userWithTwoFiles("owner");
    const member = await newUser("member");
    const socket = await openSocket(owner.sessionId, owner.token);
    await ask(socket, owner, "When must receipts be submitted?", { file_ids: [owner.travel.fileId] });
    const shared = await call("POST", "/api/chat/share", {
      token: owner.token,
      body: { session_id: owner.sessionId, emails: [member.email] },
    });
    expect(shared.status).toBe(200);

    const reader = await openSocket(owner.sessionId, member.token);
    const full = await fullChat(reader, { sessionId: owner.sessionId, token: member.token });
    expect(full.readOnly).toBe(true);
    expect(full.files.map((f) => f.fileName)).toEqual(["Travel.pdf"]);
    reader.send({ action: "set_files", session_id: owner.sessionId, file_ids: [], token: member.token });
    expect(await reader.next("error")).toMatchObject({ code: 403, action: "set_files" });
    expect((await fullChat(socket, owner)).files).toHaveLength(1);

    const memo = await call("POST", "/api/chat/sendMemo", { token: member.token, body: { session_id: owner.sessionId } });
    expect(memo.status).toBe(200);
    expect(memo.json.memo).toContain("Documents in this chat: Travel.pdf.");
  });

  it("refuses documents to an anonymous visitor", async () => {
    const sessionId = `guest-${crypto.randomUUID()}`;
    const socket = await openSocket(sessionId);
    socket.send({ action: "set_files", session_id: sessionId, file_ids: ["x"] });
    expect(await socket.next("error")).toMatchObject({ code: 403, message: CHAT_MESSAGES.anonymousFiles });
    socket.send({ action: "get_full_chat", session_id: sessionId });
    expect((await socket.next("full_chat")).files).toEqual([]);
  });
});
