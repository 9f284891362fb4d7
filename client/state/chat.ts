// Chat state (spec sections 3, 4 and 8): the messages of the current session,
// the loading flag, the answer mode, read-only sharing, and the attachment for
// the next question. One realtime connection serves the current session; it is
// replaced whenever the session id changes.
import { useEffect } from "react";
import { proxy, useSnapshot } from "valtio";
import {
  CHAT_MESSAGES,
  type AnswerMode,
  type FileInfo,
  type ServerMessage,
  type Source,
  type StoredMessage,
} from "../../worker/contract/protocol";
import { api } from "../lib/api";
import { RealtimeConnection } from "../lib/realtime";
import { uploadPdf } from "../lib/upload";
import { appInfo, newSessionId, setCurrentSession } from "./app";
import { getToken, setChatList, userInfo } from "./user";

export interface ChatItem {
  id: string;
  type: "user" | "bot" | "loading";
  text: string;
  fileInfo?: FileInfo[];
  sources?: Source[];
}

export interface PendingAttachment {
  name: string;
  s3Key: string;
  fileId: string;
}

export interface ChatState {
  /** The session these messages belong to. */
  sessionId: string | null;
  messages: ChatItem[];
  loading: boolean;
  mode: AnswerMode | null;
  readOnly: boolean;
  pendingAttachment: PendingAttachment | null;
  uploadError: string | null;
  /** A file being uploaded for the next question. */
  uploading: { name: string; percent: number } | null;
  /** The question waiting for its answer (null when none). */
  pendingQuery: string | null;
}

export function defaultChatState(): ChatState {
  return {
    sessionId: null,
    messages: [],
    loading: false,
    mode: null,
    readOnly: false,
    pendingAttachment: null,
    uploadError: null,
    uploading: null,
    pendingQuery: null,
  };
}

export const chatState = proxy<ChatState>(defaultChatState());

/** Error codes whose server message explains a refusal (limits, read-only, missing file). */
const REFUSAL_CODES = new Set([403, 404, 429]);

let connection: RealtimeConnection | null = null;
let localIds = 0;
const localId = (kind: string) => `local-${kind}-${Date.now().toString(36)}-${(localIds++).toString(36)}`;

/**
 * Chats shared with a signed-in user that they opened through a shared link
 * (`/app/chat?session=<id>`), per e-mail. Those ids belong to the owner, so they
 * do not start with the user's e-mail; the server decides whether access holds.
 */
const sharedSessions = new Map<string, Set<string>>();

/** Lets `email` open the shared chat `sessionId` (see sessionFitsUser). */
export function allowSharedSession(sessionId: string, email: string): void {
  let ids = sharedSessions.get(email);
  if (!ids) sharedSessions.set(email, (ids = new Set()));
  ids.add(sessionId);
}

/**
 * A shared link was opened: make its chat the current session for the signed-in
 * user. Returns false (and changes nothing) when nobody is signed in.
 */
export function openSharedSession(sessionId: string): boolean {
  const email = userInfo.user?.email;
  if (!email || !sessionId) return false;
  allowSharedSession(sessionId, email);
  setCurrentSession(sessionId);
  return true;
}

/**
 * Signed-in ids start with `${email}-`, anonymous ones with `guest-`. A signed-in
 * user may also hold a chat shared with them: one opened through a shared link,
 * or one the server lists in their chat list. Anything else is closed by the server.
 */
export function sessionFitsUser(sessionId: string | null | undefined, email: string | null | undefined): sessionId is string {
  if (!sessionId) return false;
  if (sessionId.startsWith(`${email || "guest"}-`)) return true;
  if (!email) return false;
  return Boolean(sharedSessions.get(email)?.has(sessionId)) || userInfo.chatList.some((c) => c.session_id === sessionId);
}

/** Switches the messages to a session; a different session starts empty. */
export function beginSession(sessionId: string): void {
  if (chatState.sessionId === sessionId) return;
  Object.assign(chatState, defaultChatState(), { sessionId });
}

export function resetChat(): void {
  Object.assign(chatState, defaultChatState());
}

function toItem(message: StoredMessage): ChatItem {
  const item: ChatItem = { id: message.id, type: message.role === "user" ? "user" : "bot", text: message.content };
  if (message.fileInfo?.length) item.fileInfo = message.fileInfo.map((f) => ({ ...f }));
  if (message.sources?.length) item.sources = message.sources.map((s) => ({ ...s }));
  return item;
}

function withoutPlaceholders(): void {
  chatState.messages = chatState.messages.filter((m) => m.type !== "loading");
}

/** The send failed: say so (or say why, when the server refused it), drop the placeholder, stop loading. */
export function failPending(reason: string = CHAT_MESSAGES.sendFailed): void {
  withoutPlaceholders();
  chatState.messages.push({ id: localId("error"), type: "bot", text: reason });
  chatState.loading = false;
  chatState.pendingQuery = null;
}

/**
 * Sends a question: the user message (with the pending attachment's name) and a
 * "Please wait a moment..." placeholder are added, then the chat frame goes out
 * with the attachment's s3_key. Returns false when the question was not taken
 * (empty, an answer still coming, read-only, an upload running); a failed send
 * still counts as taken: it shows the failure text instead.
 */
export function sendQuestion(raw: string): boolean {
  const query = raw.trim();
  const sessionId = chatState.sessionId;
  if (!query || !sessionId || chatState.loading || chatState.readOnly || chatState.uploading) return false;
  const attachment = chatState.pendingAttachment;
  const userItem: ChatItem = { id: localId("user"), type: "user", text: query };
  if (attachment) userItem.fileInfo = [{ name: attachment.name, fileId: attachment.fileId }];
  chatState.messages.push(userItem, { id: localId("loading"), type: "loading", text: CHAT_MESSAGES.waiting });
  chatState.loading = true;
  chatState.pendingQuery = query;
  chatState.pendingAttachment = null;

  const sent = connection
    ? connection.send({ action: "chat", query, session_id: sessionId, ...(attachment ? { s3_key: attachment.s3Key } : {}) })
    : false;
  if (!sent) {
    if (!connection) console.error("There is no chat connection; the message was not sent.");
    failPending();
  }
  return true;
}

function onStream(messageId: string, text: string): void {
  const messages = chatState.messages;
  let bot = messages.find((m) => m.type === "bot" && m.id === messageId);
  if (!bot) {
    const fresh: ChatItem = { id: messageId, type: "bot", text: "" };
    const placeholder = messages.findIndex((m) => m.type === "loading");
    if (placeholder >= 0) messages.splice(placeholder, 1, fresh);
    else messages.push(fresh);
    withoutPlaceholders();
    bot = chatState.messages.find((m) => m.type === "bot" && m.id === messageId)!;
  }
  bot.text += text;
  chatState.loading = true;
}

function onEnd(message: StoredMessage, mode: AnswerMode): void {
  const final = toItem(message);
  const messages = chatState.messages;
  let index = messages.findIndex((m) => m.type === "bot" && m.id === message.id);
  if (index < 0) index = messages.findIndex((m) => m.type === "loading");
  if (index >= 0) messages.splice(index, 1, final);
  else if (!messages.some((m) => m.id === message.id)) messages.push(final);
  withoutPlaceholders();
  chatState.loading = false;
  chatState.pendingQuery = null;
  chatState.mode = mode;
}

function onFullChat(messages: StoredMessage[], mode: AnswerMode, readOnly: boolean): void {
  const items = messages.map(toItem);
  const last = messages.at(-1);
  const streaming = last?.role === "assistant" && last.status === "streaming";
  let loading = streaming;
  const pending = chatState.pendingQuery;

  if (pending !== null && !streaming) {
    const lastUser = [...messages].reverse().find((m) => m.role === "user");
    if (lastUser?.content !== pending) {
      // The server has not seen the question yet (it was queued behind this request): keep it.
      const tail = chatState.messages.slice(chatState.messages.findLastIndex((m) => m.type === "user"));
      items.push(...tail.map((m) => ({ ...m })));
      loading = true;
    } else if (last === lastUser) {
      items.push({ id: localId("loading"), type: "loading", text: CHAT_MESSAGES.waiting });
      loading = true;
    }
  }

  chatState.messages = items;
  chatState.mode = mode;
  chatState.readOnly = readOnly;
  chatState.loading = loading;
  if (!loading) chatState.pendingQuery = null;
}

/** Applies one server frame (the 401 logout is handled by the connection). */
export function handleServerMessage(message: ServerMessage): void {
  switch (message.type) {
    case "stream":
      if (message.session_id === chatState.sessionId) onStream(message.message_id, message.text);
      break;
    case "end":
      if (message.session_id === chatState.sessionId) onEnd(message.message, message.mode);
      break;
    case "chat_list":
    case "chat_list_update":
      if (Array.isArray(message.chats)) setChatList(message.chats);
      break;
    case "full_chat":
      if (message.session_id === chatState.sessionId && Array.isArray(message.messages)) {
        onFullChat(message.messages, message.mode, Boolean(message.readOnly));
      }
      break;
    case "error":
      if (chatState.pendingQuery !== null || chatState.messages.some((m) => m.type === "loading")) {
        // a refusal the user can act on (plan limit, read-only chat, missing file) is shown as sent
        failPending(REFUSAL_CODES.has(message.code) && message.message ? message.message : CHAT_MESSAGES.sendFailed);
      }
      break;
    case "pong":
      break;
  }
}

/** Opens the connection for a session; returns the cleanup (safe to call twice, as StrictMode does). */
export function connectChat(sessionId: string): () => void {
  beginSession(sessionId);
  const conn = new RealtimeConnection();
  const offMessage = conn.onMessage(handleServerMessage);
  const offOpen = conn.onOpen(() => {
    conn.send({ action: "get_full_chat", session_id: sessionId });
    if (userInfo.user && getToken()) conn.send({ action: "get_chats" });
  });
  connection = conn;
  conn.connect(sessionId);
  return () => {
    offMessage();
    offOpen();
    conn.close();
    if (connection === conn) connection = null;
  };
}

/**
 * Keeps one connection for the current session. A session id that does not fit
 * the current user (after sign-in, sign-out or a user change) is replaced by a
 * fresh one first, which also clears the messages.
 */
export function useChatConnection(): void {
  const { currentSessionId } = useSnapshot(appInfo);
  const { user } = useSnapshot(userInfo);
  const email = user?.email ?? null;
  useEffect(() => {
    // A newer id that fits is already set (a shared link opened by the page, whose
    // effect ran first): the re-render it causes connects to it; do not replace it.
    const live = appInfo.currentSessionId;
    if (live !== currentSessionId && sessionFitsUser(live, email)) return;
    if (!sessionFitsUser(currentSessionId, email)) {
      setCurrentSession(newSessionId(email));
      return;
    }
    return connectChat(currentSessionId);
  }, [currentSessionId, email]);
}

function errorMessage(err: unknown): string {
  return err instanceof Error && err.message ? err.message : "Something went wrong. Please try again.";
}

/** Uploads a PDF for the next question and keeps {name, s3Key, fileId} as the pending attachment. */
export async function attachFile(file: File): Promise<void> {
  chatState.uploadError = null;
  try {
    chatState.uploading = { name: file.name, percent: 0 };
    const { s3Key, fileId } = await uploadPdf(file, (percent) => {
      chatState.uploading = { name: file.name, percent };
    });
    chatState.pendingAttachment = { name: file.name, s3Key, fileId };
  } catch (err) {
    console.error("Attaching the file failed", err);
    chatState.uploadError = errorMessage(err);
  } finally {
    chatState.uploading = null;
  }
}

export function removeAttachment(): void {
  chatState.pendingAttachment = null;
}

export function dismissUploadError(): void {
  chatState.uploadError = null;
}
