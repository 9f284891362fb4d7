// The folders above My Files' table: "All files" and each folder with its file
// count (choosing one filters the table), "New folder", and a menu per folder
// with Rename, "Chat about this folder" and Delete (asked first; its files stay,
// at the top level).
import { useState } from "react";
import type { Folder } from "../../../worker/contract/folders";
import { createFolder, deleteFolder, renameFolder } from "../../state/folders";
import { ConfirmDelete } from "../ConfirmDelete";
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

type Editing = { kind: "new" } | { kind: "rename" | "delete"; folder: Folder } | null;

export function FolderBar({ folders, current, onChoose, onChanged, onChat }: FolderBarProps) {
  const [editing, setEditing] = useState<Editing>(null);

  async function remove(folder: Folder) {
    await deleteFolder(folder.id);
    if (current === folder.id) onChoose(null);
    onChanged();
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
              { label: "Delete", danger: true, onSelect: () => setEditing({ kind: "delete", folder }) },
            ]}
          />
        </span>
      ))}
      <button type="button" className="btn btn-outline" onClick={() => setEditing({ kind: "new" })}>
        New folder
      </button>
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
      {editing?.kind === "delete" && (
        <ConfirmDelete
          title="Delete folder"
          onDelete={() => remove(editing.folder)}
          onClose={() => setEditing(null)}
          failed="Could not delete the folder. Please try again."
        >
          <p>{folderDeleteText(editing.folder)}</p>
        </ConfirmDelete>
      )}
    </nav>
  );
}

/** What deleting a folder does: the folder goes, its files stay. */
function folderDeleteText({ name, documentCount }: Folder): string {
  if (documentCount === 0) return `Delete the folder “${name}”? It is empty.`;
  const files = documentCount === 1 ? "Its file stays" : `Its ${documentCount} files stay`;
  return `Delete the folder “${name}”? ${files} in My Files, outside any folder.`;
}
