// One user's library: the lifecycle of each of their documents (pending ->
// processing -> indexed | failed, progress, the stale rule, removal), the
// chunks and the FTS5 index over them (only indexed documents are searched).
// It runs on any synchronous SQLite: the user's Library Durable Object in the
// product, and node:sqlite in the offline benchmark. The schema is versioned here.
import type { DocumentStatus } from "../contract/documents";
import { DOCUMENT_MESSAGES } from "../contract/documents";
import { ftsMatchExpression } from "../lib/text";
import { chunkPage } from "./chunker";
import { migrate } from "./library-schema";

export type SqlParam = string | number | null;

/** A synchronous SQLite: one statement, its parameters, its rows. */
export interface SyncSql {
  rows<T>(query: string, ...params: SqlParam[]): T[];
  transaction(fn: () => void): void;
}

/** A document still pending or processing with no progress for this long is failed (the queue gave up or was lost). */
export const STALE_INDEXING_MS = 15 * 60 * 1000;

/** Where a document is in its life, as My Files and the chat show it. */
export interface DocumentState {
  documentId: string;
  status: Exclude<DocumentStatus, "uploading">;
  pagesDone: number;
  pagesTotal: number | null;
  error: string | null;
}

/** A chunk as it is stored (and handed back to the indexer for its vector). */
export interface IndexedChunk {
  id: string;
  documentId: string;
  page: number;
  ord: number;
  text: string;
  charStart: number;
  charEnd: number;
}

/** A chunk as search returns it. */
export interface ChunkHit {
  id: string;
  document_id: string;
  file_name: string;
  page: number;
  text: string;
}

const ROWS_PER_INSERT = 12;
const ACTIVE = "('pending', 'processing')";

interface DocumentRow {
  id: string;
  status: DocumentState["status"] | "removed";
  pages_done: number;
  pages_total: number | null;
  error: string | null;
  updated_at: number;
}

const toState = (row: DocumentRow): DocumentState => ({
  documentId: row.id,
  status: row.status as DocumentState["status"],
  pagesDone: row.pages_done,
  pagesTotal: row.pages_total,
  error: row.error,
});

export class LibraryIndex {
  constructor(
    private readonly sql: SyncSql,
    private readonly now: () => number = Date.now,
  ) {
    migrate(sql);
  }

  private row(documentId: string): DocumentRow | undefined {
    return this.sql.rows<DocumentRow>(
      "SELECT id, status, pages_done, pages_total, error, updated_at FROM documents WHERE id = ?",
      documentId,
    )[0];
  }

  private state(documentId: string): DocumentState {
    return toState(this.row(documentId)!);
  }

  /** A validated upload waits for the indexer (also: indexed again from the start). Null for a removed document. */
  enqueue(documentId: string, fileName: string): DocumentState | null {
    if (this.row(documentId)?.status === "removed") return null;
    this.sql.rows(
      `INSERT INTO documents (id, file_name, status, updated_at) VALUES (?, ?, 'pending', ?)
       ON CONFLICT(id) DO UPDATE SET file_name = excluded.file_name, status = 'pending', pages_done = 0, pages_total = NULL, error = NULL, updated_at = excluded.updated_at`,
      documentId,
      fileName,
      this.now(),
    );
    return this.state(documentId);
  }

  /**
   * The indexer starts (or restarts) a pending or processing document: whatever an
   * earlier attempt wrote is removed, so a retry never duplicates. Returns the removed
   * chunk ids (their vectors go too), or null when there is nothing to index
   * (finished, failed, removed or unknown).
   */
  begin(documentId: string, pagesTotal: number | null = null): { state: DocumentState; staleChunkIds: string[] } | null {
    const row = this.row(documentId);
    if (!row || (row.status !== "pending" && row.status !== "processing")) return null;
    const staleChunkIds = this.chunkIds(documentId);
    this.sql.transaction(() => {
      this.sql.rows("DELETE FROM chunks WHERE document_id = ?", documentId);
      this.sql.rows(
        "UPDATE documents SET status = 'processing', pages_done = 0, pages_total = ?, error = NULL, updated_at = ? WHERE id = ?",
        pagesTotal,
        this.now(),
        documentId,
      );
    });
    return { state: this.state(documentId), staleChunkIds };
  }

  /** The page count is known (extraction done). */
  setPageCount(documentId: string, pagesTotal: number): DocumentState | null {
    if (this.row(documentId)?.status !== "processing") return null;
    this.sql.rows("UPDATE documents SET pages_total = ?, updated_at = ? WHERE id = ?", pagesTotal, this.now(), documentId);
    return this.state(documentId);
  }

  /**
   * Chunks and indexes the next pages (`firstPage` is 1-based) of a processing
   * document and records the progress. Returns the new chunks (for their vectors),
   * or null when the document stopped processing meanwhile (removed or failed).
   */
  addPages(documentId: string, firstPage: number, texts: readonly string[]): { state: DocumentState; chunks: IndexedChunk[] } | null {
    if (this.row(documentId)?.status !== "processing") return null;
    const chunks = texts.flatMap((text, i) => {
      const page = firstPage + i;
      return chunkPage(text).map((c) => ({ ...c, id: `${documentId}:${page}:${c.ord}`, documentId, page }));
    });
    this.sql.transaction(() => {
      this.addChunks(chunks);
      this.sql.rows(
        "UPDATE documents SET pages_done = ?, updated_at = ? WHERE id = ?",
        firstPage - 1 + texts.length,
        this.now(),
        documentId,
      );
    });
    return { state: this.state(documentId), chunks };
  }

  /** Stores chunks as they are (the offline benchmark's ablations hand in their own). */
  addChunks(chunks: readonly IndexedChunk[]): void {
    this.sql.transaction(() => {
      for (let i = 0; i < chunks.length; i += ROWS_PER_INSERT) {
        const group = chunks.slice(i, i + ROWS_PER_INSERT);
        this.sql.rows(
          `INSERT INTO chunks (id, document_id, page, ord, text, char_start, char_end) VALUES ${group.map(() => "(?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
          ...group.flatMap((c) => [c.id, c.documentId, c.page, c.ord, c.text, c.charStart, c.charEnd]),
        );
      }
    });
  }

  /** The document is complete: from now on its chunks are searched. Null when it stopped processing meanwhile. */
  finish(documentId: string): DocumentState | null {
    if (this.row(documentId)?.status !== "processing") return null;
    this.sql.rows("UPDATE documents SET status = 'indexed', error = NULL, updated_at = ? WHERE id = ?", this.now(), documentId);
    return this.state(documentId);
  }

  /**
   * The document cannot be indexed, for `reason`: its chunks go and it is never
   * searched. Returns the removed chunk ids (for their vectors), or null for a removed document.
   */
  fail(documentId: string, fileName: string, reason: string): { state: DocumentState; staleChunkIds: string[] } | null {
    if (this.row(documentId)?.status === "removed") return null;
    const staleChunkIds = this.chunkIds(documentId);
    this.sql.transaction(() => {
      this.sql.rows("DELETE FROM chunks WHERE document_id = ?", documentId);
      this.sql.rows(
        `INSERT INTO documents (id, file_name, status, error, updated_at) VALUES (?, ?, 'failed', ?, ?)
         ON CONFLICT(id) DO UPDATE SET status = 'failed', error = excluded.error, updated_at = excluded.updated_at`,
        documentId,
        fileName,
        reason,
        this.now(),
      );
    });
    return { state: this.state(documentId), staleChunkIds };
  }

  /** Where the document is; null when unknown or removed. */
  status(documentId: string): DocumentState | null {
    const row = this.row(documentId);
    return row && row.status !== "removed" ? toState(row) : null;
  }

  /** The stale rule: a pending or processing document with no progress for STALE_INDEXING_MS is failed. */
  failStale(): { state: DocumentState; staleChunkIds: string[] }[] {
    const stale = this.sql.rows<{ id: string; file_name: string }>(
      `SELECT id, file_name FROM documents WHERE status IN ${ACTIVE} AND updated_at < ?`,
      this.now() - STALE_INDEXING_MS,
    );
    return stale.map((d) => this.fail(d.id, d.file_name, DOCUMENT_MESSAGES.indexingTimedOut)!);
  }

  /** When the stale rule would next fail a document still pending or processing (null when none is). */
  nextStaleDeadline(): number | null {
    const oldest = this.sql.rows<{ at: number | null }>(`SELECT MIN(updated_at) AS at FROM documents WHERE status IN ${ACTIVE}`)[0]?.at;
    return oldest == null ? null : oldest + STALE_INDEXING_MS;
  }

  /** Removes a document's chunks and leaves a nameless tombstone; returns the chunk ids (for its vectors). */
  remove(documentId: string): string[] {
    const ids = this.chunkIds(documentId);
    this.sql.transaction(() => {
      this.sql.rows("DELETE FROM chunks WHERE document_id = ?", documentId);
      this.sql.rows(
        `INSERT INTO documents (id, file_name, status, updated_at) VALUES (?, '', 'removed', ?)
         ON CONFLICT(id) DO UPDATE SET file_name = '', status = 'removed', pages_done = 0, pages_total = NULL, error = NULL, updated_at = excluded.updated_at`,
        documentId,
        this.now(),
      );
    });
    return ids;
  }

  /** Every chunk id of every document (account deletion removes their vectors). */
  allChunkIds(): string[] {
    return this.sql.rows<{ id: string }>("SELECT id FROM chunks ORDER BY rowid").map((r) => r.id);
  }

  chunkIds(documentId: string): string[] {
    return this.sql.rows<{ id: string }>("SELECT id FROM chunks WHERE document_id = ? ORDER BY rowid", documentId).map((r) => r.id);
  }

  /** BM25 over the complete documents (all of them, or only `documentIds`), best first. */
  search(question: string, documentIds: readonly string[] | null, limit: number): ChunkHit[] {
    const match = ftsMatchExpression(question);
    if (!match) return [];
    const ids = documentIds?.length ? documentIds : null;
    return this.sql.rows<ChunkHit>(
      `SELECT c.id, c.document_id, d.file_name, c.page, c.text
       FROM chunks_fts
       JOIN chunks c ON c.rowid = chunks_fts.rowid
       JOIN documents d ON d.id = c.document_id
       WHERE chunks_fts MATCH ? AND d.status = 'indexed' ${ids ? `AND c.document_id IN (${ids.map(() => "?").join(", ")})` : ""}
       ORDER BY bm25(chunks_fts) ASC
       LIMIT ?`,
      match,
      ...(ids ?? []),
      Math.floor(limit),
    );
  }

  /** The chunks with these ids that belong to complete documents (all, or only `documentIds`), in the order asked. */
  chunks(ids: readonly string[], documentIds: readonly string[] | null): ChunkHit[] {
    if (ids.length === 0) return [];
    const scope = documentIds?.length ? new Set(documentIds) : null;
    const rows = this.sql.rows<ChunkHit>(
      `SELECT c.id, c.document_id, d.file_name, c.page, c.text FROM chunks c JOIN documents d ON d.id = c.document_id
       WHERE d.status = 'indexed' AND c.id IN (${ids.map(() => "?").join(", ")})`,
      ...ids,
    );
    const byId = new Map(rows.filter((r) => !scope || scope.has(r.document_id)).map((r) => [r.id, r]));
    return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }
}
