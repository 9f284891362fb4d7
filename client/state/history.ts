// The chat history's own actions: rename and delete a chat of one's own. The
// sidebar list follows at once; deleting the open chat starts a new one.
import { api } from "../lib/api";
import type { StatusMessage } from "../../worker/contract/messages";
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
