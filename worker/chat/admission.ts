// Whether a question (or a regeneration) may run: the asker's access, the chat's
// documents it may change, the daily quota or the anonymous rate limit, and
// whether the chat's signed-in sockets are still signed in. Everything a signed-in
// question needs from D1 is read in ONE round trip (a D1 batch): locally one
// D1 object serves every chat, so each separate query makes every other turn wait.
import { MESSAGES } from "../contract/messages";
import { CHAT_MESSAGES, MAX_CHAT_FILES, type ChatFile, type ClientMessage } from "../contract/protocol";
import { getDb } from "../db/client";
import { liveSessions, liveSessionsQuery } from "../services/accounts";
import { attachable, chatFile, inOrder, requestedFilesQuery, resolveChatFiles, type RequestedFiles } from "../services/chat-files";
import { recordTurnQuery, unlistNewChat } from "../services/chats";
import { titleFromQuestion } from "../providers/llm/prompt";
import { countMessageQuery, dailyMessageRefusal, paidSubscriptionQuery, quotaOf, uncountMessage, usageDay } from "../services/quotas";
import type { SocketIdentity } from "./identity";
import type { ChatRoom } from "./turn";

export type ChatQuestion = Extract<ClientMessage, { action: "chat" }>;
export type RegenerateRequest = Extract<ClientMessage, { action: "regenerate" }>;

/**
 * An admitted question, with the chat's documents as its database read found them
 * (changed by the question, or as they were); `listed`: a chat's first question
 * already put the chat in its owner's history.
 */
export type Admission = { ok: true; query: string; files?: ChatFile[]; listed?: true } | { ok: false; code: number; message: string };

/**
 * Admission's answer, and which of the signed-in sessions it was asked to check
 * are still live (the chat closes the sockets of the others).
 */
export interface Admitted {
  admission: Admission;
  liveSessions: ReadonlySet<string>;
}

const refused = (code: number, message: string): Admission => ({ ok: false, code, message });

/**
 * Decides whether this question may run. A question may change the chat's
 * documents first (file_ids replaces the set, s3_key adds one); a refused change
 * or question changes nothing, and only an admitted question uses the quota.
 * `sessionIds`: the chat's signed-in sessions to check for revocation meanwhile.
 */
export async function admitQuestion(
  room: ChatRoom,
  who: SocketIdentity,
  message: ChatQuestion,
  sessionIds: readonly string[] = [],
): Promise<Admitted> {
  if (message.session_id !== who.sessionId) return checkedAlone(room, sessionIds, refused(403, CHAT_MESSAGES.notYourSession));
  if (who.access === "member") return checkedAlone(room, sessionIds, refused(403, CHAT_MESSAGES.readOnly));
  const query = message.query.trim();
  if (!query) return checkedAlone(room, sessionIds, refused(400, CHAT_MESSAGES.emptyQuery));
  const changesFiles = Boolean(message.file_ids || message.s3_key);
  if (changesFiles && !who.userId) return checkedAlone(room, sessionIds, refused(403, CHAT_MESSAGES.anonymousFiles));
  if (!who.userId) return anonymousAdmission(room, who, sessionIds, query);

  const request: RequestedFiles | null = changesFiles
    ? { ownerId: who.userId, ids: message.file_ids ? [...message.file_ids] : room.documentIds(), uploadKey: message.s3_key }
    : null;
  if (request && new Set(request.ids).size > MAX_CHAT_FILES)
    return checkedAlone(room, sessionIds, refused(400, CHAT_MESSAGES.tooManyFiles));
  // a chat's first question lists the chat in the same read (taken back if the question is refused)
  const listing = room.messages.history().length === 0 ? { sessionId: who.sessionId, title: titleFromQuestion(query) } : null;
  // a question that keeps the chat's documents reads them in the same batch too: the turn needs them as they are
  const kept = request ? [] : room.documentIds();
  const read = await readForAdmission(room.env, who.userId, sessionIds, request ?? { ownerId: who.userId, ids: kept }, listing);
  const takeBack = async () => {
    const db = getDb(room.env);
    await Promise.all([
      uncountMessage({ db }, { userId: who.userId!, day: read.day }),
      listing ? unlistNewChat({ db }, { sessionId: who.sessionId, userId: who.userId! }) : null,
    ]);
  };

  let nextFiles: ChatFile[] | null = null;
  if (request) {
    const checked = attachable(read.requestedFiles, request);
    if (!checked.ok) {
      await takeBack();
      return { admission: refused(checked.code, checked.message), liveSessions: read.liveSessions };
    }
    nextFiles = checked.files;
  }
  if (read.overQuota) {
    if (listing) await unlistNewChat({ db: getDb(room.env) }, { sessionId: who.sessionId, userId: who.userId });
    return { admission: refused(429, read.overQuota), liveSessions: read.liveSessions };
  }
  if (who.authSessionId && !read.liveSessions.has(who.authSessionId) && sessionIds.includes(who.authSessionId)) {
    await takeBack(); // signed out meanwhile: the question does not run
    return { admission: refused(401, MESSAGES.unauthorized), liveSessions: read.liveSessions };
  }
  if (nextFiles) room.storeFiles(who.userId, nextFiles);
  else {
    // the set as just read, unless another socket changed it meanwhile (then it is read again)
    const rows = read.requestedFiles.map(chatFile);
    nextFiles = await room.files((wanted) =>
      wanted.ids.every((id) => kept.includes(id))
        ? Promise.resolve(inOrder(rows, wanted.ids))
        : resolveChatFiles({ db: getDb(room.env) }, wanted),
    );
  }
  return {
    admission: { ok: true, query, ...(nextFiles ? { files: nextFiles } : {}), ...(listing ? { listed: true as const } : {}) },
    liveSessions: read.liveSessions,
  };
}

/** Regenerate: only the owner, only a chat that ends with an answer; a new answer uses the quota like a question. */
export async function admitRegenerate(
  room: ChatRoom,
  who: SocketIdentity,
  message: RegenerateRequest,
  sessionIds: readonly string[] = [],
): Promise<Admitted> {
  if (message.session_id !== who.sessionId) return checkedAlone(room, sessionIds, refused(403, CHAT_MESSAGES.notYourSession));
  if (who.access === "member") return checkedAlone(room, sessionIds, refused(403, CHAT_MESSAGES.readOnly));
  const last = room.messages.lastExchange();
  if (!last) return checkedAlone(room, sessionIds, refused(400, CHAT_MESSAGES.nothingToRegenerate));
  if (!who.userId) return anonymousAdmission(room, who, sessionIds, last.question);
  const read = await readForAdmission(room.env, who.userId, sessionIds, { ownerId: who.userId, ids: [] }, null);
  if (read.overQuota) return { admission: refused(429, read.overQuota), liveSessions: read.liveSessions };
  return { admission: { ok: true, query: last.question }, liveSessions: read.liveSessions };
}

/**
 * One D1 batch: the sessions still live, the asker's plan, the documents the
 * question names (or the chat keeps), today's message counted and, for a chat's first question, the
 * chat listed (both taken back by the caller if the question is then refused).
 */
async function readForAdmission(
  env: Env,
  userId: string,
  sessionIds: readonly string[],
  files: RequestedFiles,
  listing: { sessionId: string; title: string } | null,
) {
  const db = getDb(env);
  const day = usageDay();
  const [live, paid, counted, requestedFiles] = await db.batch([
    liveSessionsQuery({ db }, { sessionIds }),
    paidSubscriptionQuery({ db }, { userId }),
    countMessageQuery({ db }, { userId, day }),
    requestedFilesQuery({ db }, files),
    ...(listing ? [recordTurnQuery({ db }, { ...listing, userId })] : []),
  ]);
  return {
    day,
    liveSessions: new Set(live.map((r) => r.id)),
    overQuota: dailyMessageRefusal(quotaOf(paid), counted[0]?.messages ?? 0),
    requestedFiles,
  };
}

/** Anonymous visitors are rate limited per IP (they have no plan and no documents). */
async function anonymousAdmission(room: ChatRoom, who: SocketIdentity, sessionIds: readonly string[], query: string): Promise<Admitted> {
  const [{ success }, live] = await Promise.all([
    room.env.CHAT_RATE_LIMITER.limit({ key: `anon-chat:${who.ip}` }),
    liveSessions({ db: getDb(room.env) }, { sessionIds }),
  ]);
  return { admission: success ? { ok: true, query } : refused(429, CHAT_MESSAGES.tooManyMessages), liveSessions: live };
}

/** A refusal that needs no database read: the revocation check still runs. */
async function checkedAlone(room: ChatRoom, sessionIds: readonly string[], admission: Admission): Promise<Admitted> {
  return { admission, liveSessions: await liveSessions({ db: getDb(room.env) }, { sessionIds }) };
}
