// "New folder" and "Rename folder": a name field, checked like the server does
// (contract/folders.ts), and the server's own message when it refuses.
import { useState, type FormEvent } from "react";
import { folderNameSchema } from "../../../worker/contract/folders-schemas";
import { serverMessage } from "../../lib/api";
import { useMounted } from "../../lib/useMounted";
import { Modal } from "../Modal";

interface FolderNameModalProps {
  title: string;
  initial?: string;
  submitLabel: string;
  /** saves the name; a refusal's message shows in the dialog */
  onSave: (name: string) => Promise<unknown>;
  onClose: () => void;
}

export function FolderNameModal({ title, initial = "", submitLabel, onSave, onClose }: FolderNameModalProps) {
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const mounted = useMounted();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = folderNameSchema.safeParse(name);
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? null);
    setSaving(true);
    setError(null);
    try {
      await onSave(checked.data);
      if (mounted.current) onClose();
    } catch (err) {
      if (mounted.current) setError(serverMessage(err) ?? "Could not save the folder. Please try again.");
    } finally {
      if (mounted.current) setSaving(false);
    }
  }

  return (
    <Modal title={title} onClose={saving ? () => {} : onClose} className="folder-modal">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <label className="field">
          <span>Folder name</span>
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "folder-name-error" : undefined}
          />
        </label>
        {error && (
          <p id="folder-name-error" className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="btn btn-outline" onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={saving} aria-busy={saving || undefined}>
            {submitLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
