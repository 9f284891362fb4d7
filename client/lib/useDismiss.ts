// A menu that closes on a pointer down outside it or on Escape (the chat's attach and export menus);
// Escape gives the focus back to the button that opened it.
import { useEffect, useRef, type RefObject } from "react";

export function useDismiss(
  open: boolean,
  inside: RefObject<HTMLElement | null>,
  close: () => void,
  opener?: RefObject<HTMLElement | null>,
): void {
  const latestClose = useRef(close);
  latestClose.current = close;
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: MouseEvent) => {
      if (!inside.current?.contains(event.target as Node)) latestClose.current();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      latestClose.current();
      opener?.current?.focus();
    };
    document.addEventListener("mousedown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open, inside, opener]);
}
