// Chat state (spec sections 3, 4 and 8): the messages of the current session,
// the loading flag, the answer mode, read-only sharing, and the chat's documents
// (the set every question searches, kept by the server and shown as chips).
// What changes it lives beside it: chatMessages.ts (questions out, answers in),
// chatDocuments.ts (the chat's documents) and chatConnection.ts (the one
// realtime connection of the current session, replaced whenever the session id changes).
import { proxy } from "valtio";
import {
  CHAT_MESSAGES,
  indexingProgressText,
  INDEXING_STATUSES,
  type AnswerMode,
  type ChatFile,
  type ChatFolder,
  type FileInfo,
  type Source,
} from "../../worker/contract/protocol";
import type { SentenceCheck, Verified } from "../../worker/contract/checks";
import type { RealtimeConnection } from "../lib/realtime";

export interface ChatItem {
  id: string;
  type: "user" | "bot" | "loading";
  text: string;
  fileInfo?: FileInfo[];
  sources?: Source[];
  /** an answer cut off by a restart: shown as written, with a retry */
  interrupted?: boolean;
  /** an answer the user stopped: shown as written */
  stopped?: boolean;
  /** follow-up questions offered under the chat's last answer */
  suggestions?: string[];
  /** the answer's sentences checked against the pages they cite (none on older stored answers) */
  checks?: SentenceCheck[];
  verified?: Verified;
  /** an answer that finished while the chat was open: its check line is announced (a reloaded chat's are not) */
  announceCheck?: boolean;
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
  /** The folder the chat follows (its documents are the folder's), or null. */
  folder: ChatFolder | null;
  /** Ids attached since the last question: the next question names them. */
  newFileIds: string[];
  /** A refused question's text, handed back to the composer to retry. */
  draft: string | null;
  uploadError: string | null;
  /** Files being uploaded for the next question, each with its progress. */
  uploads: { id: string; name: string; percent: number }[];
  /** The question waiting for its answer (null when none). */
  pendingQuery: string | null;
  /** Why this chat cannot be opened (access removed, never shared, deleted); null when it can. */
  noAccess: string | null;
  /** The connection was lost and is being opened again. */
  reconnecting: boolean;
}

export function defaultChatState(): ChatState {
  return {
    sessionId: null,
    messages: [],
    loading: false,
    mode: null,
    readOnly: false,
    files: [],
    folder: null,
    newFileIds: [],
    draft: null,
    uploadError: null,
    uploads: [],
    pendingQuery: null,
    noAccess: null,
    reconnecting: false,
  };
}

export const chatState = proxy<ChatState>(defaultChatState());

let connection: RealtimeConnection | null = null;

/** The current session's connection, or null while there is none. */
export function chatConnection(): RealtimeConnection | null {
  return connection;
}

/** Set by chatConnection.ts when a session's connection opens (and cleared when it closes). */
export function setChatConnection(next: RealtimeConnection | null): void {
  connection = next;
}

let localIds = 0;
/** An id for a message that exists only here until the server's copy replaces it. */
export const localId = (kind: string) => `local-${kind}-${Date.now().toString(36)}-${(localIds++).toString(36)}`;

/** Switches the messages to a session; a different session starts empty. */
export function beginSession(sessionId: string): void {
  if (chatState.sessionId === sessionId) return;
  Object.assign(chatState, defaultChatState(), { sessionId });
}

export function resetChat(): void {
  Object.assign(chatState, defaultChatState());
}

/** The placeholder's text: which document the question waits for, or the spec's "Please wait a moment...". */
export function waitingText(): string {
  const indexing = chatState.files.find((f) => INDEXING_STATUSES.includes(f.status));
  return indexing ? indexingProgressText(indexing) : CHAT_MESSAGES.waiting;
}

export function dismissUploadError(): void {
  chatState.uploadError = null;
}

/** The composer took the refused question's text back. */
export function clearDraft(): void {
  chatState.draft = null;
}
