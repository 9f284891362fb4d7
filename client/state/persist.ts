// The whole state is saved under localStorage `root` and restored on load. A
// restore that has not finished within 5 s gives up and starts from defaults.
import { subscribe } from "valtio";
import { getToken } from "../lib/api";
import { PERSIST_RESTORE_TIMEOUT_MS, STORAGE_KEYS } from "../lib/constants";
import { appInfo, THEME_CHOICES, type AppInfo, type ThemeChoice } from "./app";
import { userInfo, type UserInfo } from "./user";

interface Persisted {
  appInfo?: Partial<AppInfo>;
  userInfo?: Partial<UserInfo>;
}

function readPersisted(): Persisted {
  try {
    const raw = localStorage.getItem(STORAGE_KEYS.root);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === "object" ? (parsed as Persisted) : {};
  } catch {
    return {}; // a damaged entry must never stop the app from starting
  }
}

function apply(saved: Persisted): void {
  const app = saved.appInfo ?? {};
  // A phone never starts with the slide-in sidebar covering the page.
  const smallScreen = typeof window.matchMedia === "function" && window.matchMedia("(max-width: 767px)").matches;
  if (typeof app.isSidebarOpen === "boolean" && !smallScreen) appInfo.isSidebarOpen = app.isSidebarOpen;
  if (typeof app.currentTab === "string") appInfo.currentTab = app.currentTab;
  if (THEME_CHOICES.includes(app.theme as ThemeChoice)) appInfo.theme = app.theme as ThemeChoice;
  const sessionId = localStorage.getItem(STORAGE_KEYS.currentSessionId) ?? app.currentSessionId;
  if (typeof sessionId === "string" && sessionId) appInfo.currentSessionId = sessionId;

  // The signed-in user only counts with a token beside it.
  const user = saved.userInfo?.user;
  if (user && typeof user.email === "string" && getToken()) {
    userInfo.user = user;
    userInfo.chatList = Array.isArray(saved.userInfo?.chatList) ? saved.userInfo.chatList : [];
  }
}

function save(): void {
  const snapshot: Persisted = {
    appInfo: { ...appInfo, isOpenSettingsModal: false, isNewChat: false },
    userInfo: { user: userInfo.user, chatList: userInfo.chatList },
  };
  try {
    localStorage.setItem(STORAGE_KEYS.root, JSON.stringify(snapshot));
  } catch {
    // storage full or disabled: the app still works for this visit
  }
}

/** Restores the saved state (or times out after 5 s), then keeps it saved. */
export function restoreState(): Promise<void> {
  const restore = new Promise<void>((resolve) => {
    apply(readPersisted());
    resolve();
  });
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, PERSIST_RESTORE_TIMEOUT_MS));
  return Promise.race([restore, timeout]).then(() => {
    subscribe(appInfo, save);
    subscribe(userInfo, save);
    save();
  });
}
