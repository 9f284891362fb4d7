// Chat state (spec sections 3, 4 and 8): the messages of the current session,
// the loading flag, the answer mode, read-only sharing, and the chat's documents
// (the set every question searches, kept by the server and shown as chips). One
// realtime connection serves the current session; it is replaced whenever the
// session id changes.
import { useEffect } from "react";
import { proxy, useSnapshot } from "valtio";
import {
  CHAT_MESSAGES,
  indexingProgressText,
  INDEXING_STATUSES,
  type AnswerMode,
  type ChatFile,
  type FileInfo,
  type ServerMessage,
  type Source,
  type StoredMessage,
} from "../../worker/contract/protocol";
import { getToken } from "../lib/api";
import { RealtimeConnection } from "../lib/realtime";
import { uploadPdf } from "../lib/upload";
import { appInfo, newSessionId, setCurrentSession, startNewChat } from "./app";
import { setChatList, userInfo } from "./user";

export interface ChatItem {
  id: string;
  type: "user" | "bot" | "loading";
  text: string;
  fileInfo?: FileInfo[];
  sources?: Source[];
}

export interface ChatState {
  /** The session these messages belong to. */
  sessionId: string | null;
  messages: ChatItem[];
  loading: boolean;
  mode: AnswerMode | null;
  readOnly: boolean;
  /** The chat's documents as the server last reported them (empty: all the user's files are searched). */
  files: ChatFile[];
  /** Ids attached since the last question: the next question names them. */
  newFileIds: string[];
  /** A refused question's text, handed back to the composer to retry. */
  draft: string | null;
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
    files: [],
    newFileIds: [],
    draft: null,
    uploadError: null,
    uploading: null,
    pendingQuery: null,
  };
}

export const chatState = proxy<ChatState>(defaultChatState());

/** Error codes whose server message explains a refusal (limits, read-only, a file that cannot be attached). */
const REFUSAL_CODES = new Set([400, 403, 404, 409, 429]);

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
 * Sends a question: the user message (naming the files attached since the last
 * question) and a "Please wait a moment..." placeholder are added, then the chat
 * frame goes out; the server searches the chat's documents. Returns false when
 * the question was not taken (empty, an answer still coming, read-only, an
 * upload running); a failed send still counts as taken: it shows the failure text instead.
 */
export function sendQuestion(raw: string): boolean {
  const query = raw.trim();
  const sessionId = chatState.sessionId;
  if (!query || !sessionId || chatState.loading || chatState.readOnly || chatState.uploading) return false;
  const userItem: ChatItem = { id: localId("user"), type: "user", text: query };
  const named = chatState.files.filter((f) => chatState.newFileIds.includes(f.fileId));
  if (named.length) userItem.fileInfo = named.map((f) => ({ name: f.fileName, fileId: f.fileId }));
  chatState.messages.push(userItem, { id: localId("loading"), type: "loading", text: waitingText() });
  chatState.loading = true;
  chatState.pendingQuery = query;
  chatState.newFileIds = [];
  chatState.draft = null;

  const sent = connection ? connection.send({ action: "chat", query, session_id: sessionId }) : false;
  if (!sent) {
    if (!connection) console.error("There is no chat connection; the message was not sent.");
    failPending();
  }
  return true;
}

/**
 * A refused question (a plan limit, a file that cannot be attached) is not part
 * of the chat: it leaves the list, its text goes back to the composer to retry,
 * and the reason shows in the red banner. The server never stored it either.
 */
function refusePending(reason: string): void {
  const lastUser = chatState.messages.findLastIndex((m) => m.type === "user");
  if (lastUser >= 0 && chatState.messages[lastUser]!.id.startsWith("local-")) chatState.messages.splice(lastUser, 1);
  withoutPlaceholders();
  chatState.draft = chatState.pendingQuery;
  chatState.uploadError = reason;
  chatState.loading = false;
  chatState.pendingQuery = null;
}

/** The placeholder's text: which document the question waits for, or the spec's "Please wait a moment...". */
function waitingText(): string {
  const indexing = chatState.files.find((f) => INDEXING_STATUSES.includes(f.status));
  return indexing ? indexingProgressText(indexing) : CHAT_MESSAGES.waiting;
}

function onFiles(files: ChatFile[]): void {
  chatState.files = files.map((f) => ({ ...f }));
  const known = new Set(files.map((f) => f.fileId));
  chatState.newFileIds = chatState.newFileIds.filter((id) => known.has(id));
  for (const item of chatState.messages) if (item.type === "loading") item.text = waitingText();
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

function onEnd(message: StoredMessage, mode: AnswerMode, files: ChatFile[]): void {
  onFiles(files);
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

function onFullChat(messages: StoredMessage[], mode: AnswerMode, readOnly: boolean, files: ChatFile[]): void {
  onFiles(files);
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
      items.push({ id: localId("loading"), type: "loading", text: waitingText() });
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
      if (message.session_id === chatState.sessionId)
        onEnd(message.message, message.mode, Array.isArray(message.files) ? message.files : []);
      break;
    case "chat_list":
    case "chat_list_update":
      if (Array.isArray(message.chats)) setChatList(message.chats);
      break;
    case "full_chat":
      if (message.session_id === chatState.sessionId && Array.isArray(message.messages)) {
        onFullChat(message.messages, message.mode, Boolean(message.readOnly), Array.isArray(message.files) ? message.files : []);
      }
      break;
    case "files":
      if (message.session_id === chatState.sessionId && Array.isArray(message.files)) onFiles(message.files);
      break;
    case "error":
      if (message.action === "set_files") {
        chatState.uploadError = message.message || CHAT_MESSAGES.sendFailed;
      } else if (chatState.pendingQuery !== null || chatState.messages.some((m) => m.type === "loading")) {
        if (REFUSAL_CODES.has(message.code) && message.message) refusePending(message.message);
        else failPending();
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
    // A chat opened with files ("Chat about this file") attaches them first.
    const opening = openingFiles?.sessionId === sessionId ? openingFiles : null;
    if (opening) {
      openingFiles = null;
      conn.send({ action: "set_files", session_id: sessionId, file_ids: opening.fileIds });
    }
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

/** Replaces the chat's documents; the server answers with a `files` frame (or an error for the banner). */
export function setChatFiles(fileIds: readonly string[]): void {
  const sessionId = chatState.sessionId;
  if (!sessionId || chatState.readOnly) return;
  const ids = [...new Set(fileIds)];
  const before = new Set(chatState.files.map((f) => f.fileId));
  chatState.newFileIds = [...new Set([...chatState.newFileIds, ...ids.filter((id) => !before.has(id))])];
  chatState.uploadError = null;
  if (!connection?.send({ action: "set_files", session_id: sessionId, file_ids: ids })) {
    chatState.uploadError = CHAT_MESSAGES.sendFailed;
  }
}

/** Adds documents (an upload, a drive import, a pick from My Files) to the chat's set. */
export function addChatFiles(fileIds: readonly string[]): void {
  setChatFiles([...chatState.files.map((f) => f.fileId), ...fileIds]);
}

export function removeChatFile(fileId: string): void {
  setChatFiles(chatState.files.map((f) => f.fileId).filter((id) => id !== fileId));
}

/** Documents deleted from My Files leave the chips at once (the server drops them from every chat's set too). */
export function forgetDeletedFiles(fileIds: readonly string[]): void {
  const gone = new Set(fileIds);
  chatState.files = chatState.files.filter((f) => !gone.has(f.fileId));
}

/** The files a chat about to open should start with ("Chat about this file"). */
let openingFiles: { sessionId: string; fileIds: string[] } | null = null;

/**
 * Starts a new chat with these documents attached: a fresh session whose
 * connection sends them as its set as soon as it opens. The caller navigates to the chat.
 */
export function startChatWithFiles(files: readonly Pick<ChatFile, "fileId" | "fileName" | "status">[]): void {
  startNewChat(userInfo.user?.email ?? null);
  const sessionId = appInfo.currentSessionId!;
  openingFiles = { sessionId, fileIds: files.map((f) => f.fileId) };
  beginSession(sessionId);
  // Chips show at once; the server's `files` frame replaces them with the checked set.
  chatState.files = files.map((f) => ({
    fileId: f.fileId,
    fileName: f.fileName,
    status: f.status,
    pagesDone: 0,
    pagesTotal: null,
    error: null,
  }));
  chatState.newFileIds = files.map((f) => f.fileId);
}

/** Uploads a PDF and adds it to the chat's documents (a file already in My Files adds that document). */
export async function attachFile(file: File): Promise<void> {
  chatState.uploadError = null;
  try {
    chatState.uploading = { name: file.name, percent: 0 };
    const { fileId } = await uploadPdf(file, (percent) => {
      chatState.uploading = { name: file.name, percent };
    });
    addChatFiles([fileId]);
  } catch (err) {
    console.error("Attaching the file failed", err);
    chatState.uploadError = errorMessage(err);
  } finally {
    chatState.uploading = null;
  }
}

export function dismissUploadError(): void {
  chatState.uploadError = null;
}

/** The composer took the refused question's text back. */
export function clearDraft(): void {
  chatState.draft = null;
}
