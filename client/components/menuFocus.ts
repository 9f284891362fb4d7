// Arrow keys in a menu (the row menus, the avatar menu): ArrowDown/ArrowUp move
// to the next/previous item, wrapping; Home/End to the first/last. A menu opened
// from a button (the chat's attach and export menus, usePopupMenu) opens on its
// first item, closes on a pointer down outside it or on Escape, and Escape gives
// the focus back to its button.
import { useEffect, useRef, type KeyboardEvent } from "react";

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

export function usePopupMenu(open: boolean, close: () => void) {
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const latestClose = useRef(close);
  latestClose.current = close;
  useEffect(() => {
    if (!open) return;
    focusFirstItem(menuRef.current);
    const onPointer = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) latestClose.current();
    };
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== "Escape") return;
      latestClose.current();
      buttonRef.current?.focus();
    };
    document.addEventListener("mousedown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  return { rootRef, buttonRef, menuRef };
}
