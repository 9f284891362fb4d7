// App info (spec section 3): sidebar, new-chat flag, settings dialog, session id.
import { proxy } from "valtio";
import { NEW_CHAT_FLAG_MS, STORAGE_KEYS } from "../lib/constants";

export type SettingsTab = "profile" | "security" | "subscription" | "appearance" | "referral";

/** Light, dark, or whatever the device prefers. */
export type ThemeChoice = "light" | "dark" | "system";
export const THEME_CHOICES: readonly ThemeChoice[] = ["light", "dark", "system"];

export interface AppInfo {
  isSidebarOpen: boolean;
  isNewChat: boolean;
  isOpenSettingsModal: boolean;
  currentTab: SettingsTab;
  currentSessionId: string | null;
  theme: ThemeChoice;
}

/** A chat session id: the user's e-mail, a hyphen, a unique id (spec section 3). */
export function newSessionId(email?: string | null): string {
  return `${email || "guest"}-${crypto.randomUUID()}`;
}

export function defaultAppInfo(): AppInfo {
  return {
    isSidebarOpen: false,
    isNewChat: false,
    isOpenSettingsModal: false,
    currentTab: "profile",
    currentSessionId: newSessionId(),
    theme: "system",
  };
}

export const appInfo = proxy<AppInfo>(defaultAppInfo());

export function setTheme(theme: ThemeChoice): void {
  appInfo.theme = theme;
}

export function toggleSidebar(open = !appInfo.isSidebarOpen): void {
  appInfo.isSidebarOpen = open;
}

/** On a phone the sidebar slides in over the page: a choice made in it closes it, so the chosen page shows. */
export function closeSidebarOnPhone(): void {
  if (window.matchMedia("(max-width: 767px)").matches) toggleSidebar(false);
}

/** An app address with ?settings=<tab> opens Settings on that tab (a checkout cancelled in Settings comes back so). */
export const SETTINGS_PARAM = "settings";

export function openSettings(tab: SettingsTab = "profile"): void {
  appInfo.currentTab = tab;
  appInfo.isOpenSettingsModal = true;
}

export function closeSettings(): void {
  appInfo.isOpenSettingsModal = false;
  appInfo.currentTab = "profile";
}

export function setSettingsTab(tab: SettingsTab): void {
  appInfo.currentTab = tab;
}

export function setCurrentSession(sessionId: string): void {
  appInfo.currentSessionId = sessionId;
  localStorage.setItem(STORAGE_KEYS.currentSessionId, sessionId);
}

let newChatTimer: ReturnType<typeof setTimeout> | undefined;

/** New Chat: a fresh session id and a new-chat flag that clears itself after 5 s. */
export function startNewChat(email?: string | null): void {
  setCurrentSession(newSessionId(email));
  appInfo.isNewChat = true;
  clearTimeout(newChatTimer);
  newChatTimer = setTimeout(() => {
    appInfo.isNewChat = false;
  }, NEW_CHAT_FLAG_MS);
}

/** Reset (logout): defaults with no session id (spec section 4); the theme is the device's look and stays. */
export function resetAppInfo(): void {
  clearTimeout(newChatTimer);
  Object.assign(appInfo, defaultAppInfo(), { currentSessionId: null, theme: appInfo.theme });
}
