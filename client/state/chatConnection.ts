// The realtime connection of the current chat session (spec sections 4, 7 and
// 9), and which session ids the signed-in user may open. One connection serves
// the current session; it is replaced whenever the session id changes.
import { useEffect } from "react";
import { useSnapshot } from "valtio";
import { getToken } from "../lib/api";
import { CHAT_MESSAGES } from "../../worker/contract/protocol";
import { RealtimeConnection } from "../lib/realtime";
import { appInfo, newSessionId, setCurrentSession } from "./app";
import { beginSession, chatConnection, chatState, setChatConnection } from "./chat";
import { takeOpeningFiles, takeOpeningFolder } from "./chatDocuments";
import { rewatchFiles } from "./fileProgress";
import { handleServerMessage } from "./chatMessages";
import { userInfo } from "./user";

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

/** Opens the connection for a session; returns the cleanup (safe to call twice, as StrictMode does). */
export function connectChat(sessionId: string): () => void {
  beginSession(sessionId);
  let refused = false;
  const conn = new RealtimeConnection({
    onNoAccess: (reason) => {
      chatState.noAccess = reason || CHAT_MESSAGES.notYourSession;
      refused = true;
    },
    onLost: (lost) => {
      if (chatState.sessionId === sessionId) chatState.reconnecting = lost;
    },
  });
  const offMessage = conn.onMessage(handleServerMessage);
  const offOpen = conn.onOpen(() => {
    // A chat opened with files ("Chat about this file") attaches them first.
    const opening = takeOpeningFiles(sessionId);
    if (opening) conn.send({ action: "set_files", session_id: sessionId, file_ids: opening });
    const folderId = takeOpeningFolder(sessionId);
    if (folderId) conn.send({ action: "set_folder", session_id: sessionId, folder_id: folderId });
    conn.send({ action: "get_full_chat", session_id: sessionId });
    if (userInfo.user && getToken()) {
      conn.send({ action: "get_chats" });
      rewatchFiles(conn); // My Files open: its files' progress is pushed on this connection
    }
  });
  setChatConnection(conn);
  conn.connect(sessionId);
  return () => {
    // a chat this user can no longer open (its share removed, or it was deleted) leaves the history this
    // browser kept once they leave it (a reload on it still says why)
    if (refused) userInfo.chatList = userInfo.chatList.filter((c) => c.session_id !== sessionId);
    offMessage();
    offOpen();
    conn.close();
    if (chatConnection() === conn) setChatConnection(null);
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
