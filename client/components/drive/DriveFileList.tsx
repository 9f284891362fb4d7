// The picker's list of Drive PDFs: checkboxes ("multi") or radios ("single"),
// each with a "View in the drive" link, then "Load more" and a listing failure.
import { useId } from "react";
import type { DriveFile } from "../../../worker/contract/documents";

interface DriveFileListProps {
  files: DriveFile[];
  single: boolean;
  selected: string[];
  onChoose: (id: string, checked: boolean) => void;
  listing: boolean;
  listError: string | null;
  nextPageToken: string | undefined;
  onLoadMore: (pageToken: string) => void;
  importing: boolean;
}

export function DriveFileList(props: DriveFileListProps) {
  const { files, single, selected, onChoose, listing, listError, nextPageToken, onLoadMore, importing } = props;
  const groupName = useId();

  return (
    <>
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
                    onChange={(e) => onChoose(file.id, e.target.checked)}
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
          onClick={() => onLoadMore(nextPageToken)}
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
    </>
  );
}
