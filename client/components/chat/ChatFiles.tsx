// The chat's documents above the composer: one chip per document (name, its
// indexing state, remove), the upload in progress, or, with nothing attached,
// the note that a question searches all of the user's files.
import { useSnapshot } from "valtio";
import { CHAT_MESSAGES, INDEXING_STATUSES, type ChatFile } from "../../../worker/contract/protocol";
import { statusLabel } from "../../lib/files";
import { chatState } from "../../state/chat";
import { removeChatFile } from "../../state/chatDocuments";
import { ocrState, type Recognition } from "../../state/ocrProgress";
import { Icon } from "../Icon";

/**
 * What a chip says after the name: nothing once indexed, progress while indexing
 * or while this browser recognises a scanned document's text, the status otherwise.
 */
export function chipStatus(
  file: Pick<ChatFile, "status" | "pagesDone" | "pagesTotal">,
  recognition?: Pick<Recognition, "phase" | "pagesDone" | "pagesTotal">,
): string | null {
  if (file.status === "indexed") return null;
  if (file.status === "needs_ocr" && recognition && recognition.phase !== "done") {
    return recognition.pagesTotal ? `Recognising text ${recognition.pagesDone}/${recognition.pagesTotal}` : "Recognising text…";
  }
  if (INDEXING_STATUSES.includes(file.status)) {
    return file.pagesTotal ? `Indexing ${file.pagesDone}/${file.pagesTotal}` : "Indexing…";
  }
  return statusLabel(file.status);
}

export function ChatFiles({ signedIn }: { signedIn: boolean }) {
  const { files, uploads, readOnly, folder } = useSnapshot(chatState);
  const recognitions = useSnapshot(ocrState).documents;
  if (!signedIn) return null;
  if (files.length === 0 && uploads.length === 0 && !folder) {
    return readOnly ? null : <p className="chat-scope-note">{CHAT_MESSAGES.searchingAll}</p>;
  }
  return (
    <ul className="chat-attachments" aria-label="Documents in this chat">
      {folder && (
        <li className="chat-attachment chat-folder-chip">
          <Icon name="files" /> Folder {folder.name} ({folder.documentCount} {folder.documentCount === 1 ? "file" : "files"})
        </li>
      )}
      {files.map((file) => {
        const status = chipStatus(file, recognitions[file.fileId]);
        return (
          <li key={file.fileId} className={`attachment-chip status-${file.status}`} title={file.error ?? file.fileName}>
            <Icon name="files" size={14} />
            <span className="attachment-name">{file.fileName}</span>
            {status && <span className="attachment-status">{status}</span>}
            {!readOnly && (
              <button type="button" aria-label={`Remove ${file.fileName}`} onClick={() => removeChatFile(file.fileId)}>
                <Icon name="close" size={14} />
              </button>
            )}
          </li>
        );
      })}
      {uploads.map((upload) => (
        <li key={upload.id} className="attachment-chip uploading" role="status">
          <Icon name="upload" size={14} />
          <span className="attachment-name">{upload.name}</span>
          <span>{upload.percent}%</span>
        </li>
      ))}
    </ul>
  );
}
