// "From My Files": pick documents already uploaded (indexed or still indexing,
// newest first) for the chat, with a search box and checkboxes. The chat's
// current documents start checked; confirming makes the checked ones the chat's set.
// The user's folders are offered above the files: choosing one scopes the chat to
// it (it then follows the folder).
import { useEffect, useMemo, useState } from "react";
import type { FileItem } from "../../../worker/contract/documents";
import { FOLDER_MESSAGES, type Folder } from "../../../worker/contract/folders";
import { MAX_CHAT_FILES } from "../../../worker/contract/protocol";
import { formatDate, statusLabel } from "../../lib/files";
import { loadAttachableFiles } from "../../state/documents";
import { loadFolders } from "../../state/folders";
import { Modal } from "../Modal";

export const MY_FILES_MESSAGES = {
  title: "Attach from My Files",
  loading: "Loading your files...",
  loadFailed: "Could not load your files. Please try again.",
  empty: "No files yet. Upload a PDF on My Files or with Upload file.",
  noMatch: "No file matches your search.",
  limit: `A chat can search at most ${MAX_CHAT_FILES} documents.`,
} as const;

interface MyFilesDialogProps {
  /** The chat's current documents (start checked). */
  attachedIds: readonly string[];
  onClose: () => void;
  onConfirm: (fileIds: string[]) => void;
  /** A folder was chosen: the chat follows it. */
  onChooseFolder: (folderId: string) => void;
}

/** A folder's name with its count, as the chat's chip shows it. */
export const folderLabel = (folder: Folder) =>
  `Folder ${folder.name} (${folder.documentCount} ${folder.documentCount === 1 ? "file" : "files"})`;

export function MyFilesDialog({ attachedIds, onClose, onConfirm, onChooseFolder }: MyFilesDialogProps) {
  const [files, setFiles] = useState<FileItem[] | null>(null);
  const [folders, setFolders] = useState<Folder[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [search, setSearch] = useState("");
  const [checked, setChecked] = useState<string[]>(() => [...attachedIds]);

  useEffect(() => {
    let cancelled = false;
    loadAttachableFiles()
      .then((list) => !cancelled && setFiles(list))
      .catch((err: unknown) => {
        console.error("Loading My Files failed", err);
        if (!cancelled) setError(MY_FILES_MESSAGES.loadFailed);
      });
    // folders are an extra: without them the dialog still picks files
    loadFolders()
      .then((list) => !cancelled && setFolders(list))
      .catch((err: unknown) => console.warn("Loading folders failed", err));
    return () => {
      cancelled = true;
    };
  }, []);

  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (files ?? []).filter((f) => f.fileName.toLowerCase().includes(needle));
  }, [files, search]);
  const shownFolders = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return folders.filter((f) => f.name.toLowerCase().includes(needle));
  }, [folders, search]);
  const full = checked.length >= MAX_CHAT_FILES;

  function toggle(fileId: string) {
    setChecked((current) => (current.includes(fileId) ? current.filter((id) => id !== fileId) : [...current, fileId]));
  }

  return (
    <Modal title={MY_FILES_MESSAGES.title} onClose={onClose} className="my-files-dialog">
      {/* No <form>: this dialog opens from inside the composer's form. */}
      <div className="my-files-body">
        <input
          type="search"
          className="my-files-search"
          placeholder="Search your files"
          aria-label="Search your files"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        {shownFolders.length > 0 && (
          <ul className="my-files-list my-files-folders" aria-label="Your folders">
            {shownFolders.map((folder) => (
              <li key={folder.id}>
                <button
                  type="button"
                  className="my-files-item my-files-folder"
                  disabled={folder.documentCount === 0}
                  title={folder.documentCount === 0 ? FOLDER_MESSAGES.emptyForChat : "Chat about this folder"}
                  onClick={() => {
                    onChooseFolder(folder.id);
                    onClose();
                  }}
                >
                  {folderLabel(folder)}
                </button>
              </li>
            ))}
          </ul>
        )}
        {error ? (
          <p className="form-error">{error}</p>
        ) : files === null ? (
          <p role="status">{MY_FILES_MESSAGES.loading}</p>
        ) : shown.length === 0 ? (
          <p>{files.length === 0 ? MY_FILES_MESSAGES.empty : MY_FILES_MESSAGES.noMatch}</p>
        ) : (
          <ul className="my-files-list" aria-label="Your files">
            {shown.map((file) => {
              const isChecked = checked.includes(file.fileId);
              return (
                <li key={file.fileId}>
                  <label className="my-files-item">
                    <input type="checkbox" checked={isChecked} disabled={!isChecked && full} onChange={() => toggle(file.fileId)} />
                    <span className="my-files-name">{file.fileName}</span>
                    <span className="my-files-meta">
                      {file.status === "indexed" ? formatDate(file.createdAt) : statusLabel(file.status)}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        )}
        {full && <p className="composer-note">{MY_FILES_MESSAGES.limit}</p>}
        <div className="modal-actions">
          <button type="button" className="btn btn-outline" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={files === null}
            onClick={() => {
              onConfirm(checked);
              onClose();
            }}
          >
            {checked.length ? `Attach ${checked.length} ${checked.length === 1 ? "file" : "files"}` : "Search all my files"}
          </button>
        </div>
      </div>
    </Modal>
  );
}
