// An accessible dialog: labelled, focus kept inside, Escape and the backdrop close
// it, and focus goes back to what opened it. Escape is heard on the document, so
// it still closes the dialog when its own action left the focus nowhere (a button
// that disabled itself); with dialogs stacked, only the top one closes.
// Rendered into document.body, so a dialog opened from inside a form (the
// composer's attach menu) is not part of that form: Enter in its fields never
// sends the chat message.
import { useEffect, useId, useRef, type ReactNode } from "react";
import { createPortal } from "react-dom";

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  /** a visible Close button in the corner */
  closeButton?: boolean;
}

/** Open dialogs, innermost last. */
const openDialogs: symbol[] = [];

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

export function Modal({ title, onClose, children, className = "", closeButton = false }: ModalProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const self = Symbol(title);
    openDialogs.push(self);
    const previous = document.activeElement as HTMLElement | null;
    const first = dialogRef.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? dialogRef.current)?.focus();
    const onDocumentKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || openDialogs.at(-1) !== self) return;
      event.stopPropagation();
      close.current();
    };
    document.addEventListener("keydown", onDocumentKey);
    return () => {
      document.removeEventListener("keydown", onDocumentKey);
      openDialogs.splice(openDialogs.indexOf(self), 1);
      previous?.focus?.();
    };
  }, [title]);

  function onKeyDown(event: React.KeyboardEvent) {
    if (event.key !== "Tab" || !dialogRef.current) return;
    const items = Array.from(dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return createPortal(
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={dialogRef}
        className={`modal ${className}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="modal-title">
          {title}
        </h2>
        {children}
        {closeButton && (
          <button type="button" className="modal-close" aria-label="Close" onClick={onClose}>
            ×
          </button>
        )}
      </div>
    </div>,
    document.body,
  );
}
