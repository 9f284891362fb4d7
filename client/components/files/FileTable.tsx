// The file table: Name, Status (FileStatus.tsx), Uploaded Date, Last opened and a row action
// column. Clicking a row (or Enter/Space on it) toggles its selection. On small
// screens the same markup is laid out as cards by files.css.
import type { FileItem } from "../../../worker/contract/documents";
import { canChatAbout, deletionKey, formatDate, isTempFile } from "../../lib/files";
import { Icon } from "../Icon";
import { RowMenu } from "../RowMenu";
import { FileStatus } from "./FileStatus";

export const CHAT_ABOUT_FILE = "Chat about this file";

interface FileTableProps {
  files: FileItem[];
  /** Upload percent by temp row id. */
  progress: Record<string, number>;
  selected: ReadonlySet<string>;
  loading: boolean;
  /** what an empty list says instead of the first-upload hint (a search found nothing) */
  emptyText?: string;
  onToggle: (file: FileItem) => void;
  onView: (file: FileItem) => void;
  onDelete: (file: FileItem) => void;
  /** "Chat about this file": a new chat with it attached. */
  onChat: (file: FileItem) => void;
  /** "Move to folder" */
  onMove?: (file: FileItem) => void;
}

export function FileTable({ files, progress, selected, loading, emptyText, onToggle, onView, onDelete, onChat, onMove }: FileTableProps) {
  return (
    <div className="file-table-card">
      <table className="file-table" aria-label="Your files" aria-busy={loading || undefined}>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Uploaded Date</th>
            <th scope="col">Last opened</th>
            <th scope="col" className="col-actions">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {files.length === 0 ? (
            <tr className="file-empty">
              <td colSpan={5} className="muted">
                {loading ? "Loading your files..." : (emptyText ?? "No files yet. Upload a PDF to get started.")}
              </td>
            </tr>
          ) : (
            files.map((file) => (
              <FileRow
                key={file.fileId}
                file={file}
                percent={progress[file.fileId]}
                selected={selected.has(file.fileId)}
                onToggle={onToggle}
                onView={onView}
                onDelete={onDelete}
                onChat={onChat}
                onMove={onMove}
              />
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

interface FileRowProps {
  file: FileItem;
  percent: number | undefined;
  selected: boolean;
  onToggle: (file: FileItem) => void;
  onView: (file: FileItem) => void;
  onDelete: (file: FileItem) => void;
  onChat: (file: FileItem) => void;
  onMove?: (file: FileItem) => void;
}

function FileRow({ file, percent, selected, onToggle, onView, onDelete, onChat, onMove }: FileRowProps) {
  const temp = isTempFile(file);

  function onKeyDown(event: React.KeyboardEvent<HTMLTableRowElement>) {
    if (event.target !== event.currentTarget) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onToggle(file);
    }
  }

  return (
    <tr
      className={`file-row${selected ? " selected" : ""}${temp ? " temp" : ""}`}
      aria-selected={temp ? undefined : selected}
      tabIndex={temp ? undefined : 0}
      onClick={temp ? undefined : () => onToggle(file)}
      onKeyDown={temp ? undefined : onKeyDown}
    >
      <td className="cell-name">
        <span className="file-name-wrap">
          {!temp && (
            <span className={`check-box${selected ? " checked" : ""}`} aria-hidden="true">
              {selected && <Icon name="check" size={14} />}
            </span>
          )}
          <span className="file-icon" aria-hidden="true">
            <Icon name="files" size={18} />
          </span>
          <span className="file-name" title={file.fileName}>
            {file.fileName}
          </span>
        </span>
      </td>
      <td className="cell-status" data-label="Status">
        <FileStatus file={file} percent={percent} />
      </td>
      <td className="cell-date" data-label="Uploaded Date">
        {formatDate(file.createdAt)}
      </td>
      <td className="cell-date" data-label="Last opened">
        {formatDate(file.uploadedAt)}
      </td>
      <td className="cell-actions">
        {!temp && (
          <RowMenu
            name={file.fileName}
            items={[
              { label: "View", onSelect: () => onView(file) },
              {
                label: CHAT_ABOUT_FILE,
                onSelect: () => onChat(file),
                disabled: !canChatAbout(file),
                title: canChatAbout(file) ? undefined : (file.error ?? "Available once the upload has arrived"),
              },
              ...(onMove ? [{ label: "Move to folder", onSelect: () => onMove(file) }] : []),
              {
                label: "Delete",
                danger: true,
                onSelect: () => onDelete(file),
                disabled: deletionKey(file) === null,
                title: deletionKey(file) === null ? "Available once the upload has finished" : undefined,
              },
            ]}
          />
        )}
      </td>
    </tr>
  );
}
