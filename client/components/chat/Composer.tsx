// The chat input (spec sections 2, 5 and 9): "Ask me!", an auto-growing text
// area between 24 and 144 px, Enter sends (Shift+Enter is a new line), the input
// is trimmed, and Send is disabled while there is nothing to send. A refused
// question comes back into the box as a draft to retry. A question at the
// length limit says so (a longer paste is cut by the box).
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { CHAT_MESSAGES, CHAT_QUERY_MAX } from "../../../worker/contract/protocol";
import { Icon } from "../Icon";

export const QUESTION_AT_LIMIT = `A question has at most ${CHAT_QUERY_MAX.toLocaleString("en-US")} characters; a longer one is cut there.`;
export const TEXTAREA_MIN_PX = 24;
export const TEXTAREA_MAX_PX = 144;

export interface ComposerProps {
  /** Called with the trimmed text; return false to keep the text in the box. */
  onSend: (text: string) => boolean | void;
  /** The send button is disabled (an answer is still coming, an upload is running). */
  busy?: boolean;
  readOnly?: boolean;
  /** Shown at the start of the row (the attach menu). */
  leading?: ReactNode;
  /** Text handed back to the box (a refused question to retry); `onDraftTaken` is called once it is in. */
  draft?: string | null;
  onDraftTaken?: () => void;
  /** While an answer is being written: Stop (the button that replaces Send, and Escape). */
  onStop?: () => void;
}

export function Composer({ onSend, busy = false, readOnly = false, leading, draft = null, onDraftTaken, onStop }: ComposerProps) {
  const [value, setValue] = useState("");
  const ref = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (draft === null) return;
    setValue(draft);
    onDraftTaken?.();
    ref.current?.focus();
  }, [draft, onDraftTaken]);
  const trimmed = value.trim();
  const canSend = trimmed.length > 0 && !busy && !readOnly;

  // Grow with the text between the two limits; scroll inside beyond the maximum.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    const height = Math.min(TEXTAREA_MAX_PX, Math.max(TEXTAREA_MIN_PX, el.scrollHeight));
    el.style.height = `${height}px`;
    el.style.overflowY = el.scrollHeight > TEXTAREA_MAX_PX ? "auto" : "hidden";
  }, [value]);

  function submit() {
    if (!canSend) return;
    if (onSend(trimmed) === false) return;
    setValue("");
  }

  return (
    <form
      className={readOnly ? "composer read-only" : "composer"}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="composer-row">
        {leading}
        <textarea
          ref={ref}
          className="composer-input"
          rows={1}
          placeholder="Ask me!"
          aria-label="Message"
          value={value}
          maxLength={CHAT_QUERY_MAX}
          disabled={readOnly}
          onChange={(event) => setValue(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Escape" && busy && onStop) {
              event.preventDefault();
              onStop();
              return;
            }
            if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              submit();
            }
          }}
        />
        {busy && onStop && !readOnly ? (
          <button type="button" className="composer-send composer-stop" aria-label="Stop" onClick={onStop}>
            <span className="stop-square" aria-hidden="true" />
          </button>
        ) : (
          <button type="submit" className="composer-send" aria-label="Send" disabled={!canSend}>
            <Icon name="send" size={18} />
          </button>
        )}
      </div>
      {readOnly && <p className="composer-note">{CHAT_MESSAGES.readOnly}</p>}
      {!readOnly && value.length >= CHAT_QUERY_MAX && (
        <p className="composer-note" role="status">
          {QUESTION_AT_LIMIT}
        </p>
      )}
    </form>
  );
}
