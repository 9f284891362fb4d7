// Transient UI state that is never persisted: the global error modal.
import { proxy } from "valtio";
import { forceLogout } from "../lib/api";

export const ui = proxy<{ errorMessage: string | null }>({ errorMessage: null });

export function showError(message: string): void {
  ui.errorMessage = message;
}

/** The Error modal's Ok (spec section 2): clears local storage and goes to login. */
export function acknowledgeError(): void {
  ui.errorMessage = null;
  localStorage.clear();
  forceLogout();
}
