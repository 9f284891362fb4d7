// "Move to folder": the chosen files go into one of the user's folders, or back to the top level.
import { useState } from "react";
import type { FileItem } from "../../../worker/contract/documents";
import type { Folder } from "../../../worker/contract/folders";
import { serverMessage } from "../../lib/api";
import { useMounted } from "../../lib/useMounted";
import { moveFiles } from "../../state/folders";
import { Modal } from "../Modal";

interface MoveModalProps {
  files: FileItem[];
  folders: Folder[];
  onClose: () => void;
  onMoved: () => void;
}

export function MoveModal({ files, folders, onClose, onMoved }: MoveModalProps) {
  const [error, setError] = useState<string | null>(null);
  const [moving, setMoving] = useState(false);
  const mounted = useMounted();

  async function moveTo(folderId: string | null) {
    setMoving(true);
    setError(null);
    try {
      await moveFiles(
        files.map((f) => f.fileId),
        folderId,
      );
      onMoved();
      if (mounted.current) onClose();
    } catch (err) {
      if (mounted.current) setError(serverMessage(err) ?? "Could not move the files. Please try again.");
    } finally {
      if (mounted.current) setMoving(false);
    }
  }

  const what = files.length === 1 ? files[0]!.fileName : `${files.length} files`;
  return (
    <Modal title="Move to folder" onClose={moving ? () => {} : onClose} className="move-modal">
      <p>Move {what} to:</p>
      <ul className="move-targets">
        {folders.map((folder) => (
          <li key={folder.id}>
            <button type="button" className="btn btn-outline" disabled={moving} onClick={() => void moveTo(folder.id)}>
              {folder.name}
            </button>
          </li>
        ))}
        <li>
          <button type="button" className="btn btn-outline" disabled={moving} onClick={() => void moveTo(null)}>
            Top level
          </button>
        </li>
      </ul>
      {folders.length === 0 && <p>You have no folders yet: make one with New folder.</p>}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="modal-actions">
        <button type="button" className="btn btn-outline" onClick={onClose} disabled={moving}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}
