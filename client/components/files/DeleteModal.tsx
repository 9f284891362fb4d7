// The delete confirmation (spec sections 4 and 8). States: closed (not rendered),
// open, loading. With errors in the answer: one file -> its first error text;
// several -> each failure as "name: error" and the successes listed too. An
// exception shows its message. Whatever was deleted is reported to the page at
// once (it clears the selection and refetches); failed files stay for a retry.
import { useEffect, useRef, useState } from "react";
import type { DeleteResponse, FileItem } from "../../../worker/contract/documents";
import { deletionKey } from "../../lib/files";
import { deleteDocuments } from "../../state/documents";
import { Modal } from "../Modal";

export const DELETE_CONFIRM_TEXT = "Are you sure you want to delete this file? The file will be deleted and you can't revert this action.";
/** The spec's text, for several files at once. */
export const deleteManyText = (n: number) =>
  `Are you sure you want to delete these ${n} files? The files will be deleted and you can't revert this action.`;

interface DeleteModalProps {
  /** The files to delete (each with a deletion key: a hash, or the id of an upload that never arrived). */
  files: FileItem[];
  onClose: () => void;
  /** Called after every answer from the server, before any error is shown. */
  onDeleted: (result: DeleteResponse) => void;
}

type Outcome = { kind: "none" } | { kind: "single"; message: string } | { kind: "multiple"; failed: string[]; deleted: string[] };

export function DeleteModal({ files, onClose, onDeleted }: DeleteModalProps) {
  const [targets, setTargets] = useState(files);
  const [loading, setLoading] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({ kind: "none" });
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const nameOf = (key: string) => files.find((f) => deletionKey(f) === key)?.fileName ?? key;

  async function confirm() {
    const deletable = targets.filter((f) => deletionKey(f) !== null);
    if (deletable.length === 0) return;
    const single = targets.length === 1;
    setLoading(true);
    setOutcome({ kind: "none" });
    try {
      const result = await deleteDocuments(deletable);
      const errors = result?.errors ?? [];
      const deleted = result?.deleted ?? [];
      onDeleted(result);
      if (!mounted.current) return;
      if (errors.length === 0 && result?.status !== "error") {
        onClose();
        return;
      }
      if (errors.length === 0) {
        setOutcome({ kind: "single", message: "The file could not be deleted. Please try again." });
      } else if (single) {
        setOutcome({ kind: "single", message: errors[0]!.error });
      } else {
        setOutcome({
          kind: "multiple",
          failed: errors.map((e) => `${nameOf(e.file_hash)}: ${e.error}`),
          deleted: deleted.map(nameOf),
        });
      }
      // A retry only sends the files that failed.
      const failedKeys = new Set(errors.map((e) => e.file_hash));
      if (failedKeys.size > 0) setTargets((t) => t.filter((f) => failedKeys.has(deletionKey(f) ?? "")));
    } catch (err) {
      if (!mounted.current) return;
      setOutcome({ kind: "single", message: err instanceof Error ? err.message : String(err) });
    } finally {
      if (mounted.current) setLoading(false);
    }
  }

  return (
    <Modal
      title={files.length > 1 ? `Delete ${files.length} files` : "Delete file"}
      onClose={loading ? () => {} : onClose}
      className="delete-modal"
    >
      <p>{files.length > 1 ? deleteManyText(files.length) : DELETE_CONFIRM_TEXT}</p>
      {outcome.kind === "single" && (
        <p className="form-error" role="alert">
          {outcome.message}
        </p>
      )}
      {outcome.kind === "multiple" && (
        <div className="delete-result" role="alert">
          <p className="form-error">Some files could not be deleted:</p>
          <ul className="delete-failed">
            {outcome.failed.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {outcome.deleted.length > 0 && (
            <>
              <p className="delete-ok-title">Deleted:</p>
              <ul className="delete-ok">
                {outcome.deleted.map((name) => (
                  <li key={name}>{name}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      <div className="modal-actions">
        <button type="button" className="btn btn-outline" onClick={onClose} disabled={loading}>
          Cancel
        </button>
        <button
          type="button"
          className="btn btn-danger"
          onClick={confirm}
          disabled={loading || targets.length === 0}
          aria-busy={loading || undefined}
        >
          {loading ? "Deleting..." : "Delete"}
        </button>
      </div>
    </Modal>
  );
}
