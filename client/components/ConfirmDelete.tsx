// A confirmation before something is deleted: what goes (the children), then
// Cancel or Delete ("Deleting..." while it runs); a refusal's message shows in
// the dialog, which stays open to try again.
import { useState, type ReactNode } from "react";
import { serverMessage } from "../lib/api";
import { useMounted } from "../lib/useMounted";
import { Modal } from "./Modal";

interface ConfirmDeleteProps {
  title: string;
  children: ReactNode;
  onDelete: () => Promise<unknown>;
  onClose: () => void;
  /** shown when the failure carries no message of the server's */
  failed: string;
}

export function ConfirmDelete({ title, children, onDelete, onClose, failed }: ConfirmDeleteProps) {
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const mounted = useMounted();

  async function confirm() {
    setDeleting(true);
    setError(null);
    try {
      await onDelete();
      if (mounted.current) onClose();
    } catch (err) {
      if (!mounted.current) return;
      setError(serverMessage(err) ?? failed);
      setDeleting(false);
    }
  }

  return (
    <Modal title={title} onClose={deleting ? () => {} : onClose}>
      {children}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="modal-actions">
        <button type="button" className="btn btn-outline" onClick={onClose} disabled={deleting}>
          Cancel
        </button>
        <button
          type="button"
          className="btn btn-danger"
          onClick={() => void confirm()}
          disabled={deleting}
          aria-busy={deleting || undefined}
        >
          {deleting ? "Deleting..." : "Delete"}
        </button>
      </div>
    </Modal>
  );
}
