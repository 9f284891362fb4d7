// One chat turn, as a plain module the chat's Durable Object drives (and tests
// drive without sockets), once ./admission.ts admitted its question: store it (a
// first question also lists the chat) -> wait for the chat's documents to finish indexing -> retrieve from
// them (or from all of the owner's files when none is attached) -> stream the
// answer to every socket -> store it with its cited sources -> update the chats
// row -> `end` + `chat_list_update`.
import {
  CHAT_MESSAGES,
  INDEXING_STATUSES,
  partialIndexNote,
  partialIndexNotes,
  awaitingRecognitionNote,
  type ChatFile,
  type ChatListItem,
  type ClientMessage,
  type FileInfo,
  type ServerMessage,
} from "../contract/protocol";
import { getDb } from "../db/client";
import { chooseChatProvider } from "../providers/llm";
import { chatTitle, titleFromQuestion } from "../providers/llm/prompt";
import { turnSearchText } from "../services/chat-search";
import { chatFilesQuery, inOrder } from "../services/chat-files";
import { listChatQuery, listChatsQuery, recordTurnQuery } from "../services/chats";
import { retrievePassages } from "../answer/ranking/retrieval";
import type { ChatProvider } from "../providers/llm";
import type { ChunkHit, NamedFile } from "../library/types";
import { yieldToOtherWork } from "../lib/yield";
import { Citations } from "../answer/citations";
import { withEarlierQuestion } from "../answer/question/follow-up";
import { followUpQuestions } from "../answer/suggestions";
import { verifyAnswer } from "../answer/verify";
import type { SocketIdentity } from "./identity";
import type { ReadChatFiles } from "./chat-documents";
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
  /** the chat's documents as they are now (`read`: how to read them from the catalogue) */
  files(read?: ReadChatFiles): Promise<ChatFile[]>;
  /** which of these documents no question has named yet (and marks them named) */
  takeNewFiles(files: ChatFile[]): FileInfo[];
  /** replaces the chat's documents and tells every socket */
  storeFiles(ownerId: string, files: ChatFile[]): void;
  /** waits while any document is still indexing (woken by their Library's pushes), sending progress; returns them as they are then */
  untilIndexed(timeoutMs: number): Promise<ChatFile[]>;
  /** waits while any of the user's documents is still being indexed (or a Stop); returns those still being indexed then */
  untilLibraryIndexed(userId: string, timeoutMs: number, stop?: AbortSignal): Promise<NamedFile[]>;
  broadcast(message: ServerMessage, onlyUserId?: string): void;
}

const isIndexing = (file: ChatFile) => INDEXING_STATUSES.includes(file.status);

/**
 * Why a deleted chat's turns are stopped (ChatSession.erase): unlike a Stop, nothing of them is
 * kept, listed or sent, so the chat does not come back in its owner's list or search.
 */
export const CHAT_ERASED = "chat erased";
const erased = (stop?: AbortSignal) => stop?.aborted === true && stop.reason === CHAT_ERASED;

/** Turns of this isolate writing an answer right now (from retrieval to the answer's last word). */
let answering = 0;

/**
 * Answers an admitted question; every socket of the chat sees the answer stream.
 * `stop` aborted: writing ends, what was written is kept, marked stopped.
 * `regenerate`: the chat's last answer is removed and its question answered again.
 * `files`: the chat's documents as admission read them a moment ago (else they are read here);
 * `hits`: the keyword search over them admission ran (else it runs here);
 * `indexing`: in a chat without documents, the owner's documents admission found still being indexed.
 */
export async function runTurn(
  room: ChatRoom,
  who: SocketIdentity,
  asked: string,
  stop?: AbortSignal,
  options: { regenerate?: boolean; files?: ChatFile[]; hits?: ChunkHit[]; indexing?: NamedFile[] } = {},
): Promise<void> {
  if (erased(stop)) return;
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
    const question = messages.addQuestion(query, room.takeNewFiles(files));
    // every socket of the chat shows it above the answer that follows: another tab's too
    room.broadcast({ type: "question", session_id: who.sessionId, message: question });
  }
  // a follow-up ("And in 2017?") is searched as the earlier question with its words put in
  const searched = withEarlierQuestion(query, () => history);
  // A first question lists the chat with its admission, whatever happens after (a crash mid-answer
  // included): one small INSERT OR IGNORE started here, beside retrieval, and waited for before the
  // answer's first words. The turn's end write still sets its updated_at, search text and title.
  const listed = who.userId && firstTurn ? listFirstQuestion(env, { sessionId: who.sessionId, userId: who.userId, query }) : undefined;
  let answered: { citations: Citations; provider: ChatProvider; answerId: string; failed: boolean };
  answering++;
  try {
    const prepared = { attached: files, hits: options.hits, indexing: options.indexing, listed };
    answered = await answer(room, who, { asked: query, searched }, history, prepared, stop);
  } catch (err) {
    await listed; // a turn that breaks off before its answer starts still leaves the chat listed
    throw err;
  } finally {
    answering--;
  }
  if (erased(stop)) return;
  const { citations, provider, answerId, failed } = answered;

  const stopped = Boolean(stop?.aborted);
  const content = messages.answerSoFar() || (stopped ? "" : CHAT_MESSAGES.sendFailed);
  // every answer, the local writer's and a model's, is checked against the pages it cites before it is stored
  const sources = citations.sources();
  const documentNames = [...files, ...sources].map((f) => f.fileName);
  const checked = content ? verifyAnswer(content, citations.citedTexts(), { documentNames }) : null;
  messages.completeAnswer(answerId, content, sources, stopped ? "stopped" : "complete", checked);
  if (failed) room.broadcast({ type: "error", code: 500, message: CHAT_MESSAGES.sendFailed });

  // a model may name the chat better than its first question did
  const title = who.userId && firstTurn && provider.complete ? await chatTitle(provider, query) : undefined;
  const ended = who.userId
    ? await recordTurnAndRead(
        room,
        { id: who.userId, email: who.email! },
        {
          sessionId: who.sessionId,
          userId: who.userId,
          title: title ?? (firstTurn ? titleFromQuestion(query) : undefined),
          retitle: Boolean(title),
          text: turnSearchText(query, content),
        },
      )
    : { files: await room.files(), chats: null };
  room.broadcast({ type: "end", session_id: who.sessionId, message: messages.get(answerId)!, mode: provider.mode, files: ended.files });
  if (who.userId && ended.chats) room.broadcast({ type: "chat_list_update", chats: ended.chats }, who.userId);
  // follow-up questions come last: the answer and the history never wait for them
  if (!stopped && !failed) {
    const suggestions = await followUpQuestions(provider, query, content, citations.citedPassages());
    if (suggestions.length) {
      messages.setSuggestions(answerId, suggestions);
      room.broadcast({ type: "suggestions", session_id: who.sessionId, message_id: answerId, suggestions });
    }
  }
}

/**
 * A signed-in turn's end in one D1 round trip: the turn recorded, then the chat's
 * documents and the owner's chat list read (locally one D1 object serves every
 * chat, so each separate query makes every other turn wait).
 */
async function recordTurnAndRead(
  room: ChatRoom,
  user: { id: string; email: string },
  turn: Parameters<typeof recordTurnQuery>[1],
): Promise<{ files: ChatFile[]; chats: ChatListItem[] }> {
  const db = getDb(room.env);
  const record = recordTurnQuery({ db }, turn);
  const list = listChatsQuery({ db }, { user });
  let chats: ChatListItem[] | null = null;
  const files = await room.files(async (request) => {
    const [, listed, rows] = await db.batch([record, list, chatFilesQuery({ db }, request)]);
    chats = listed;
    return inOrder(rows, request.ids);
  });
  // a chat without documents reads none
  return { files, chats: chats ?? (await db.batch([record, list]))[1] };
}

/** Lists a chat at its first question (services/chats.ts listChatQuery); a failure is logged, the end write lists it then. */
function listFirstQuestion(env: Env, { sessionId, userId, query }: { sessionId: string; userId: string; query: string }): Promise<void> {
  return listChatQuery({ db: getDb(env) }, { sessionId, userId, title: titleFromQuestion(query) })
    .run()
    .then(
      () => {},
      (err: unknown) => console.error("could not list the chat at its first question", err),
    );
}

/**
 * Retrieval and the streamed answer: waits for documents still indexing, retrieves,
 * and streams the provider's words to every socket.
 */
async function answer(
  room: ChatRoom,
  who: SocketIdentity,
  { asked, searched }: { asked: string; searched: string },
  history: HistoryMessage[],
  {
    attached,
    hits,
    indexing: indexingAtAdmission = [],
    listed,
  }: { attached: ChatFile[]; hits?: ChunkHit[]; indexing?: NamedFile[]; listed?: Promise<void> },
  stop: AbortSignal | undefined,
): Promise<{ citations: Citations; provider: ChatProvider; answerId: string; failed: boolean }> {
  const { env, messages } = room;
  const waits = attached.some(isIndexing);
  const files = waits ? await room.untilIndexed(ATTACHMENT_WAIT_MS) : attached;
  // Only the owner asks, so the chat's documents are the asker's own.
  const scope = { userId: who.userId!, documentIds: files.map((f) => f.fileId) };
  const keywordHits = waits ? undefined : hits;
  // The search came with the admission. While other chats of this isolate answer, their admissions
  // waiting meanwhile (each chat's new chips) go first: answering at once put every later chips frame
  // behind the answers already started (200 chats asking at once: first frame p99 ~1.3 -> ~2.1 s).
  if (keywordHits && answering > 1) await yieldToOtherWork();
  let passages = who.userId ? await retrievePassages(env, { ...scope, question: searched, keywordHits }) : [];
  // With no documents attached and nothing found yet, a file still being indexed (just uploaded on
  // My Files, then asked about) is waited for as an attached one would be, then searched again.
  let indexing = indexingAtAdmission;
  if (!attached.length && indexing.length && !passages.length) {
    indexing = await room.untilLibraryIndexed(who.userId!, ATTACHMENT_WAIT_MS, stop);
    passages = await retrievePassages(env, { ...scope, question: searched });
  }
  const provider = chooseChatProvider(env);
  await listed; // nothing streams before a first question has listed its chat
  const answerId = messages.startAnswer();

  let failed = false;
  const streamed = (text: string) => {
    messages.appendToAnswer(text);
    room.broadcast({ type: "stream", session_id: who.sessionId, message_id: answerId, text });
  };
  // a long PDF still being indexed (the chat's, or with none attached any of the owner's), or a scan still
  // being recognised: say which pages this answer could use
  const notes = [
    ...files.filter(isIndexing).map(partialIndexNote),
    ...(attached.length ? [] : partialIndexNotes(indexing)),
    ...files.filter((f) => f.status === "needs_ocr").map(awaitingRecognitionNote),
  ];
  if (notes.length && !stop?.aborted) streamed(`_${notes.join(" ")}_\n\n`);
  // the writer cites passages by their place in the list; the reader sees sources in order of first use
  const citations = new Citations(passages);
  try {
    const documentNames = files.map((f) => f.fileName);
    // the local writer reads the whole question a follow-up asks; a model reads the chat's history itself
    const question = provider.mode === "local" ? searched : asked;
    for await (const text of provider.streamAnswer({ question, passages, history, anonymous: !who.userId, documentNames })) {
      if (stop?.aborted) break;
      const renumbered = citations.renumber(text);
      if (renumbered) streamed(renumbered);
    }
  } catch (err) {
    console.error("answer provider failed", err);
    failed = true;
  }
  const rest = citations.flush();
  if (rest) streamed(rest);
  return { citations, provider, answerId, failed };
}
