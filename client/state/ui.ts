// Transient UI state that is never persisted: the global error modal.
import { proxy } from "valtio";

export const ui = proxy<{ errorMessage: string | null }>({ errorMessage: null });

export function showError(message: string): void {
  ui.errorMessage = message;
}
