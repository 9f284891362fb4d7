// One chat turn, as a plain module the chat's Durable Object drives (and tests
// drive without sockets): admit the question (session, access, the chat's
// documents it may change, the daily quota or the anonymous rate limit), then
// store it -> wait for the chat's documents to finish indexing -> retrieve from
// them (or from all of the owner's files when none is attached) -> stream the
// answer to every socket -> store it with its cited sources -> update the chats
// row -> `end` + `chat_list_update`.
import {
  CHAT_MESSAGES,
  INDEXING_STATUSES,
  partialIndexNote,
  awaitingRecognitionNote,
  type ChatFile,
  type ClientMessage,
  type FileInfo,
  type ServerMessage,
} from "../contract/protocol";
import { getDb } from "../db/client";
import { chooseChatProvider } from "../providers/llm";
import { chatTitle, titleFromQuestion } from "../providers/llm/prompt";
import { checkAttachable } from "../services/chat-files";
import { turnSearchText } from "../services/chat-search";
import { listChats, recordTurn } from "../services/chats";
import { findByUploadKey } from "../services/uploads";
import { consumeDailyMessage, quotaFor, type Quota } from "../services/quotas";
import { retrievePassages, type Passage } from "../services/retrieval";
import type { ChatProvider } from "../providers/llm";
import { citedSources } from "./citations";
import { followUpQuestions } from "./suggestions";
import type { SocketIdentity } from "./identity";
import type { HistoryMessage, MessageStore } from "./message-store";

/**
 * A question about a file that is still being indexed waits this long for it;
 * then it is answered from the pages done so far, and the answer says so.
 */
export const ATTACHMENT_WAIT_MS = 15_000;

/** What a turn needs from the chat it runs in. */
export interface ChatRoom {
  env: Env;
  messages: Pick<
    MessageStore,
    | "addQuestion"
    | "startAnswer"
    | "appendToAnswer"
    | "answerSoFar"
    | "completeAnswer"
    | "get"
    | "history"
    | "lastExchange"
    | "setSuggestions"
    | "removeAnswer"
  >;
  /** the ids of the chat's documents, in the order attached */
  documentIds(): string[];
  /** the chat's documents as they are now */
  files(): Promise<ChatFile[]>;
  /** which of these documents no question has named yet (and marks them named) */
  takeNewFiles(files: ChatFile[]): FileInfo[];
  /** replaces the chat's documents and tells every socket */
  storeFiles(ownerId: string, files: ChatFile[]): void;
  /** waits while any document is still indexing, sending progress; returns them as they are then */
  untilIndexed(timeoutMs: number, options: { evenUnwatched: boolean }): Promise<ChatFile[]>;
  broadcast(message: ServerMessage, onlyUserId?: string): void;
}

export type ChatQuestion = Extract<ClientMessage, { action: "chat" }>;
export type RegenerateRequest = Extract<ClientMessage, { action: "regenerate" }>;

/** An admitted question, with the chat's documents when it just changed (and so read) them. */
export type Admission = { ok: true; query: string; files?: ChatFile[] } | { ok: false; code: number; message: string };

const refused = (code: number, message: string): Admission => ({ ok: false, code, message });
const isIndexing = (file: ChatFile) => INDEXING_STATUSES.includes(file.status);

/**
 * Decides whether this question may run. A question may change the chat's
 * documents first (file_ids replaces the set, s3_key adds one); a refused change
 * or question changes nothing, and only an admitted question uses the quota.
 */
export async function admitQuestion(room: ChatRoom, who: SocketIdentity, message: ChatQuestion): Promise<Admission> {
  if (message.session_id !== who.sessionId) return refused(403, CHAT_MESSAGES.notYourSession);
  if (who.access === "member") return refused(403, CHAT_MESSAGES.readOnly);
  const query = message.query.trim();
  if (!query) return refused(400, CHAT_MESSAGES.emptyQuery);
  // the plan is read while the documents are checked; the message is only counted once all passed
  const quota = readQuota(room.env, who);

  let nextFiles: ChatFile[] | null = null;
  if (message.file_ids || message.s3_key) {
    if (!who.userId) return refused(403, CHAT_MESSAGES.anonymousFiles);
    const db = getDb(room.env);
    const ids = message.file_ids ? [...message.file_ids] : room.documentIds();
    if (message.s3_key) {
      const id = (await findByUploadKey({ db }, { userId: who.userId, r2Key: message.s3_key }))?.id;
      if (!id) return refused(404, CHAT_MESSAGES.fileNotFound);
      if (!ids.includes(id)) ids.push(id);
    }
    const checked = await checkAttachable({ db }, { ownerId: who.userId, ids });
    if (!checked.ok) return refused(checked.code, checked.message);
    nextFiles = checked.files;
  }

  const overQuota = await chargeQuestion(room.env, who, quota);
  if (overQuota) return refused(429, overQuota);
  if (nextFiles) room.storeFiles(who.userId!, nextFiles);
  return { ok: true, query, ...(nextFiles ? { files: nextFiles } : {}) };
}

/** Regenerate: only the owner, only a chat that ends with an answer; a new answer uses the quota like a question. */
export async function admitRegenerate(room: ChatRoom, who: SocketIdentity, message: RegenerateRequest): Promise<Admission> {
  if (message.session_id !== who.sessionId) return refused(403, CHAT_MESSAGES.notYourSession);
  if (who.access === "member") return refused(403, CHAT_MESSAGES.readOnly);
  const last = room.messages.lastExchange();
  if (!last) return refused(400, CHAT_MESSAGES.nothingToRegenerate);
  const overQuota = await chargeQuestion(room.env, who, readQuota(room.env, who));
  if (overQuota) return refused(429, overQuota);
  return { ok: true, query: last.question };
}

/** The signed-in asker's plan, read now and awaited when the message is counted (null: anonymous). */
function readQuota(env: Env, who: SocketIdentity): Promise<Quota> | null {
  if (!who.userId) return null;
  const read = quotaFor({ db: getDb(env) }, { userId: who.userId });
  read.catch(() => {}); // a refusal before counting never awaits it; a counted message sees the error
  return read;
}

/** Anonymous visitors are rate limited per IP; signed-in users count against their plan's daily messages. */
async function chargeQuestion(env: Env, who: SocketIdentity, quota: Promise<Quota> | null): Promise<string | null> {
  if (!who.userId || !quota) {
    const { success } = await env.CHAT_RATE_LIMITER.limit({ key: `anon-chat:${who.ip}` });
    return success ? null : CHAT_MESSAGES.tooManyMessages;
  }
  return consumeDailyMessage({ db: getDb(env) }, { quota: await quota, userId: who.userId });
}

/**
 * Answers an admitted question; every socket of the chat sees the answer stream.
 * `stop` aborted: writing ends, what was written is kept, marked stopped.
 * `regenerate`: the chat's last answer is removed and its question answered again.
 * `files`: the chat's documents as admission read them a moment ago (else they are read here).
 */
export async function runTurn(
  room: ChatRoom,
  who: SocketIdentity,
  asked: string,
  stop?: AbortSignal,
  options: { regenerate?: boolean; files?: ChatFile[] } = {},
): Promise<void> {
  const { env, messages } = room;
  let history = messages.history();
  let query = asked;
  let firstTurn = history.length === 0;
  const files = options.files ?? (await room.files());
  if (options.regenerate) {
    // read again here: a turn queued before this one may have added an answer
    const last = messages.lastExchange();
    if (!last) return room.broadcast({ type: "error", code: 400, message: CHAT_MESSAGES.nothingToRegenerate });
    messages.removeAnswer(last.answerId);
    room.broadcast({ type: "regenerating", session_id: who.sessionId, message_id: last.answerId });
    query = last.question;
    history = messages.history();
    if (history.at(-1)?.role === "user") history.pop(); // the question itself is asked, not context
    firstTurn = false;
  } else {
    messages.addQuestion(query, room.takeNewFiles(files));
  }
  // A first question puts the chat in the history, even if its answer never comes; the write
  // starts with the answer's first words, so they never wait for it. (Later turns only bump the
  // chat's activity when they end: one write per turn.)
  let listed: Promise<void> | null = null;
  const listChat = () => {
    if (!who.userId || !firstTurn || listed) return;
    listed = recordTurn({ db: getDb(env) }, { sessionId: who.sessionId, userId: who.userId, title: titleFromQuestion(query) });
    listed.catch(() => {}); // awaited below
  };

  let answered: { passages: Passage[]; provider: ChatProvider; answerId: string; failed: boolean };
  try {
    answered = await answer(room, who, query, history, files, stop, listChat);
  } finally {
    listChat();
    await listed;
  }
  const { passages, provider, answerId, failed } = answered;

  const stopped = Boolean(stop?.aborted);
  const content = messages.answerSoFar() || (stopped ? "" : CHAT_MESSAGES.sendFailed);
  const sources = citedSources(content, passages);
  messages.completeAnswer(answerId, content, sources, stopped ? "stopped" : "complete");
  if (failed) room.broadcast({ type: "error", code: 500, message: CHAT_MESSAGES.sendFailed });

  if (who.userId) {
    // a model may name the chat better than its first question did
    const title = firstTurn && provider.complete ? await chatTitle(provider, query) : undefined;
    await recordTurn(
      { db: getDb(env) },
      {
        sessionId: who.sessionId,
        userId: who.userId,
        title,
        retitle: Boolean(title),
        text: turnSearchText(query, content),
      },
    );
  }
  room.broadcast({
    type: "end",
    session_id: who.sessionId,
    message: messages.get(answerId)!,
    mode: provider.mode,
    files: await room.files(),
  });
  if (who.userId) {
    const chats = await listChats({ db: getDb(env) }, { user: { id: who.userId, email: who.email! } });
    room.broadcast({ type: "chat_list_update", chats }, who.userId);
  }
  // follow-up questions come last: the answer and the history never wait for them
  if (!stopped && !failed) {
    const cited = sources.map((s) => passages[s.n - 1]!);
    const suggestions = await followUpQuestions(provider, query, content, cited);
    if (suggestions.length) {
      messages.setSuggestions(answerId, suggestions);
      room.broadcast({ type: "suggestions", session_id: who.sessionId, message_id: answerId, suggestions });
    }
  }
}

/**
 * Retrieval and the streamed answer: waits for documents still indexing, retrieves,
 * and streams the provider's words to every socket (`started` runs with each frame).
 */
async function answer(
  room: ChatRoom,
  who: SocketIdentity,
  query: string,
  history: HistoryMessage[],
  attached: ChatFile[],
  stop: AbortSignal | undefined,
  started: () => void,
): Promise<{ passages: Passage[]; provider: ChatProvider; answerId: string; failed: boolean }> {
  const { env, messages } = room;
  const files = attached.some(isIndexing) ? await room.untilIndexed(ATTACHMENT_WAIT_MS, { evenUnwatched: true }) : attached;
  // Only the owner asks, so the chat's documents are the asker's own.
  const scope = { userId: who.userId!, documentIds: files.map((f) => f.fileId) };
  const passages = who.userId ? await retrievePassages(env, { ...scope, question: query }) : [];
  const provider = chooseChatProvider(env);
  const answerId = messages.startAnswer();

  let failed = false;
  const streamed = (text: string) => {
    messages.appendToAnswer(text);
    room.broadcast({ type: "stream", session_id: who.sessionId, message_id: answerId, text });
    started();
  };
  // a long PDF still being indexed, or a scan still being recognised: say which pages this answer could use
  const notes = [
    ...files.filter(isIndexing).map(partialIndexNote),
    ...files.filter((f) => f.status === "needs_ocr").map(awaitingRecognitionNote),
  ];
  if (notes.length && !stop?.aborted) streamed(`_${notes.join(" ")}_\n\n`);
  try {
    const documentNames = files.map((f) => f.fileName);
    for await (const text of provider.streamAnswer({ question: query, passages, history, anonymous: !who.userId, documentNames })) {
      if (stop?.aborted) break;
      streamed(text);
    }
  } catch (err) {
    console.error("answer provider failed", err);
    failed = true;
  }
  return { passages, provider, answerId, failed };
}
