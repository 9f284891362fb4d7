// A My Files row's status cell: the status pill, an upload's progress, a
// failure's reason, and for scanned documents (needs_ocr, which they stay
// until the last page is in) the text recognition: "Recognise text", or while
// it runs a per-page progress bar with Cancel. An indexed document that still
// has a few scanned pages offers "Recognise text" too.
import { useSnapshot } from "valtio";
import type { FileItem } from "../../../worker/contract/documents";
import { statusKey, statusLabel } from "../../lib/files";
import { cancelRecognition, ocrState, recogniseDocument, recognitionText, type Recognition } from "../../state/ocr";

export const RECOGNISE_TEXT = "Recognise text";

export function FileStatus({ file, percent }: { file: FileItem; percent: number | undefined }) {
  const recognition = useSnapshot(ocrState).documents[file.fileId];
  const recognising = recognition !== undefined && recognition.phase !== "done";
  // a finished recognition's outcome shows until the list catches up with it
  const status =
    recognition?.phase === "done" && statusKey(file.status) === "needs_ocr" && recognition.status !== "needs_ocr"
      ? recognition.status
      : file.status;
  const key = statusKey(status);
  const error = recognition?.phase === "done" ? (recognition.error ?? file.error) : file.error;
  // a recognition that ended in an error: the document is as before, and says why
  const recognitionError = recognition?.phase === "done" ? (recognition.error ?? null) : null;
  // an indexed document with a few scanned pages (a cover picture): offered, never started by itself
  const scannedPagesLeft =
    key === "indexed" && !recognising && (recognition?.phase !== "done" || recognitionError !== null) && (file.ocrPages?.length ?? 0) > 0;

  return (
    <>
      <span className={`status-pill status-${key || "unknown"}`}>
        {statusLabel(status)}
        {key === "uploading" && percent !== undefined && ` ${percent}%`}
      </span>
      {key === "uploading" && percent !== undefined && (
        <span
          className="upload-progress"
          role="progressbar"
          aria-label={`Uploading ${file.fileName}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
        >
          <span style={{ width: `${percent}%` }} />
        </span>
      )}
      {recognising && <RecognitionProgress file={file} recognition={recognition} />}
      {scannedPagesLeft && (
        <span className="ocr-progress-text">
          {file.ocrPages.length === 1 ? "1 scanned page" : `${file.ocrPages.length} scanned pages`} not searchable yet
        </span>
      )}
      {(key === "needs_ocr" || scannedPagesLeft) && !recognising && (
        <button
          type="button"
          className="link-btn ocr-action"
          onClick={(event) => {
            event.stopPropagation(); // not a row selection
            recogniseDocument(file);
          }}
        >
          {RECOGNISE_TEXT}
        </button>
      )}
      {(key === "failed" || (key === "needs_ocr" && !recognising)) && error && <span className="file-error">{error}</span>}
      {scannedPagesLeft && recognitionError && <span className="file-error">{recognitionError}</span>}
    </>
  );
}

function RecognitionProgress({
  file,
  recognition,
}: {
  file: FileItem;
  recognition: Pick<Recognition, "phase" | "page" | "pagesDone" | "pagesTotal">;
}) {
  const text = recognitionText(recognition);
  const percent = recognition.pagesTotal ? Math.round((recognition.pagesDone / recognition.pagesTotal) * 100) : 0;
  return (
    <>
      <span
        className="upload-progress"
        role="progressbar"
        aria-label={`Recognising the text of ${file.fileName}`}
        aria-valuemin={0}
        aria-valuemax={recognition.pagesTotal || 1}
        aria-valuenow={recognition.pagesDone}
        aria-valuetext={text}
      >
        <span style={{ width: `${percent}%` }} />
      </span>
      <span className="ocr-progress-text" aria-live="polite">
        {text}
      </span>
      <button
        type="button"
        className="link-btn ocr-action"
        aria-label={`Cancel text recognition of ${file.fileName}`}
        onClick={(event) => {
          event.stopPropagation(); // not a row selection
          cancelRecognition(file.fileId);
        }}
      >
        Cancel
      </button>
    </>
  );
}
