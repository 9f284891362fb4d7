// Arrow keys in a menu (the row menus, the avatar menu): ArrowDown/ArrowUp move
// to the next/previous item, wrapping; Home/End to the first/last.
import type { KeyboardEvent } from "react";

const ITEMS = '[role="menuitem"]:not([disabled])';

/** The menu's first item, focused as it opens. */
export function focusFirstItem(menu: HTMLElement | null | undefined): void {
  menu?.querySelector<HTMLElement>(ITEMS)?.focus();
}

/** Moves focus for an arrow, Home or End key; returns whether the key was one of them. */
export function moveMenuFocus(event: KeyboardEvent<HTMLElement>): boolean {
  if (event.key !== "ArrowDown" && event.key !== "ArrowUp" && event.key !== "Home" && event.key !== "End") return false;
  event.preventDefault();
  const enabled = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(ITEMS));
  if (enabled.length === 0) return true;
  const index = enabled.indexOf(document.activeElement as HTMLElement);
  let next = 0;
  if (event.key === "ArrowDown") next = (index + 1) % enabled.length;
  else if (event.key === "ArrowUp") next = (index - 1 + enabled.length) % enabled.length;
  else if (event.key === "End") next = enabled.length - 1;
  enabled[next]?.focus();
  return true;
}
