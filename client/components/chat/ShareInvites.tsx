// The addresses to share with: typed one at a time (checked on Enter; a
// duplicate or invalid address is not added) into a list of checkboxes.
import type { KeyboardEvent } from "react";
import { Field } from "../Field";
import type { Candidate } from "./useShareDialog";

interface ShareInvitesProps {
  draft: string;
  draftError: string | undefined;
  onDraftChange: (text: string) => void;
  /** Enter: adds the typed address, or shows why it was not added. */
  onAdd: () => void;
  candidates: readonly Candidate[];
  onToggle: (email: string) => void;
  disabled: boolean;
}

export function ShareInvites({ draft, draftError, onDraftChange, onAdd, candidates, onToggle, disabled }: ShareInvitesProps) {
  function onInputKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== "Enter" || event.nativeEvent.isComposing) return;
    event.preventDefault();
    onAdd();
  }

  return (
    <>
      <Field
        label="Email address*"
        type="email"
        name="share-email"
        autoComplete="off"
        placeholder="Type an e-mail address and press Enter"
        value={draft}
        onChange={(e) => onDraftChange(e.target.value)}
        onKeyDown={onInputKeyDown}
        error={draftError}
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
