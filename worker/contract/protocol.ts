// The chat websocket protocol (spec section 7, DESIGN.md section 6): one
// zod-checked union per direction, shared by the ChatSession Durable Object and
// the client. Every client message may carry the bearer `token`.
import { z } from "zod";
import type { DocumentStatus } from "./documents";

export const CHAT_QUERY_MAX = 4000;
/** A chat searches at most this many documents (its "set"); none attached = all of the owner's indexed files. */
export const MAX_CHAT_FILES = 20;

/** A citation target: [n] in an answer refers to the source with this n (page 1 = the PDF's first page). */
export const sourceSchema = z.object({
  n: z.number().int().positive(),
  fileId: z.string(),
  fileName: z.string(),
  page: z.number().int().positive(),
  /** the cited passage's span in the page's normalised text (absent on answers stored before it was kept) */
  charStart: z.number().int().nonnegative().optional(),
  charEnd: z.number().int().nonnegative().optional(),
  /** the passage's first words, to find it again if the page's text layer differs slightly */
  quote: z.string().max(200).optional(),
});
export type Source = z.infer<typeof sourceSchema>;

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
  created_at: number;
}

export interface ChatListItem {
  session_id: string;
  updated_at: number;
  summary: string;
}

/** GET /api/chat/search: the owner's chats whose title or messages contain the words typed. */
export const CHAT_SEARCH_MAX = 200;
export const chatSearchQuery = z.object({ q: z.string().trim().min(1).max(CHAT_SEARCH_MAX) });

export interface ChatSearchHit extends ChatListItem {
  /** the message text around the first match; null when only the title matched */
  snippet: string | null;
}

export interface ChatSearchResponse {
  chats: ChatSearchHit[];
}

/** "local" = the built-in extractive responder (no model configured). */
export type AnswerMode = "local" | "model";

const token = z.string().max(4096).optional();
const sessionId = z.string().min(1).max(400);
const fileIds = z.array(z.string().min(1).max(100)).max(MAX_CHAT_FILES * 5);

export const clientMessageSchema = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("chat"),
    query: z.string().max(CHAT_QUERY_MAX),
    session_id: sessionId,
    /** adds the uploaded file with this key to the chat's documents (spec) */
    s3_key: z.string().max(500).optional(),
    /** replaces the chat's documents before this question is answered */
    file_ids: fileIds.optional(),
    token,
  }),
  /** replaces the chat's documents (the chips) without asking anything */
  z.object({ action: z.literal("set_files"), session_id: sessionId, file_ids: fileIds, token }),
  z.object({ action: z.literal("get_full_chat"), session_id: sessionId, token }),
  z.object({ action: z.literal("get_chats"), token }),
  /** the owner stops the answer being written: what was written is kept, marked stopped */
  z.object({ action: z.literal("stop"), session_id: sessionId, token }),
  /** the owner asks for the last answer again: it is replaced by a new one to the same question */
  z.object({ action: z.literal("regenerate"), session_id: sessionId, token }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

/**
 * The ping the client sends every 120000 ms. Sent exactly like this (no token) it
 * is answered by the runtime without waking the Durable Object; a ping with
 * other fields is answered by the object itself.
 */
export const PING = JSON.stringify({ type: "ping" });
export const PONG = JSON.stringify({ type: "pong" });

export type ServerMessage =
  | { type: "stream"; session_id: string; message_id: string; text: string }
  | { type: "end"; session_id: string; message: StoredMessage; mode: AnswerMode; files: ChatFile[] }
  | { type: "chat_list"; chats: ChatListItem[] }
  | { type: "chat_list_update"; chats: ChatListItem[] }
  | { type: "full_chat"; session_id: string; messages: StoredMessage[]; mode: AnswerMode; readOnly: boolean; files: ChatFile[] }
  /** the answer `message_id` is being written again (Regenerate): it leaves the chat, a new answer follows */
  | { type: "regenerating"; session_id: string; message_id: string }
  /** follow-up questions for answer `message_id`, sent after its `end` */
  | { type: "suggestions"; session_id: string; message_id: string; suggestions: string[] }
  /** the chat's documents changed, or their indexing progressed */
  | { type: "files"; session_id: string; files: ChatFile[] }
  /** `action` names the client action that was refused, when it was not a question ("set_files") */
  | { type: "error"; code: number; message: string; action?: "set_files" }
  | { type: "pong" };

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
  tooManyMessages: "You are sending messages too quickly. Please wait a minute and try again.",
  fileNotFound: "That file is not in your My Files. Upload it again or pick it from My Files.",
  tooManyFiles: `A chat can search at most ${MAX_CHAT_FILES} documents. Remove one to add another.`,
  anonymousFiles: "Log in to analyze files for free.",
  searchingAll: "Searching all your files",
} as const;

/** The refusal for attaching a document whose indexing failed. */
export function fileFailedMessage(fileName: string, reason: string | null): string {
  return `${fileName} could not be indexed, so it cannot be attached${reason ? `: ${reason}` : "."}`;
}

/** What the chat shows while a question waits for a document: "Indexing p17.pdf… 120/417 pages". */
export function indexingProgressText(file: Pick<ChatFile, "fileName" | "pagesDone" | "pagesTotal">): string {
  return file.pagesTotal ? `Indexing ${file.fileName}… ${file.pagesDone}/${file.pagesTotal} pages` : `Indexing ${file.fileName}…`;
}

/** Statuses of a document that is still on its way to being searchable. */
export const INDEXING_STATUSES: readonly DocumentStatus[] = ["uploading", "pending", "processing"];

export const CHAT_TITLE_MAX = 100;

/** PATCH /api/chat/:session_id { title } (owner only; answered with a StatusMessage) */
export const renameChatSchema = z.object({
  title: z
    .string({ error: CHAT_MESSAGES.titleRequired })
    .transform((t) => t.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, "").trim())
    .pipe(z.string().min(1, CHAT_MESSAGES.titleRequired).max(CHAT_TITLE_MAX, `A chat title has at most ${CHAT_TITLE_MAX} characters.`)),
});
