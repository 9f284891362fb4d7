// Under the picker's list: "File is required." when nothing was chosen, then the
// import's progress ("Indexing selected files..."), its message with the counts
// and each file that failed, by name, in a red badge, or its failure in a red badge.
import type { Snapshot } from "valtio";
import { DRIVE_MESSAGES, formatStats, type ImportState } from "../../state/drive";

export function DriveImportStatus({
  required,
  importState,
  nameOf,
}: {
  required: boolean;
  importState: Snapshot<ImportState>;
  /** a drive file's name by its id, for the files that failed */
  nameOf: (fileId: string) => string | undefined;
}) {
  return (
    <>
      {required && (
        <p className="form-error" role="alert">
          {DRIVE_MESSAGES.fileRequired}
        </p>
      )}
      {importState.status === "loading" && (
        <p className="status-line drive-indexing" role="status">
          <span className="spinner" aria-hidden="true" /> {DRIVE_MESSAGES.indexing}
        </p>
      )}
      {importState.status === "success" && (
        <p className="status-line success" role="status">
          {importState.message} {formatStats(importState.stats)}
        </p>
      )}
      {importState.status === "success" &&
        importState.failures.map((failure) => (
          <p key={failure.fileId} className="drive-error-line">
            <span className="badge badge-error" role="alert">
              {[nameOf(failure.fileId), failure.error].filter(Boolean).join(": ")}
            </span>
          </p>
        ))}
      {importState.status === "error" && (
        <p className="drive-error-line">
          <span className="badge badge-error" role="alert">
            {importState.error}
          </span>
        </p>
      )}
    </>
  );
}
