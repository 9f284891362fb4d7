// The cloud-drive picker (spec sections 2, 4, 5 and 8): the user's Drive PDFs,
// each with a "View in the drive" link, "Load more" for the next page, and
// checkboxes (My Files, "multi") or radios (chat, "single": one file at a
// time). Nothing chosen -> "File is required." without a call. While importing:
// "Indexing selected files..."; then the server's message with the counts, or
// the failure in a red badge. Rendered into <body> so no sticky or stacked
// parent (the chat dock) can clip it.
import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useSnapshot } from "valtio";
import type { DriveFile, DriveImportResponse } from "../../../worker/contract/documents";
import { useMounted } from "../../lib/useMounted";
import { disconnectDrive, driveState, importFiles, resetImport } from "../../state/drive";
import { Modal } from "../Modal";
import { DriveFileList } from "./DriveFileList";
import { DriveImportStatus } from "./DriveImportStatus";
import "./drive.css";
import { useDriveFiles } from "./useDriveFiles";

export const DRIVE_PICKER_TITLE = "Select files from Google Drive";
/** Asked before disconnecting: the files imported stay. */
export const DISCONNECT_QUESTION = "Disconnect Google Drive? The files you imported stay in My Files.";

export interface DrivePickerProps {
  mode: "multi" | "single";
  onClose: () => void;
  /** multi: called after a successful import (the page refetches its list). */
  onImported?: (response: DriveImportResponse) => void;
  /** single: takes the chosen file instead of the plain import; return true to close the picker. */
  onSelect?: (file: DriveFile) => Promise<boolean>;
}

export function DrivePicker({ mode, onClose, onImported, onSelect }: DrivePickerProps) {
  const { import: importState } = useSnapshot(driveState);
  const mounted = useMounted();
  useEffect(() => resetImport(), []);
  const { files, nextPageToken, listing, listError, loadMore } = useDriveFiles();
  const [selected, setSelected] = useState<string[]>([]);
  const [required, setRequired] = useState(false);
  const single = mode === "single";
  const importing = importState.status === "loading";
  const done = importState.status === "success";

  function choose(id: string, checked: boolean) {
    setRequired(false);
    if (done || importState.status === "error") resetImport();
    setSelected((current) => (single ? [id] : checked ? [...current.filter((x) => x !== id), id] : current.filter((x) => x !== id)));
  }

  async function submit() {
    if (importing) return;
    if (selected.length === 0) {
      setRequired(true);
      return;
    }
    setRequired(false);
    if (single) {
      const file = files.find((f) => f.id === selected[0]);
      if (!file || !onSelect) return;
      if ((await onSelect(file)) && mounted.current) onClose();
      return;
    }
    const response = await importFiles(selected);
    if (!response) return;
    onImported?.(response);
    if (mounted.current) setSelected([]);
  }

  async function disconnect() {
    if (!window.confirm(DISCONNECT_QUESTION)) return;
    if (await disconnectDrive()) onClose();
  }

  // the dialog opens before the list arrives, its first button (Disconnect) focused: the first file takes focus then
  const list = useRef<HTMLDivElement>(null);
  const hasFiles = files.length > 0;
  useEffect(() => {
    if (!hasFiles || list.current?.contains(document.activeElement)) return;
    list.current?.querySelector<HTMLInputElement>("input")?.focus();
  }, [hasFiles]);

  const close = importing ? () => {} : onClose;
  const buttonLabel = importing ? "Importing..." : single ? "Select in chat" : "Import to the product";

  return createPortal(
    <Modal title={DRIVE_PICKER_TITLE} onClose={close} className="drive-picker">
      <div ref={list}>
        <DriveFileList
          files={files}
          single={single}
          selected={selected}
          onChoose={choose}
          listing={listing}
          listError={listError}
          nextPageToken={nextPageToken}
          onLoadMore={(pageToken) => void loadMore(pageToken)}
          importing={importing}
        />
      </div>
      <DriveImportStatus required={required} importState={importState} nameOf={(id) => files.find((f) => f.id === id)?.name} />

      <div className="modal-actions drive-actions">
        {!single && (
          <button type="button" className="link-btn drive-disconnect" onClick={() => void disconnect()} disabled={importing}>
            Disconnect Google Drive
          </button>
        )}
        <button type="button" className="btn btn-outline" onClick={onClose} disabled={importing}>
          {done ? "Close" : "Cancel"}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => void submit()}
          disabled={importing}
          aria-busy={importing || undefined}
        >
          {buttonLabel}
        </button>
      </div>
    </Modal>,
    document.body,
  );
}
