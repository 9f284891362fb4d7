// The folders above My Files' table: "All files" and each folder with its file
// count (choosing one filters the table), "New folder", and a menu per folder
// with Rename, "Chat about this folder" and Delete (its files stay, at the top level).
import { useState } from "react";
import type { Folder } from "../../../worker/contract/folders";
import { createFolder, deleteFolder, renameFolder } from "../../state/folders";
import { RowMenu } from "../RowMenu";
import { FolderNameModal } from "./FolderNameModal";
import "./folders.css";

export const CHAT_ABOUT_FOLDER = "Chat about this folder";

interface FolderBarProps {
  folders: Folder[];
  current: string | null;
  onChoose: (folderId: string | null) => void;
  /** the folders changed on the server: read them (and the table) again */
  onChanged: () => void;
  onChat: (folder: Folder) => void;
}

type Editing = { kind: "new" } | { kind: "rename"; folder: Folder } | null;

export function FolderBar({ folders, current, onChoose, onChanged, onChat }: FolderBarProps) {
  const [editing, setEditing] = useState<Editing>(null);
  const [error, setError] = useState<string | null>(null);

  async function remove(folder: Folder) {
    try {
      await deleteFolder(folder.id);
      if (current === folder.id) onChoose(null);
      onChanged();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  return (
    <nav className="folder-bar" aria-label="Folders">
      <button type="button" className="folder-chip" aria-pressed={current === null} onClick={() => onChoose(null)}>
        All files
      </button>
      {folders.map((folder) => (
        <span key={folder.id} className="folder-item">
          <button type="button" className="folder-chip" aria-pressed={current === folder.id} onClick={() => onChoose(folder.id)}>
            {folder.name} <span className="folder-count">({folder.documentCount})</span>
          </button>
          <RowMenu
            name={folder.name}
            items={[
              { label: "Rename", onSelect: () => setEditing({ kind: "rename", folder }) },
              {
                label: CHAT_ABOUT_FOLDER,
                onSelect: () => onChat(folder),
                disabled: folder.documentCount === 0,
                title: folder.documentCount === 0 ? "Move files into this folder first" : undefined,
              },
              { label: "Delete", danger: true, onSelect: () => void remove(folder) },
            ]}
          />
        </span>
      ))}
      <button type="button" className="btn btn-outline" onClick={() => setEditing({ kind: "new" })}>
        New folder
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {editing?.kind === "new" && (
        <FolderNameModal
          title="New folder"
          submitLabel="Create"
          onSave={(name) => createFolder(name).then(onChanged)}
          onClose={() => setEditing(null)}
        />
      )}
      {editing?.kind === "rename" && (
        <FolderNameModal
          title="Rename folder"
          initial={editing.folder.name}
          submitLabel="Rename"
          onSave={(name) => renameFolder(editing.folder.id, name).then(onChanged)}
          onClose={() => setEditing(null)}
        />
      )}
    </nav>
  );
}
