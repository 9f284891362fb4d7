// An indexer run's lease on the document it indexes: its progress renews it, and a run that makes
// none for INDEXING_LEASE_MS has lost it (LibraryIndex.begin lets another run take the document,
// LibraryIndex.recoverLost queues it again).
import { ACTIVE, DOCUMENT_COLUMNS, type DocumentRow } from "./document-rows";
import type { SyncSql } from "./library-schema";

/**
 * A pending or processing document with no progress for this long has lost its
 * indexer (a restart, a lost queue message): it is queued again, up to
 * MAX_RECOVERIES times, then failed. Progress renews the lease at least every 100 pages or 2 s (indexer.ts).
 */
export const INDEXING_LEASE_MS = 90 * 1000;
export const MAX_RECOVERIES = 3;

/** The pending or processing documents whose lease had expired at `now`. */
export function lostDocuments(sql: SyncSql, now: number): DocumentRow[] {
  return sql.rows<DocumentRow>(
    `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE status IN ${ACTIVE} AND updated_at < ?`,
    now - INDEXING_LEASE_MS,
  );
}

/** When the next lease of a pending or processing document expires (null when none is active). */
export function nextLeaseDeadline(sql: SyncSql): number | null {
  const oldest = sql.rows<{ at: number | null }>(`SELECT MIN(updated_at) AS at FROM documents WHERE status IN ${ACTIVE}`)[0]?.at;
  return oldest == null ? null : oldest + INDEXING_LEASE_MS;
}
