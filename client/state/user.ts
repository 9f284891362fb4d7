// User info (spec section 3): the signed-in user and their chat list.
import { proxy } from "valtio";
import { STORAGE_KEYS } from "../lib/constants";

export interface User {
  id: string;
  email: string;
  name: string;
  phone: string;
  picture: string | null;
}

export interface ChatListItem {
  session_id: string;
  updated_at: number | string;
  summary: string;
}

export interface UserInfo {
  user: User | null;
  chatList: ChatListItem[];
}

export const userInfo = proxy<UserInfo>({ user: null, chatList: [] });

export function getToken(): string | null {
  return localStorage.getItem(STORAGE_KEYS.token);
}

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
