// Pure helpers for the My Files page (spec sections 3, 4 and 9): status labels,
// the MMM DD, YYYY date format, which rows are shown, and when to auto-refresh.
import type { FileItem } from "../../worker/contract/documents";

/**
 * While anything is pending or processing, My Files gets its progress pushed over the
 * chat connection (state/fileProgress.ts) and reads the list again this often as a
 * fallback, should a push not come (the spec's 5000 ms poll, replaced: docs/decisions.md).
 */
export const FILE_FALLBACK_POLL_MS = 30_000;

/** A local upload row gets an id starting with this prefix (spec section 3). */
export const TEMP_ID_PREFIX = "temp-";

export function isTempFile(file: Pick<FileItem, "fileId">): boolean {
  return file.fileId.startsWith(TEMP_ID_PREFIX);
}

/**
 * How the server names a file for deletion: its content hash, or (an upload whose
 * file never arrived has none) its id. Null for an upload still in this browser.
 */
export function deletionKey(file: Pick<FileItem, "fileId" | "fileHash">): string | null {
  if (isTempFile(file)) return null;
  return file.fileHash || file.fileId;
}

const KNOWN_LABELS: Record<string, string> = {
  uploading: "Uploading",
  pending: "Pending",
  processing: "Processing",
  needs_ocr: "Needs text recognition",
};

/** uploading/Uploading -> "Uploading"; others: underscores to spaces, first letter capitalised. */
export function statusLabel(status: string | null | undefined): string {
  const raw = (status ?? "").trim();
  const known = KNOWN_LABELS[raw.toLowerCase()];
  if (known) return known;
  const spaced = raw.replace(/_/g, " ");
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** The lower-case status, used for the pill colour. */
export function statusKey(status: string | null | undefined): string {
  return (status ?? "").trim().toLowerCase();
}

const DATE_FORMAT = new Intl.DateTimeFormat("en-US", { month: "short", day: "2-digit", year: "numeric" });

/** "MMM DD, YYYY" (e.g. "Nov 02, 2026") in the viewer's time zone; "—" for null or unparseable. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "—";
  return DATE_FORMAT.format(date);
}

function isUploading(file: FileItem): boolean {
  return statusKey(file.status) === "uploading";
}

function time(iso: string | null | undefined): number {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? -Infinity : t;
}

/**
 * The rows the table shows (spec section 4): only files with a fileHash or with
 * status uploading or processing; duplicate names collapse into one row, keeping
 * the uploading one if present, otherwise the later one (later createdAt). The
 * kept row takes the position of the first row with that name.
 */
export function visibleFiles(files: readonly FileItem[]): FileItem[] {
  const kept = new Map<string, FileItem>();
  for (const file of files) {
    const key = statusKey(file.status);
    if (!file.fileHash && key !== "uploading" && key !== "processing") continue;
    const current = kept.get(file.fileName);
    if (!current) {
      kept.set(file.fileName, file);
      continue;
    }
    if (isUploading(current)) continue;
    if (isUploading(file) || time(file.createdAt) > time(current.createdAt)) kept.set(file.fileName, file);
  }
  return [...kept.values()];
}

/** A file a chat can be about: uploaded and not failed (one still indexing is waited for). */
export function canChatAbout(file: Pick<FileItem, "fileId" | "status">): boolean {
  const key = statusKey(file.status);
  return !isTempFile(file) && key !== "failed" && key !== "uploading";
}

/** Statuses of a file still being indexed (its progress is pushed; the list is read again when it ends). */
export function isIndexing(status: string | null | undefined): boolean {
  const key = statusKey(status);
  return key === "pending" || key === "processing";
}

/**
 * True while any file is still pending or processing, or waits for text
 * recognition that this browser is running (`recognising`, by file id): the list
 * then watches their progress (and re-polls slowly).
 */
export function needsRefresh(
  files: readonly (Pick<FileItem, "status"> & { fileId?: string })[],
  recognising: ReadonlySet<string> = new Set(),
): boolean {
  return files.some((f) => isIndexing(f.status) || (statusKey(f.status) === "needs_ocr" && recognising.has(f.fileId ?? "")));
}
