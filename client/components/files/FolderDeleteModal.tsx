// Deleting a folder is asked first: the folder goes, its files stay in My Files
// at the top level. A refusal's message shows in the dialog.
import { useState } from "react";
import type { Folder } from "../../../worker/contract/folders";
import { serverMessage } from "../../lib/api";
import { useMounted } from "../../lib/useMounted";
import { Modal } from "../Modal";

interface FolderDeleteModalProps {
  folder: Folder;
  onDelete: () => Promise<unknown>;
  onClose: () => void;
}

export function FolderDeleteModal({ folder, onDelete, onClose }: FolderDeleteModalProps) {
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const mounted = useMounted();
  const files = folder.documentCount === 1 ? "Its file stays" : `Its ${folder.documentCount} files stay`;

  async function confirm() {
    setDeleting(true);
    setError(null);
    try {
      await onDelete();
      if (mounted.current) onClose();
    } catch (err) {
      if (mounted.current) setError(serverMessage(err) ?? "Could not delete the folder. Please try again.");
    } finally {
      if (mounted.current) setDeleting(false);
    }
  }

  return (
    <Modal title="Delete folder" onClose={deleting ? () => {} : onClose} className="folder-modal">
      <p>
        Delete the folder “{folder.name}”? {folder.documentCount === 0 ? "It is empty." : `${files} in My Files, outside any folder.`}
      </p>
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
