// The messages of a chat (spec sections 4, 7 and 8): a question goes out with a
// placeholder; the server's frames stream the answer in, end it, replace the
// whole chat, update the chat list, or refuse the question.
import { CHAT_MESSAGES, type AnswerMode, type ChatFile, type ServerMessage, type StoredMessage } from "../../worker/contract/protocol";
import { chatConnection, chatState, localId, waitingText, type ChatItem } from "./chat";
import { showChatFiles } from "./chatDocuments";
import { setChatList } from "./user";
import { fileProgressArrived } from "./fileProgress";

/** Error codes whose server message explains a refusal (limits, read-only, a file that cannot be attached). */
const REFUSAL_CODES = new Set([400, 403, 404, 409, 429]);

function toItem(message: StoredMessage): ChatItem {
  const item: ChatItem = { id: message.id, type: message.role === "user" ? "user" : "bot", text: message.content };
  if (message.fileInfo?.length) item.fileInfo = message.fileInfo.map((f) => ({ ...f }));
  if (message.sources?.length) item.sources = message.sources.map((s) => ({ ...s }));
  if (message.status === "interrupted") item.interrupted = true;
  if (message.status === "stopped") item.stopped = true;
  if (message.suggestions?.length) item.suggestions = [...message.suggestions];
  if (Array.isArray(message.checks) && message.checks.length)
    item.checks = message.checks.map((c) => ({ ...c, missing: Array.isArray(c.missing) ? [...c.missing] : [] }));
  if (message.verified) item.verified = { ...message.verified };
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
/** Stops the answer being written (the server keeps what was written). */
export function stopAnswer(): void {
  const sessionId = chatState.sessionId;
  if (!sessionId || !chatState.loading || chatState.readOnly) return;
  chatConnection()?.send({ action: "stop", session_id: sessionId });
}

/** Asks again the question an interrupted answer belonged to. */
export function retryInterrupted(answerId: string): boolean {
  const at = chatState.messages.findIndex((m) => m.id === answerId);
  const question = chatState.messages
    .slice(0, at)
    .reverse()
    .find((m) => m.type === "user");
  return question ? sendQuestion(question.text) : false;
}

/** The answer being regenerated, kept until the server takes the request (a refusal puts it back). */
let replacedAnswer: { item: ChatItem; at: number } | null = null;

/** The id of the last answer when Regenerate may replace it: it ends the chat, follows its question, and nothing is being written. */
export function regenerableId(state: {
  messages: readonly Pick<ChatItem, "id" | "type">[];
  loading: boolean;
  readOnly: boolean;
}): string | null {
  const last = state.messages.at(-1);
  const before = state.messages.at(-2);
  if (state.loading || state.readOnly || last?.type !== "bot" || before?.type !== "user" || last.id.startsWith("local-")) return null;
  return last.id;
}

/** Asks for the last answer again: it is replaced by the placeholder, then by the new answer. */
export function regenerateAnswer(): boolean {
  const sessionId = chatState.sessionId;
  if (!sessionId || !regenerableId(chatState)) return false;
  const at = chatState.messages.length - 1;
  replacedAnswer = { item: { ...chatState.messages[at]! }, at };
  chatState.messages.splice(at, 1, { id: localId("loading"), type: "loading", text: waitingText() });
  chatState.loading = true;
  chatState.pendingQuery = chatState.messages[at - 1]!.text;
  const sent = chatConnection()?.send({ action: "regenerate", session_id: sessionId }) ?? false;
  if (!sent) refuseRegenerate(CHAT_MESSAGES.sendFailed);
  return true;
}

/** A refused regeneration leaves the chat as it was, with the reason in the banner. */
function refuseRegenerate(reason: string): void {
  withoutPlaceholders();
  if (replacedAnswer) chatState.messages.splice(replacedAnswer.at, 0, replacedAnswer.item);
  replacedAnswer = null;
  chatState.uploadError = reason;
  chatState.loading = false;
  chatState.pendingQuery = null;
}

/** The server is writing answer `messageId` again: it leaves the list, the placeholder stands in for it. */
function onRegenerating(messageId: string): void {
  replacedAnswer = null;
  const at = chatState.messages.findIndex((m) => m.id === messageId);
  if (at >= 0) chatState.messages.splice(at, 1);
  if (!chatState.messages.some((m) => m.type === "loading"))
    chatState.messages.push({ id: localId("loading"), type: "loading", text: waitingText() });
  chatState.loading = true;
}

export function sendQuestion(raw: string): boolean {
  const query = raw.trim();
  const sessionId = chatState.sessionId;
  if (!query || !sessionId || chatState.loading || chatState.readOnly || chatState.uploads.length) return false;
  const userItem: ChatItem = { id: localId("user"), type: "user", text: query };
  const named = chatState.files.filter((f) => chatState.newFileIds.includes(f.fileId));
  if (named.length) userItem.fileInfo = named.map((f) => ({ name: f.fileName, fileId: f.fileId }));
  chatState.messages.push(userItem, { id: localId("loading"), type: "loading", text: waitingText() });
  chatState.loading = true;
  chatState.pendingQuery = query;
  chatState.newFileIds = [];
  chatState.draft = null;

  const connection = chatConnection();
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

/** This tab's question that the server has not taken up yet (sent, no `question` frame back), or -1. */
const waitingQuestion = () =>
  chatState.pendingQuery === null ? -1 : chatState.messages.findLastIndex((m) => m.type === "user" && m.id.startsWith("local-"));

/**
 * A question the chat is about to answer. This tab's own (the one waiting) takes its stored id;
 * another tab's is shown with a placeholder for its answer, before this tab's own question while
 * that one waits its turn.
 */
function onQuestion(message: StoredMessage): void {
  const messages = chatState.messages;
  if (messages.some((m) => m.id === message.id)) return;
  const waiting = waitingQuestion();
  if (waiting >= 0 && messages[waiting]!.text === message.content) {
    messages[waiting]!.id = message.id;
    return;
  }
  const item = toItem(message);
  const placeholder: ChatItem = { id: localId("loading"), type: "loading", text: waitingText() };
  if (waiting >= 0) messages.splice(waiting, 0, item, placeholder);
  else {
    withoutPlaceholders();
    chatState.messages.push(item, placeholder);
  }
  chatState.loading = true;
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
  showChatFiles(files);
  const final = toItem(message);
  if (final.checks) final.announceCheck = true;
  const messages = chatState.messages;
  let index = messages.findIndex((m) => m.type === "bot" && m.id === message.id);
  if (index < 0) index = messages.findIndex((m) => m.type === "loading");
  if (index >= 0) messages.splice(index, 1, final);
  else if (!messages.some((m) => m.id === message.id)) messages.push(final);
  withoutPlaceholders();
  chatState.mode = mode;
  // another tab's answer ended while this tab's question still waits its turn: it goes on waiting
  if (waitingQuestion() === chatState.messages.length - 1) {
    chatState.messages.push({ id: localId("loading"), type: "loading", text: waitingText() });
    return;
  }
  chatState.loading = false;
  chatState.pendingQuery = null;
}

function onFullChat(messages: StoredMessage[], mode: AnswerMode, readOnly: boolean, files: ChatFile[]): void {
  replacedAnswer = null; // the server's list is the truth from here
  showChatFiles(files);
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
    case "question":
      if (message.session_id === chatState.sessionId) onQuestion(message.message);
      break;
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
        chatState.folder = message.folder ?? null;
      }
      break;
    case "files":
      if (message.session_id === chatState.sessionId && Array.isArray(message.files)) showChatFiles(message.files, message.folder);
      break;
    case "suggestions":
      if (message.session_id === chatState.sessionId && Array.isArray(message.suggestions)) {
        const answer = chatState.messages.find((m) => m.id === message.message_id);
        if (answer) answer.suggestions = message.suggestions.filter((s) => typeof s === "string").slice(0, 3);
      }
      break;
    case "regenerating":
      if (message.session_id === chatState.sessionId) onRegenerating(message.message_id);
      break;
    case "error":
      if (message.action === "set_files") {
        chatState.uploadError = message.message || CHAT_MESSAGES.sendFailed;
      } else if (replacedAnswer) {
        refuseRegenerate(REFUSAL_CODES.has(message.code) && message.message ? message.message : CHAT_MESSAGES.sendFailed);
      } else if (chatState.pendingQuery !== null || chatState.messages.some((m) => m.type === "loading")) {
        if (REFUSAL_CODES.has(message.code) && message.message) refusePending(message.message);
        else failPending();
      }
      break;
    case "file_progress":
      if (Array.isArray(message.files)) fileProgressArrived(message.files);
      break;
    case "pong":
      break;
  }
}
