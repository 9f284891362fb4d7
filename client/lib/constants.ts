// Timings, sizes and keys from spec section 9, in one place.
export const APP_VERSION = "v1.13.0";
export const NEW_CHAT_FLAG_MS = 5000;
export const COPIED_INDICATOR_MS = 5000;
export const PERSIST_RESTORE_TIMEOUT_MS = 5000;
export const MAX_HISTORY_CHATS = 10;
export const STORAGE_KEYS = {
  root: "root",
  token: "token",
  user: "user",
  authInfo: "authInfo",
  currentSessionId: "currentSessionId",
  /** documents whose text recognition already started by itself once (state/ocr.ts) */
  ocrAutoStarted: "ocrAutoStarted",
  /** documents whose text recognition was under way here, so a reload continues it */
  ocrInProgress: "ocrInProgress",
} as const;
