// A document's row in the Library's `documents` table, and what is read of it: where the document
// is in its life (DocumentState), and the documents as the chat names them (NamedFile).
import type { SyncSql } from "./library-schema";
import type { DocumentState, NamedFile, WatchedFile } from "./types";

export interface DocumentRow {
  id: string;
  file_name: string;
  status: DocumentState["status"] | "removed";
  run_id: string | null;
  attempts: number;
  pages_done: number;
  pages_total: number | null;
  error: string | null;
  updated_at: number;
  /** JSON array of the pages waiting for text recognition */
  ocr_pages: string;
}

/** The statuses of a document an indexer run is still to finish. */
export const ACTIVE = "('pending', 'processing')";

export const DOCUMENT_COLUMNS = "id, file_name, status, run_id, attempts, pages_done, pages_total, error, updated_at, ocr_pages";
const NAMED_FILE_COLUMNS =
  "id AS fileId, file_name AS fileName, status, pages_done AS pagesDone, pages_total AS pagesTotal, error, upload_key AS uploadKey";

export const toState = (row: DocumentRow): DocumentState => ({
  documentId: row.id,
  status: row.status as DocumentState["status"],
  pagesDone: row.pages_done,
  pagesTotal: row.pages_total,
  error: row.error,
  ocrPages: JSON.parse(row.ocr_pages) as number[],
});

export function documentRow(sql: SyncSql, documentId: string): DocumentRow | undefined {
  return sql.rows<DocumentRow>(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = ?`, documentId)[0];
}

/**
 * The documents a question names, by id and by the upload key of its own upload,
 * as the chat shows them; null when one of them is not known here (a document
 * still uploading, a duplicate's upload key, a removed one): the catalogue decides.
 */
export function namedFiles(sql: SyncSql, ids: readonly string[], uploadKey: string | null): NamedFile[] | null {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0 && !uploadKey) return [];
  const rows = sql.rows<NamedFile & { status: DocumentRow["status"] }>(
    `SELECT ${NAMED_FILE_COLUMNS} FROM documents WHERE status != 'removed' AND (id IN (${wanted.map(() => "?").join(", ")}) OR upload_key = ?)`,
    ...wanted,
    uploadKey,
  );
  const known = new Set(rows.map((r) => r.fileId));
  if (!wanted.every((id) => known.has(id))) return null;
  if (uploadKey && !rows.some((r) => r.uploadKey === uploadKey)) return null;
  return rows as NamedFile[];
}

/** The documents still being indexed (waiting for the indexer, or read so far), oldest first. */
export function indexingFiles(sql: SyncSql): NamedFile[] {
  return sql.rows<NamedFile>(`SELECT ${NAMED_FILE_COLUMNS} FROM documents WHERE status IN ${ACTIVE} ORDER BY rowid`);
}

/** These documents (those known here and not removed) as a chat or My Files shows their indexing. */
export function watchedFiles(sql: SyncSql, ids: readonly string[]): WatchedFile[] {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  const rows = sql.rows<Omit<WatchedFile, "ocrPages"> & { ocrPages: string }>(
    `SELECT id AS fileId, file_name AS fileName, status, pages_done AS pagesDone, pages_total AS pagesTotal, error,
       ocr_pages AS ocrPages, updated_at AS updatedAt
     FROM documents WHERE status != 'removed' AND id IN (${wanted.map(() => "?").join(", ")})`,
    ...wanted,
  );
  return rows.map((r) => ({ ...r, ocrPages: JSON.parse(r.ocrPages) as number[] }));
}
