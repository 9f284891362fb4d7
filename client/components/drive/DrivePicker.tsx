// The cloud-drive picker (spec sections 2, 4, 5 and 8): the user's Drive PDFs,
// each with a "View in the drive" link, "Load more" for the next page, and
// checkboxes (My Files, "multi") or radios (chat, "single": one file at a
// time). Nothing chosen -> "File is required." without a call. While importing:
// "Indexing selected files..."; then the server's message with the counts, or
// the failure in a red badge. Rendered into <body> so no sticky or stacked
// parent (the chat dock) can clip it.
import { useEffect, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useSnapshot } from "valtio";
import {
  DRIVE_MESSAGES,
  disconnectDrive,
  formatStats,
  importFiles,
  listDriveFiles,
  resetImport,
  driveState,
  type DriveFile,
  type DriveImportResponse,
} from "../../state/drive";
import { Modal } from "../Modal";
import "./drive.css";

export const DRIVE_PICKER_TITLE = "Select files from Google Drive";

export interface DrivePickerProps {
  mode: "multi" | "single";
  onClose: () => void;
  /** multi: called after a successful import (the page refetches its list). */
  onImported?: (response: DriveImportResponse) => void;
  /** single: takes the chosen file instead of the plain import; return true to close the picker. */
  onSelect?: (file: DriveFile) => Promise<boolean>;
}

function errorText(err: unknown): string {
  return err instanceof Error && err.message ? err.message : DRIVE_MESSAGES.listFailed;
}

export function DrivePicker({ mode, onClose, onImported, onSelect }: DrivePickerProps) {
  const { import: importState } = useSnapshot(driveState);
  const [files, setFiles] = useState<DriveFile[]>([]);
  const [nextPageToken, setNextPageToken] = useState<string | undefined>();
  const [listing, setListing] = useState(true);
  const [listError, setListError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [required, setRequired] = useState(false);
  const mounted = useRef(true);
  const groupName = useId();
  const single = mode === "single";
  const importing = importState.status === "loading";
  const done = importState.status === "success";

  useEffect(() => {
    mounted.current = true;
    resetImport();
    return () => {
      mounted.current = false;
    };
  }, []);

  /** "Load more": the next page, appended (an id already shown is not repeated). */
  async function loadMore(pageToken: string) {
    setListing(true);
    setListError(null);
    try {
      const page = await listDriveFiles(pageToken);
      if (!mounted.current) return;
      setFiles((current) => {
        const seen = new Set(current.map((f) => f.id));
        return [...current, ...page.files.filter((f) => !seen.has(f.id))];
      });
      setNextPageToken(page.nextPageToken);
    } catch (err) {
      console.error("Listing Google Drive files failed", err);
      if (mounted.current) setListError(errorText(err));
    } finally {
      if (mounted.current) setListing(false);
    }
  }

  useEffect(() => {
    let cancelled = false;
    listDriveFiles()
      .then((page) => {
        if (cancelled) return;
        setFiles(page.files);
        setNextPageToken(page.nextPageToken);
      })
      .catch((err: unknown) => {
        console.error("Listing Google Drive files failed", err);
        if (!cancelled) setListError(errorText(err));
      })
      .finally(() => {
        if (!cancelled) setListing(false);
      });
    return () => {
      cancelled = true;
    };
  }, []);

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
    if (await disconnectDrive()) onClose();
  }

  const close = importing ? () => {} : onClose;
  const buttonLabel = importing ? "Importing..." : single ? "Select in chat" : "Import to the product";

  return createPortal(
    <Modal title={DRIVE_PICKER_TITLE} onClose={close} className="drive-picker">
      {listing && files.length === 0 ? (
        <div className="loading drive-loading" role="status">
          <span className="spinner" aria-hidden="true" /> Loading your Google Drive files...
        </div>
      ) : files.length === 0 && !listError ? (
        <p className="muted">No PDF files found in your Google Drive.</p>
      ) : (
        <fieldset className="drive-list-wrap" disabled={importing}>
          <legend className="visually-hidden">{single ? "Choose one file" : "Choose files"}</legend>
          <ul className="drive-list">
            {files.map((file) => (
              <li key={file.id} className="drive-item">
                <label className="drive-choice">
                  <input
                    type={single ? "radio" : "checkbox"}
                    name={single ? groupName : undefined}
                    value={file.id}
                    checked={selected.includes(file.id)}
                    onChange={(e) => choose(file.id, e.target.checked)}
                  />
                  <span className="drive-name" title={file.name}>
                    {file.name}
                  </span>
                </label>
                <a
                  className="drive-view"
                  href={file.webViewLink}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`View ${file.name} in the drive`}
                >
                  View in the drive
                </a>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
      {nextPageToken && (
        <button
          type="button"
          className="btn btn-outline drive-more"
          onClick={() => void loadMore(nextPageToken)}
          disabled={listing || importing}
        >
          {listing ? "Loading..." : "Load more"}
        </button>
      )}
      {listError && (
        <p className="form-error" role="alert">
          {listError}
        </p>
      )}

      {required && (
        <p className="form-error" role="alert">
          {DRIVE_MESSAGES.fileRequired}
        </p>
      )}
      {importing && (
        <p className="status-line drive-indexing" role="status">
          <span className="spinner" aria-hidden="true" /> {DRIVE_MESSAGES.indexing}
        </p>
      )}
      {importState.status === "success" && (
        <p className="status-line success" role="status">
          {importState.message} {formatStats(importState.stats)}
        </p>
      )}
      {importState.status === "error" && (
        <p className="drive-error-line">
          <span className="badge badge-error" role="alert">
            {importState.error}
          </span>
        </p>
      )}

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
