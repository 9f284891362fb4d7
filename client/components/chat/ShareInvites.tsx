// The addresses to share with: typed one at a time (checked on Enter; a
// duplicate or invalid address is not added) into a list of checkboxes.
import { useState, type KeyboardEvent } from "react";
import { Field } from "../Field";
import type { Candidate } from "./useShareDialog";

interface ShareInvitesProps {
  candidates: readonly Candidate[];
  /** Adds a typed address; returns why it was not added. */
  onAdd: (raw: string) => string | undefined;
  onToggle: (email: string) => void;
  disabled: boolean;
}

export function ShareInvites({ candidates, onAdd, onToggle, disabled }: ShareInvitesProps) {
  const [input, setInput] = useState("");
  const [inputError, setInputError] = useState<string>();

  function onInputKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== "Enter" || event.nativeEvent.isComposing) return;
    event.preventDefault();
    const error = onAdd(input);
    if (error) {
      setInputError(error);
      return;
    }
    setInput("");
    setInputError(undefined);
  }

  return (
    <>
      <Field
        label="Email address*"
        type="email"
        name="share-email"
        autoComplete="off"
        placeholder="Type an e-mail address and press Enter"
        value={input}
        onChange={(e) => {
          setInput(e.target.value);
          setInputError(undefined);
        }}
        onKeyDown={onInputKeyDown}
        error={inputError}
        disabled={disabled}
      />

      {candidates.length > 0 && (
        <ul className="share-candidates" aria-label="E-mail addresses to share with">
          {candidates.map((c) => (
            <li key={c.email}>
              <label className="checkbox share-candidate">
                <input type="checkbox" checked={c.checked} onChange={() => onToggle(c.email)} disabled={disabled} />
                <span className="share-email">{c.email}</span>
              </label>
              {c.error && <span className="field-error">{c.error}</span>}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
