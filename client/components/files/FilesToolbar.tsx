// The My Files toolbar: Upload file (a PDF chooser, several files at once;
// cancelling it does nothing), the search by file name
// and the cloud drive button, which connects the drive (leaving for Google) or,
// once connected, opens the drive picker. The connection is checked on arrival
// and every 10 s while "loading" (back from Google, not confirmed yet).
import { useRef } from "react";
import { DRIVE_MESSAGES, FILES_DRIVE_RECHECK_MS, startConnect, useDriveConnection } from "../../state/drive";
import { FILE_SEARCH_MAX } from "../../../worker/contract/documents";
import { Icon } from "../Icon";

interface FilesToolbarProps {
  onUpload: (files: File[]) => void;
  onOpenDrive: () => void;
  search: string;
  onSearch: (text: string) => void;
}

export function FilesToolbar({ onUpload, onOpenDrive, search, onSearch }: FilesToolbarProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const drive = useDriveConnection(FILES_DRIVE_RECHECK_MS);
  const driveConnected = drive.connected === true;

  function onFileChosen(event: React.ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.target.files ?? []);
    event.target.value = ""; // choosing the same file again still fires a change
    if (files.length === 0) return; // the chooser was cancelled
    onUpload(files);
  }

  return (
    <div className="files-toolbar">
      <button type="button" className="btn btn-primary" onClick={() => inputRef.current?.click()}>
        <Icon name="upload" size={18} />
        Upload file
      </button>
      <input
        ref={inputRef}
        type="file"
        accept=".pdf,application/pdf"
        multiple
        hidden
        aria-label="Choose PDF files to upload"
        onChange={onFileChosen}
      />
      <button
        type="button"
        className="btn btn-outline"
        disabled={!drive.available}
        title={drive.available ? undefined : DRIVE_MESSAGES.unavailable}
        aria-busy={drive.connected === "loading" || undefined}
        onClick={() => (driveConnected ? onOpenDrive() : void startConnect())}
      >
        <Icon name={driveConnected ? "check" : "cloud"} size={18} />
        {driveConnected ? "Connected to cloud drive" : "Connect to cloud drive"}
      </button>
      <input
        type="search"
        className="files-search"
        placeholder="Search files"
        aria-label="Search files by name"
        maxLength={FILE_SEARCH_MAX}
        value={search}
        onChange={(event) => onSearch(event.target.value)}
      />
    </div>
  );
}
