// The colour theme on the page: data-theme on <html> says light or dark, and
// the stylesheet's colours follow it (light-dark()). "system" follows the
// device's setting, also when it changes while the page is open. Before this
// runs, the stylesheet already follows the device, so a dark device never
// flashes a light page.
import type { ThemeChoice } from "../state/app";

const darkQuery = () => (typeof window.matchMedia === "function" ? window.matchMedia("(prefers-color-scheme: dark)") : null);

function resolve(choice: ThemeChoice): "light" | "dark" {
  if (choice !== "system") return choice;
  return darkQuery()?.matches ? "dark" : "light";
}

let stopFollowing: (() => void) | null = null;

export function applyTheme(choice: ThemeChoice): void {
  const root = document.documentElement;
  root.dataset.theme = resolve(choice);
  stopFollowing?.();
  stopFollowing = null;
  const query = darkQuery();
  if (choice === "system" && query) {
    const follow = () => (root.dataset.theme = resolve("system"));
    query.addEventListener("change", follow);
    stopFollowing = () => query.removeEventListener("change", follow);
  }
}
