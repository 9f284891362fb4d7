// The floating bar shown while at least one file is selected. A space of its
// height ends the page, so the last rows and the pagination can scroll out
// from under it.
import { useLayoutEffect, useRef, useState } from "react";

interface SelectionBarProps {
  count: number;
  onViewAll: () => void;
  /** "Chat about selected": a new chat with the selected files attached (absent when none can be). */
  onChatAll?: () => void;
  onDeleteAll: () => void;
  /** "Move to folder" for the selected files */
  onMoveAll?: () => void;
  onClear: () => void;
  /** No selected file can be deleted yet (none has a content hash). */
  deleteDisabled?: boolean;
}

export function SelectionBar({ count, onViewAll, onChatAll, onDeleteAll, onMoveAll, onClear, deleteDisabled = false }: SelectionBarProps) {
  const bar = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(0);
  useLayoutEffect(() => {
    const element = bar.current;
    if (!element) return;
    const measure = () => setHeight(element.offsetHeight);
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [count > 0]);

  if (count < 1) return null;
  return (
    <>
      <div className="selection-bar-space" style={{ height: `calc(${height}px + 2rem)` }} aria-hidden="true" />
      <div className="selection-bar" role="toolbar" aria-label="Selected files" ref={bar}>
        <span className="selection-count" aria-live="polite">
          {count} selected
        </span>
        <div className="selection-actions">
          <button type="button" className="btn btn-outline" onClick={onViewAll}>
            View all
          </button>
          <button type="button" className="btn btn-outline" onClick={onChatAll} disabled={!onChatAll}>
            Chat about selected
          </button>
          {onMoveAll && (
            <button type="button" className="btn btn-outline" onClick={onMoveAll}>
              Move to folder
            </button>
          )}
          <button type="button" className="btn btn-danger" onClick={onDeleteAll} disabled={deleteDisabled}>
            Delete all
          </button>
          <button type="button" className="btn btn-outline" onClick={onClear}>
            Clear selection
          </button>
        </div>
      </div>
    </>
  );
}
