// The chat websocket protocol (spec section 7, DESIGN.md section 6): the
// messages each way, shared by the ChatSession Durable Object and the client.
// Every client message may carry the bearer `token`. The zod schemas the Worker
// checks them with are in protocol-schemas.ts, so the client's first visit
// carries no zod.
import type { SentenceCheck, Verified } from "./checks";
import type { DocumentStatus } from "./documents";
import type { Folder } from "./folders";

/** The folder a chat is scoped to (`set_folder`): its documents are the chat's, following moves in and out. */
export type ChatFolder = Folder;

export const CHAT_QUERY_MAX = 4000;
/** A chat searches at most this many documents (its "set"); none attached = all of the owner's indexed files. */
export const MAX_CHAT_FILES = 20;

/** A citation target: [n] in an answer refers to the source with this n (page 1 = the PDF's first page). */
export interface Source {
  n: number;
  fileId: string;
  fileName: string;
  page: number;
  /** the cited passage's span in the page's normalised text (absent on answers stored before it was kept) */
  charStart?: number;
  charEnd?: number;
  /** the passage's first words, to find it again if the page's text layer differs slightly */
  quote?: string;
  /** the passage is text recognised from a scanned page (shown as "p. 3 (recognised text)") */
  recognised?: boolean;
  /** more passages of the same page the answer cites under this one number, each marked in the viewer too */
  more?: readonly SourceSpan[];
}

/** A cited passage's place on its page: its span in the page's normalised text and its first words. */
export interface SourceSpan {
  charStart: number;
  charEnd: number;
  quote: string;
}

export interface FileInfo {
  name: string;
  fileId?: string;
}

/** One document of a chat's set, as the chips above the composer show it. */
export interface ChatFile {
  fileId: string;
  fileName: string;
  status: DocumentStatus;
  /** pages indexed so far, and the page count once known (for "Indexing p17.pdf… 120/417 pages") */
  pagesDone: number;
  pagesTotal: number | null;
  error: string | null;
}

/** A document's indexing as My Files shows it, pushed over the owner's chat socket (`file_progress`). */
export interface FileProgress extends ChatFile {
  /** pages (1-based) still waiting for text recognition; [] when none */
  ocrPages: number[];
}

export interface StoredMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  fileInfo?: FileInfo[];
  sources?: Source[];
  /** "streaming" while the answer is still being written */
  status?: "complete" | "streaming" | "interrupted" | "stopped";
  /** up to three follow-up questions (an answer's `suggestions` frame, kept with it) */
  suggestions?: string[];
  /** a finished answer's sentences checked against the pages they cite (contract/checks.ts) */
  checks?: SentenceCheck[];
  verified?: Verified;
  created_at: number;
}

export interface ChatListItem {
  session_id: string;
  updated_at: number;
  summary: string;
}

/** GET /api/chat/search: the owner's chats whose title or messages contain the words typed. */
export const CHAT_SEARCH_MAX = 200;

export interface ChatSearchHit extends ChatListItem {
  /** the message text around the first match; null when only the title matched */
  snippet: string | null;
}

export interface ChatSearchResponse {
  chats: ChatSearchHit[];
}

/** "local" = the built-in extractive responder (no model configured). */
export type AnswerMode = "local" | "model";

export type { ClientMessage } from "./protocol-schemas";

/**
 * The ping the client sends every 120000 ms. Sent exactly like this (no token) it
 * is answered by the runtime without waking the Durable Object; a ping with
 * other fields is answered by the object itself.
 */
export const PING = JSON.stringify({ type: "ping" });
export const PONG = JSON.stringify({ type: "pong" });

export type ServerMessage =
  /** a question the chat is about to answer, as stored (the answer's `stream` frames follow it) */
  | { type: "question"; session_id: string; message: StoredMessage }
  | { type: "stream"; session_id: string; message_id: string; text: string }
  | { type: "end"; session_id: string; message: StoredMessage; mode: AnswerMode; files: ChatFile[] }
  | { type: "chat_list"; chats: ChatListItem[] }
  | { type: "chat_list_update"; chats: ChatListItem[] }
  | {
      type: "full_chat";
      session_id: string;
      messages: StoredMessage[];
      mode: AnswerMode;
      readOnly: boolean;
      files: ChatFile[];
      /** the folder the chat follows (absent from older servers: none) */
      folder?: ChatFolder | null;
    }
  /** the answer `message_id` is being written again (Regenerate): it leaves the chat, a new answer follows */
  | { type: "regenerating"; session_id: string; message_id: string }
  /** follow-up questions for answer `message_id`, sent after its `end` */
  | { type: "suggestions"; session_id: string; message_id: string; suggestions: string[] }
  /** the chat's documents changed, or their indexing progressed */
  | { type: "files"; session_id: string; files: ChatFile[]; folder?: ChatFolder | null }
  /** the indexing of the socket user's own documents moved on (sent while the socket watches them: `watch_files`) */
  | { type: "file_progress"; files: FileProgress[] }
  /** `action` names the client action that was refused, when it was not a question ("set_files") */
  | { type: "error"; code: number; message: string; action?: "set_files" | "set_folder" }
  | { type: "pong" };

/**
 * `POST /api/chat/ticket { session_id }` (bearer token): a single-use ticket, valid
 * 60 s, that the websocket URL carries as its `token` query parameter in place of
 * the sign-in token (a URL ends up in request logs).
 */
export const SOCKET_TICKET_PATH = "/api/chat/ticket";
/** A single-use ticket: the chat socket's (above), or the Drive connection link's (`POST /api/auth/google/connectTicket`). */
export interface TicketResponse {
  ticket: string;
}

/** Close codes (spec section 9): the client logs out on either. */
export const CLOSE_UNAUTHORIZED = 4001;
export const CLOSE_POLICY = 1008;
/** Our own close code: a chat this user may not open (never shared, access removed, deleted). Not a logout. */
export const CLOSE_NO_ACCESS = 4403;

export const CHAT_MESSAGES = {
  sendFailed: "Sorry, I couldn't process your request.",
  waiting: "Please wait a moment...",
  readOnly: "This chat was shared with you to read; only its owner can ask questions in it.",
  accessRemoved: "Your access to this chat was removed.",
  chatDeleted: "This chat was deleted.",
  interrupted: "This answer was interrupted.",
  stopped: "You stopped this answer.",
  nothingToRegenerate: "There is no answer to regenerate yet.",
  titleRequired: "Give the chat a title.",
  renamed: "Chat renamed.",
  deleted: "Chat deleted.",
  notYourSession: "You cannot open this chat.",
  tokenMismatch: "This message was sent with another account's token.",
  emptyQuery: "Please type a question.",
  badMessage: "The message could not be understood.",
  queryTooLong: `A question can be at most ${CHAT_QUERY_MAX} characters. Shorten it and send it again.`,
  tooManyMessages: "You are sending messages too quickly. Please wait a minute and try again.",
  fileNotFound: "That file is not in your My Files. Upload it again or pick it from My Files.",
  tooManyFiles: `A chat can search at most ${MAX_CHAT_FILES} documents. Remove one to add another.`,
  anonymousFiles: "Log in to analyze files for free.",
  searchingAll: "Searching all your files",
  searchRequired: "Type a word to search your chats for.",
  searchTooLong: `Search for at most ${CHAT_SEARCH_MAX} characters.`,
} as const;

/** The refusal for attaching a document whose indexing failed. */
export function fileFailedMessage(fileName: string, reason: string | null): string {
  return `${fileName} could not be indexed, so it cannot be attached${reason ? `: ${reason}` : "."}`;
}

/** What the chat shows while a question waits for a document: "Indexing p17.pdf… 120/417 pages". */
export function indexingProgressText(file: Pick<ChatFile, "fileName" | "pagesDone" | "pagesTotal">): string {
  return file.pagesTotal ? `Indexing ${file.fileName}… ${file.pagesDone}/${file.pagesTotal} pages` : `Indexing ${file.fileName}…`;
}

/** The first lines of an answer given while a document of the chat is still being indexed. */
export function partialIndexNote(file: Pick<ChatFile, "fileName" | "pagesDone" | "pagesTotal">): string {
  const progress = file.pagesTotal ? `${file.pagesDone}/${file.pagesTotal} pages` : `${file.pagesDone} pages so far`;
  return `${file.fileName} is still being indexed (${progress}); this answer uses the pages done so far.`;
}

/**
 * The first line of an answer over all the user's files while some are still being indexed: each
 * named with its progress, or for more than two, three names and how many more.
 */
export function partialIndexNotes(files: readonly Pick<ChatFile, "fileName" | "pagesDone" | "pagesTotal">[]): string[] {
  if (files.length <= 2) return files.map(partialIndexNote);
  const names = files.slice(0, 3).map((f) => f.fileName);
  const list = files.length === 3 ? `${names.slice(0, 2).join(", ")} and ${names[2]}` : `${names.join(", ")} and ${files.length - 3} more`;
  return [`${list} are still being indexed; this answer uses the pages done so far.`];
}

/** The first lines of an answer given while a scanned document of the chat waits for text recognition. */
export function awaitingRecognitionNote(file: Pick<ChatFile, "fileName">): string {
  return `${file.fileName} has scanned pages still waiting for text recognition (My Files); this answer uses only the text read so far.`;
}

/** Statuses of a document that is still on its way to being searchable. */
export const INDEXING_STATUSES: readonly DocumentStatus[] = ["uploading", "pending", "processing"];

export const CHAT_TITLE_MAX = 100;
