// The chat history's own actions: search it (titles and message text of one's
// own chats, asked of the server as one types), rename and delete a chat of
// one's own. The sidebar list follows at once; deleting the open chat starts a new one.
import { proxy } from "valtio";
import { api } from "../lib/api";
import type { StatusMessage } from "../../worker/contract/messages";
import { CHAT_SEARCH_MAX, type ChatSearchHit, type ChatSearchResponse } from "../../worker/contract/protocol";
import { appInfo, startNewChat } from "./app";
import { userInfo } from "./user";

const chatPath = (sessionId: string) => `/api/chat/${encodeURIComponent(sessionId)}`;

/** A signed-in user's own chats are named after their e-mail; shared ones are not theirs to rename or delete. */
export function ownsChat(sessionId: string, email: string | null | undefined): boolean {
  return Boolean(email) && sessionId.startsWith(`${email}-`);
}

/** Throws ApiRequestError with the server's message (a title that is empty or too long). */
export async function renameChat(sessionId: string, title: string): Promise<void> {
  await api<StatusMessage>("PATCH", chatPath(sessionId), { title });
  const item = userInfo.chatList.find((c) => c.session_id === sessionId);
  if (item) item.summary = title.trim();
}

export async function deleteChat(sessionId: string): Promise<void> {
  await api<StatusMessage>("DELETE", chatPath(sessionId));
  userInfo.chatList = userInfo.chatList.filter((c) => c.session_id !== sessionId);
  if (appInfo.currentSessionId === sessionId) startNewChat(userInfo.user?.email);
}

/** The history search: what is typed, and the chats found for it (null = not searching). */
export const historySearch = proxy<{ query: string; results: ChatSearchHit[] | null; error: string | null }>({
  query: "",
  results: null,
  error: null,
});

export const HISTORY_SEARCH_DELAY_MS = 200;
export const HISTORY_SEARCH_FAILED = "The search failed. Please try again.";
let pending: ReturnType<typeof setTimeout> | undefined;
let latest = 0;

/** Searches once typing pauses; only the answer to the latest text is shown. */
export function searchHistory(query: string): void {
  historySearch.query = query;
  clearTimeout(pending);
  const q = query.trim().slice(0, CHAT_SEARCH_MAX);
  const ticket = ++latest;
  if (!q) {
    historySearch.results = null;
    historySearch.error = null;
    return;
  }
  pending = setTimeout(async () => {
    try {
      const found = await api<ChatSearchResponse>("GET", `/api/chat/search?q=${encodeURIComponent(q)}`);
      if (ticket !== latest) return;
      historySearch.results = Array.isArray(found?.chats) ? found.chats : [];
      historySearch.error = null;
    } catch (err) {
      if (ticket !== latest) return;
      console.error("Searching the chat history failed", err);
      historySearch.error = HISTORY_SEARCH_FAILED;
    }
  }, HISTORY_SEARCH_DELAY_MS);
}
