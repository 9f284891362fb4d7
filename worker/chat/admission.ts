// Whether a question (or a regeneration) may run: the asker's access, the chat's
// documents it may change, the daily quota or the anonymous rate limit, and
// whether the chat's signed-in sockets are still signed in. A signed-in question
// is admitted by ONE call to its asker's Library (today's count, sessions signed
// out, the documents it names, and the search when they are complete): no D1
// round trip before the first chunk, where locally one D1 object serves every chat.
// D1 is read only when the Library cannot decide: a document it does not know, the
// plan once the free day's messages are used, other users' sessions on a shared chat.
import { MESSAGES } from "../contract/messages";
import { CHAT_MESSAGES, MAX_CHAT_FILES, type ChatFile, type ClientMessage } from "../contract/protocol";
import { getDb } from "../db/client";
import { library } from "../library/stub";
import type { ChunkHit, NamedFile } from "../library/types";
import { liveSessions } from "../services/accounts";
import {
  attachable,
  chatFile,
  inOrder,
  requestedFilesQuery,
  resolveChatFiles,
  type RequestedFiles,
  type RequestedRow,
} from "../services/chat-files";
import { dailyMessageRefusal, FREE_QUOTA, quotaFor, usageDay } from "../services/quotas";
import { RETRIEVAL_TUNING } from "../answer/ranking/retrieval";
import type { SocketIdentity } from "./identity";
import type { ChatSessions } from "./socket-access";
import type { ChatRoom } from "./turn";
import { withEarlierQuestion } from "../answer/question/follow-up";

export type ChatQuestion = Extract<ClientMessage, { action: "chat" }>;
export type RegenerateRequest = Extract<ClientMessage, { action: "regenerate" }>;

/**
 * An admitted question, with the chat's documents as its read found them
 * (changed by the question, or as they were) and, when they were complete, the
 * keyword search's hits for it; in a chat without documents, the owner's
 * documents still being indexed (the question searches them as far as they are).
 */
export type Admission =
  { ok: true; query: string; files?: ChatFile[]; hits?: ChunkHit[]; indexing?: NamedFile[] } | { ok: false; code: number; message: string };

/**
 * Admission's answer, and which of the signed-in sessions it was asked to check
 * are still live (the chat closes the sockets of the others).
 */
export interface Admitted {
  admission: Admission;
  liveSessions: ReadonlySet<string>;
}

const NO_SESSIONS: ChatSessions = { own: [], others: [] };

const refused = (code: number, message: string): Admission => ({ ok: false, code, message });

/**
 * Decides whether this question may run. A question may change the chat's
 * documents first (file_ids replaces the set, s3_key adds one); a refused change
 * or question changes nothing, and only an admitted question uses the quota.
 * `sessions`: the chat's signed-in sessions to check for sign-out meanwhile.
 */
export async function admitQuestion(
  room: ChatRoom,
  who: SocketIdentity,
  message: ChatQuestion,
  sessions: ChatSessions = NO_SESSIONS,
): Promise<Admitted> {
  if (message.session_id !== who.sessionId) return checkedAlone(room, sessions, refused(403, CHAT_MESSAGES.notYourSession));
  if (who.access === "member") return checkedAlone(room, sessions, refused(403, CHAT_MESSAGES.readOnly));
  const query = message.query.trim();
  if (!query) return checkedAlone(room, sessions, refused(400, CHAT_MESSAGES.emptyQuery));
  const changesFiles = Boolean(message.file_ids || message.s3_key);
  if (changesFiles && !who.userId) return checkedAlone(room, sessions, refused(403, CHAT_MESSAGES.anonymousFiles));
  if (!who.userId) return anonymousAdmission(room, who, sessions, query);

  const request: RequestedFiles | null = changesFiles
    ? { ownerId: who.userId, ids: message.file_ids ? [...message.file_ids] : room.documentIds(), uploadKey: message.s3_key }
    : null;
  if (request && new Set(request.ids).size > MAX_CHAT_FILES) return checkedAlone(room, sessions, refused(400, CHAT_MESSAGES.tooManyFiles));
  // a question that keeps the chat's documents reads them in the same call: the turn needs them as they are
  const kept = request ? [] : room.documentIds();
  // searched as the turn will search it: a follow-up with the question before it
  const searched = withEarlierQuestion(query, () => room.messages.history());
  const read = await readForAdmission(room, who, who.userId, sessions, request ?? { ownerId: who.userId, ids: kept }, searched);
  if (!read.askerLive) return { admission: refused(401, MESSAGES.unauthorized), liveSessions: read.liveSessions };

  let nextFiles: ChatFile[] | null = null;
  if (request) {
    const checked = attachable(read.rows, request);
    if (!checked.ok) {
      await read.takeBack();
      return { admission: refused(checked.code, checked.message), liveSessions: read.liveSessions };
    }
    nextFiles = checked.files;
  }
  const overQuota = await read.overQuota();
  if (overQuota) return { admission: refused(429, overQuota), liveSessions: read.liveSessions };
  if (nextFiles) room.storeFiles(who.userId, nextFiles);
  else {
    // the set as just read, unless another socket changed it meanwhile (then it is read again)
    const files = read.rows.map(chatFile);
    nextFiles = await room.files((wanted) =>
      wanted.ids.every((id) => kept.includes(id))
        ? Promise.resolve(inOrder(files, wanted.ids))
        : resolveChatFiles({ db: getDb(room.env) }, wanted),
    );
  }
  // the search ran over the documents the question named: its hits serve the turn only if they are the set it keeps
  const hits = read.hits && sameDocuments(read.rows, nextFiles) ? read.hits : null;
  return {
    admission: { ok: true, query, files: nextFiles, ...(hits ? { hits } : {}), ...stillIndexing(nextFiles.length > 0, read.indexing) },
    liveSessions: read.liveSessions,
  };
}

/** The owner's documents still being indexed, for a turn that searches them all (its chat keeps none). */
const stillIndexing = (chatKeepsDocuments: boolean, indexing: NamedFile[]) => (!chatKeepsDocuments && indexing.length ? { indexing } : {});

const sameDocuments = (searched: readonly RequestedRow[], files: readonly ChatFile[]) =>
  searched.length === files.length && files.every((f) => searched.some((r) => r.fileId === f.fileId));

/** Regenerate: only the owner, only a chat that ends with an answer; a new answer uses the quota like a question. */
export async function admitRegenerate(
  room: ChatRoom,
  who: SocketIdentity,
  message: RegenerateRequest,
  sessions: ChatSessions = NO_SESSIONS,
): Promise<Admitted> {
  if (message.session_id !== who.sessionId) return checkedAlone(room, sessions, refused(403, CHAT_MESSAGES.notYourSession));
  if (who.access === "member") return checkedAlone(room, sessions, refused(403, CHAT_MESSAGES.readOnly));
  const last = room.messages.lastExchange();
  if (!last) return checkedAlone(room, sessions, refused(400, CHAT_MESSAGES.nothingToRegenerate));
  if (!who.userId) return anonymousAdmission(room, who, sessions, last.question);
  const read = await readForAdmission(room, who, who.userId, sessions, { ownerId: who.userId, ids: [] }, null);
  if (!read.askerLive) return { admission: refused(401, MESSAGES.unauthorized), liveSessions: read.liveSessions };
  const overQuota = await read.overQuota();
  if (overQuota) return { admission: refused(429, overQuota), liveSessions: read.liveSessions };
  return {
    admission: { ok: true, query: last.question, ...stillIndexing(room.documentIds().length > 0, read.indexing) },
    liveSessions: read.liveSessions,
  };
}

/** A Library row as requestedFilesQuery would have read it from the catalogue (for attachable). */
const requestedRow = ({ uploadKey, ...file }: NamedFile): RequestedRow => ({ ...file, r2Key: uploadKey ?? "", aliased: 0 });

/**
 * The asker's Library counts today's message (unless the asker was signed out),
 * says which of the user's sessions were signed out, reads the documents `files`
 * names and, for a `question` about complete documents, searches them. Other
 * users' sessions (a shared chat's members) are read from D1 meanwhile, and the
 * documents too when the Library does not know one of them.
 */
async function readForAdmission(
  room: ChatRoom,
  who: SocketIdentity,
  userId: string,
  sessions: ChatSessions,
  files: RequestedFiles,
  question: string | null,
) {
  const day = usageDay();
  const userLibrary = library(room.env, userId);
  const [facts, othersLive] = await Promise.all([
    userLibrary.admit({
      day,
      askerSessionId: who.authSessionId,
      sessionIds: [...sessions.own],
      files: { ids: [...files.ids], uploadKey: files.uploadKey ?? null },
      ...(question ? { search: { question, limit: RETRIEVAL_TUNING.candidates } } : {}),
      watch: { chatId: who.sessionId, userId },
    }),
    liveSessions({ db: getDb(room.env) }, { sessionIds: sessions.others }),
  ]);
  const signedOut = new Set(facts.signedOut);
  const rows = facts.files ? facts.files.map(requestedRow) : await requestedFilesQuery({ db: getDb(room.env) }, files).all();
  return {
    askerLive: !(who.authSessionId && signedOut.has(who.authSessionId)),
    liveSessions: new Set([...sessions.own.filter((id) => !signedOut.has(id)), ...othersLive]),
    rows,
    /** the search's hits, over `rows` (a search runs only over documents the Library named) */
    hits: facts.hits,
    /** with no documents named: the user's documents still being indexed */
    indexing: facts.indexing,
    /** the refusal when today's count passed the plan's allowance (the plan is read only past the free one) */
    overQuota: async () =>
      facts.messages > FREE_QUOTA.maxMessagesPerDay
        ? dailyMessageRefusal(await quotaFor({ db: getDb(room.env) }, { userId }), facts.messages)
        : null,
    /** takes back the message counted for a question then refused for another reason */
    takeBack: () => userLibrary.uncountMessage(day),
  };
}

/** Anonymous visitors are rate limited per IP (they have no plan and no documents). */
async function anonymousAdmission(room: ChatRoom, who: SocketIdentity, sessions: ChatSessions, query: string): Promise<Admitted> {
  const [{ success }, live] = await Promise.all([
    room.env.CHAT_RATE_LIMITER.limit({ key: `anon-chat:${who.ip}` }),
    liveSessions({ db: getDb(room.env) }, { sessionIds: [...sessions.own, ...sessions.others] }),
  ]);
  return { admission: success ? { ok: true, query } : refused(429, CHAT_MESSAGES.tooManyMessages), liveSessions: live };
}

/** A refusal that needs no database read: the sign-out check still runs. */
async function checkedAlone(room: ChatRoom, sessions: ChatSessions, admission: Admission): Promise<Admitted> {
  return { admission, liveSessions: await liveSessions({ db: getDb(room.env) }, { sessionIds: [...sessions.own, ...sessions.others] }) };
}
