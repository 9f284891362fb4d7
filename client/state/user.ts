// User info (spec section 3): the signed-in user and their chat list, and the
// session's start and end. Signing out, deleting the account and a forced
// logout (spec section 4) clear the token and every piece of state; the HTTP
// client and the chat socket reach that through setSessionEnd below.
import { proxy } from "valtio";
import type { ChatListItem } from "../../worker/contract/protocol";
import type { StatusMessage } from "../../worker/contract/messages";
import type { User } from "../../worker/contract/validation";
import { api, duringSignOut, setSessionEnd } from "../lib/api";
import { STORAGE_KEYS } from "../lib/constants";
import { resetAppInfo } from "./app";
import { showError } from "./ui";

export interface UserInfo {
  user: User | null;
  chatList: ChatListItem[];
}

export const userInfo = proxy<UserInfo>({ user: null, chatList: [] });

/** After sign-in or sign-up: keep the token and the user for the next visit. */
export function signedIn(user: User, token: string): void {
  localStorage.setItem(STORAGE_KEYS.token, token);
  localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  userInfo.user = user;
  userInfo.chatList = [];
}

export function setChatList(chats: ChatListItem[]): void {
  userInfo.chatList = chats;
}

export function resetUserInfo(): void {
  userInfo.user = null;
  userInfo.chatList = [];
}

/** Logout: clear the token and every piece of state. */
export function resetAll(): void {
  localStorage.removeItem(STORAGE_KEYS.token);
  localStorage.removeItem(STORAGE_KEYS.user);
  localStorage.removeItem(STORAGE_KEYS.currentSessionId);
  resetAppInfo();
  resetUserInfo();
}

/** Sign out: end the session on the server (a failure is only logged), then clear it here. */
export async function signOut(): Promise<void> {
  try {
    // the server closes this session's sockets before it answers: that is this sign-out, not an expiry
    await duringSignOut(() => api<StatusMessage>("POST", "/api/auth/signout"));
  } catch (err) {
    console.error("sign-out call failed; clearing the local session anyway", err);
  }
  resetAll();
}

setSessionEnd({ clear: resetAll, explain: showError });
