// Logout and forced logout: clear the token and every piece of state (spec section 4).
import { STORAGE_KEYS } from "../lib/constants";
import { resetAppInfo } from "./app";
import { resetUserInfo } from "./user";

export function resetAll(): void {
  localStorage.removeItem(STORAGE_KEYS.token);
  localStorage.removeItem(STORAGE_KEYS.user);
  localStorage.removeItem(STORAGE_KEYS.currentSessionId);
  resetAppInfo();
  resetUserInfo();
}
