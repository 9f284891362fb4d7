// A menu opened from a button (the chat's attach and export menus): it opens on
// its first item, closes on a pointer down outside it or on Escape, and Escape
// gives the focus back to its button.
import { useEffect, useRef } from "react";
import { focusFirstItem } from "../components/menuFocus";

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
    const onKey = (event: KeyboardEvent) => {
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
