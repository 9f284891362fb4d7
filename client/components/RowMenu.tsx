// A row's action menu (View, Delete). Closes on Escape, on an outside click and
// after choosing; arrow keys move between the items.
import { useEffect, useId, useRef, useState } from "react";
import { Icon } from "./Icon";
import { focusFirstItem, moveMenuFocus } from "./menuFocus";

export interface RowMenuItem {
  label: string;
  onSelect: () => void;
  disabled?: boolean;
  title?: string;
  danger?: boolean;
}

interface RowMenuProps {
  /** The file name, for the button's label "Actions for NAME". */
  name: string;
  items: RowMenuItem[];
}

export function RowMenu({ name, items }: RowMenuProps) {
  const [open, setOpen] = useState(false);
  const wrapRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    focusFirstItem(wrapRef.current);
    const onMouseDown = (event: Event) => {
      if (!wrapRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener("mousedown", onMouseDown);
    document.addEventListener("touchstart", onMouseDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("mousedown", onMouseDown);
      document.removeEventListener("touchstart", onMouseDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open]);

  function onMenuKeyDown(event: React.KeyboardEvent<HTMLDivElement>) {
    // Keys inside the menu never reach the row (Enter/Space there toggle selection).
    event.stopPropagation();
    if (event.key === "Escape") {
      event.preventDefault();
      setOpen(false);
      buttonRef.current?.focus();
      return;
    }
    if (event.key === "Tab") {
      setOpen(false);
      return;
    }
    moveMenuFocus(event);
  }

  return (
    <div className="row-menu" ref={wrapRef} onClick={(e) => e.stopPropagation()}>
      <button
        ref={buttonRef}
        type="button"
        className="icon-btn row-menu-btn"
        aria-label={`Actions for ${name}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => e.stopPropagation()}
      >
        <Icon name="moreVertical" />
      </button>
      {open && (
        <div id={menuId} className="menu row-menu-list" role="menu" aria-label={`Actions for ${name}`} onKeyDown={onMenuKeyDown}>
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              className={item.danger ? "danger" : undefined}
              disabled={item.disabled}
              title={item.title}
              onClick={() => {
                setOpen(false);
                // focus goes back to the menu's button first: a dialog the item opens returns it there on close
                buttonRef.current?.focus();
                item.onSelect();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
