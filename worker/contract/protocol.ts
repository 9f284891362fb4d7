// The chat websocket protocol (spec section 7, DESIGN.md section 6): one
// zod-checked union per direction, shared by the ChatSession Durable Object and
// the client. Every client message may carry the bearer `token`.
import { z } from "zod";

export const CHAT_QUERY_MAX = 4000;

/** A citation target: [n] in an answer refers to the source with this n (page 1 = the PDF's first page). */
export const sourceSchema = z.object({
  n: z.number().int().positive(),
  fileId: z.string(),
  fileName: z.string(),
  page: z.number().int().positive(),
});
export type Source = z.infer<typeof sourceSchema>;

export interface FileInfo {
  name: string;
  fileId?: string;
}

export interface StoredMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  fileInfo?: FileInfo[];
  sources?: Source[];
  /** "streaming" while the answer is still being written */
  status?: "complete" | "streaming";
  created_at: number;
}

export interface ChatListItem {
  session_id: string;
  updated_at: number;
  summary: string;
}

/** "local" = the built-in extractive responder (no model configured). */
export type AnswerMode = "local" | "model";

const token = z.string().max(4096).optional();
const sessionId = z.string().min(1).max(400);

export const clientMessageSchema = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("chat"),
    query: z.string().max(CHAT_QUERY_MAX),
    session_id: sessionId,
    s3_key: z.string().max(500).optional(),
    token,
  }),
  z.object({ action: z.literal("get_full_chat"), session_id: sessionId, token }),
  z.object({ action: z.literal("get_chats"), token }),
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
  | { type: "end"; session_id: string; message: StoredMessage; mode: AnswerMode }
  | { type: "chat_list"; chats: ChatListItem[] }
  | { type: "chat_list_update"; chats: ChatListItem[] }
  | { type: "full_chat"; session_id: string; messages: StoredMessage[]; mode: AnswerMode; readOnly: boolean }
  | { type: "error"; code: number; message: string }
  | { type: "pong" };

/** Close codes (spec section 9): the client logs out on either. */
export const CLOSE_UNAUTHORIZED = 4001;
export const CLOSE_POLICY = 1008;

export const CHAT_MESSAGES = {
  sendFailed: "Sorry, I couldn't process your request.",
  waiting: "Please wait a moment...",
  readOnly: "This chat was shared with you to read; only its owner can ask questions in it.",
  accessRemoved: "Your access to this chat was removed.",
  notYourSession: "You cannot open this chat.",
  tokenMismatch: "This message was sent with another account's token.",
  emptyQuery: "Please type a question.",
  badMessage: "The message could not be understood.",
  tooManyMessages: "You are sending messages too quickly. Please wait a minute and try again.",
} as const;
