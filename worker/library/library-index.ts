// One user's library: the lifecycle of each of their documents (pending ->
// processing -> indexed | failed, progress, indexing leases, removal), the
// chunks and the FTS5 index over them (only indexed documents are searched).
// It runs on any synchronous SQLite: the user's Library Durable Object in the
// product, and node:sqlite in the offline benchmark. Its schema and migrations
// are in ./library-schema.ts, the shapes it hands out in ./types.ts; the
// searches of the full-text index in ./full-text.ts, which of them a question
// calls for in answer/ranking/keyword-search.ts.
import { DOCUMENT_MESSAGES } from "../contract/documents";
import { keywordSearch } from "../answer/ranking/keyword-search";
import { storeChunks } from "./chunk-store";
import { documentRow, indexingFiles, namedFiles, toState, type DocumentRow } from "./document-rows";
import { FullTextIndex } from "./full-text";
import { INDEXING_LEASE_MS, lostDocuments, MAX_RECOVERIES, nextLeaseDeadline } from "./indexing-lease";
import { migrate, type SyncSql } from "./library-schema";
import { recognisedPages, type RecognitionResult } from "./recognition";
import type { ChunkHit, DocumentState, IndexedChunk, NamedFile } from "./types";

export type { ChunkHit, DocumentState, IndexedChunk, NamedFile } from "./types";
export type { SqlParam, SyncSql } from "./library-schema";
export { chunkPages } from "./chunk-store";
export type { RecognitionResult } from "./recognition";
export { INDEXING_LEASE_MS, MAX_RECOVERIES } from "./indexing-lease";

export class LibraryIndex {
  /** the full-text indexes of the chunks, told of every write to them */
  private readonly fullText: FullTextIndex;

  constructor(
    private readonly sql: SyncSql,
    private readonly now: () => number = Date.now,
  ) {
    migrate(sql);
    this.fullText = new FullTextIndex(sql);
  }

  private row(documentId: string): DocumentRow | undefined {
    return documentRow(this.sql, documentId);
  }

  private state(documentId: string): DocumentState {
    return toState(this.row(documentId)!);
  }

  /**
   * A validated upload waits for the indexer (also: indexed again from the start; its
   * upload key is kept when none is given). Null for a removed document.
   */
  enqueue(documentId: string, fileName: string, uploadKey: string | null = null): DocumentState | null {
    if (this.row(documentId)?.status === "removed") return null;
    this.sql.rows(
      `INSERT INTO documents (id, file_name, status, updated_at, upload_key) VALUES (?, ?, 'pending', ?, ?)
       ON CONFLICT(id) DO UPDATE SET file_name = excluded.file_name, status = 'pending', run_id = NULL, attempts = 0,
         pages_done = 0, pages_total = NULL, error = NULL, ocr_pages = '[]', updated_at = excluded.updated_at,
         upload_key = COALESCE(excluded.upload_key, upload_key)`,
      documentId,
      fileName,
      this.now(),
      uploadKey,
    );
    return this.state(documentId);
  }

  /** The documents a question names, as the chat shows them, or null when one is not known here (document-rows.ts). */
  namedFiles(ids: readonly string[], uploadKey: string | null): NamedFile[] | null {
    return namedFiles(this.sql, ids, uploadKey);
  }

  /** The documents still being indexed, oldest first. */
  indexingFiles(): NamedFile[] {
    return indexingFiles(this.sql);
  }

  /**
   * An indexer run takes a pending document, or a processing one whose run lost its
   * lease. Whatever an earlier run wrote is removed, so a retry never duplicates.
   * Returns the run's id (every later step names it) and the removed chunk ids
   * (their vectors go too), or null when there is nothing to take (finished,
   * failed, removed, unknown, or another run holds it).
   */
  begin(documentId: string): { state: DocumentState; runId: string; staleChunkIds: string[] } | null {
    const row = this.row(documentId);
    const leaseLost = row?.status === "processing" && row.updated_at < this.now() - INDEXING_LEASE_MS;
    if (!row || !(row.status === "pending" || leaseLost)) return null;
    const runId = crypto.randomUUID();
    const staleChunkIds = this.chunkIds(documentId);
    this.sql.transaction(() => {
      this.fullText.changed([documentId]);
      this.sql.rows("DELETE FROM chunks WHERE document_id = ?", documentId);
      this.sql.rows(
        "UPDATE documents SET status = 'processing', run_id = ?, pages_done = 0, pages_total = NULL, error = NULL, ocr_pages = '[]', updated_at = ? WHERE id = ?",
        runId,
        this.now(),
        documentId,
      );
    });
    return { state: this.state(documentId), runId, staleChunkIds };
  }

  /** The run still holds the document (it is processing, under this run). */
  private holds(documentId: string, runId: string): boolean {
    const row = this.row(documentId);
    return row?.status === "processing" && row.run_id === runId;
  }

  /** A run that hit a passing problem hands the document back, to be taken again by the retry. */
  release(documentId: string, runId: string): DocumentState | null {
    if (!this.holds(documentId, runId)) return null;
    this.sql.rows("UPDATE documents SET status = 'pending', run_id = NULL, updated_at = ? WHERE id = ?", this.now(), documentId);
    return this.state(documentId);
  }

  /** The page count is known (extraction done). */
  setPageCount(documentId: string, runId: string, pagesTotal: number): DocumentState | null {
    if (!this.holds(documentId, runId)) return null;
    this.sql.rows("UPDATE documents SET pages_total = ?, updated_at = ? WHERE id = ?", pagesTotal, this.now(), documentId);
    return this.state(documentId);
  }

  /**
   * Indexes the chunks of the next `pageCount` pages (`firstPage` is 1-based; chunkPages) of a
   * processing document and records the progress. Returns the chunks (for their vectors), or null
   * when this run no longer holds the document (removed, failed, or taken over after its lease
   * expired). The Library chunks a step and stores it in two turns, so a request runs between.
   */
  addPageChunks(
    documentId: string,
    runId: string,
    firstPage: number,
    pageCount: number,
    chunks: IndexedChunk[],
  ): { state: DocumentState; chunks: IndexedChunk[] } | null {
    if (!this.holds(documentId, runId)) return null;
    this.sql.transaction(() => {
      this.addChunks(chunks);
      this.sql.rows("UPDATE documents SET pages_done = ?, updated_at = ? WHERE id = ?", firstPage - 1 + pageCount, this.now(), documentId);
    });
    return { state: this.state(documentId), chunks };
  }

  /** Stores chunks as they are (the offline benchmark's ablations hand in their own). */
  addChunks(chunks: readonly IndexedChunk[]): void {
    this.fullText.changed([...new Set(chunks.map((c) => c.documentId))]);
    storeChunks(this.sql, chunks);
  }

  /**
   * The text layer is read: from now on the document's chunks are searched.
   * `ocrPages` (pages that are pictures of text) wait for recognition: as
   * needs_ocr when the document has too little text of its own (`textTooFew`),
   * else it is indexed and they are recognised when its owner asks.
   * Null when this run no longer holds it.
   */
  finish(documentId: string, runId: string, ocrPages: readonly number[] = [], textTooFew = false): DocumentState | null {
    if (!this.holds(documentId, runId)) return null;
    this.sql.rows(
      "UPDATE documents SET status = ?, run_id = NULL, error = NULL, ocr_pages = ?, updated_at = ? WHERE id = ?",
      ocrPages.length && textTooFew ? "needs_ocr" : "indexed",
      JSON.stringify(ocrPages),
      this.now(),
      documentId,
    );
    return this.state(documentId);
  }

  /**
   * Indexes text recognised in the owner's browser for some of a document's
   * listed pages (needs_ocr, or indexed with scanned pages left) (empty text: nothing was recognised there) and takes
   * them off the list. When none is left the document is indexed, or failed when
   * it holds no text at all. Every page must be on the list, or nothing changes.
   */
  recognise(documentId: string, pages: readonly { page: number; text: string }[]): RecognitionResult {
    const row = this.row(documentId);
    if (!row || row.status === "removed") return { ok: false, reason: "unknown" };
    const recognised = recognisedPages(row, pages);
    if (!recognised.ok) return recognised;
    const { chunks, left } = recognised;
    // the recognised text replaces what little the page's text layer had (a stray mark, a page number)
    const onPages = `document_id = ? AND page IN (${pages.map(() => "?").join(", ")})`;
    const pageNumbers = pages.map((p) => p.page);
    const staleChunkIds = this.sql
      .rows<{ id: string }>(`SELECT id FROM chunks WHERE ${onPages}`, documentId, ...pageNumbers)
      .map((r) => r.id);
    this.sql.transaction(() => {
      this.fullText.changed([documentId]);
      this.sql.rows(`DELETE FROM chunks WHERE ${onPages}`, documentId, ...pageNumbers);
      this.addChunks(chunks);
      this.sql.rows("UPDATE documents SET ocr_pages = ?, updated_at = ? WHERE id = ?", JSON.stringify(left), this.now(), documentId);
    });
    if (left.length === 0) {
      const hasText = this.sql.rows("SELECT 1 FROM chunks WHERE document_id = ? LIMIT 1", documentId).length > 0;
      if (!hasText) {
        this.fail(documentId, row.file_name, DOCUMENT_MESSAGES.nothingRecognised);
        return { ok: true, state: this.state(documentId), chunks: [], staleChunkIds };
      }
      this.sql.rows("UPDATE documents SET status = 'indexed', updated_at = ? WHERE id = ?", this.now(), documentId);
    }
    return { ok: true, state: this.state(documentId), chunks, staleChunkIds };
  }

  /**
   * The document cannot be indexed, for `reason`: its chunks go and it is never
   * searched. Returns the removed chunk ids (for their vectors), or null for a removed document.
   */
  fail(documentId: string, fileName: string, reason: string): { state: DocumentState; staleChunkIds: string[] } | null {
    if (this.row(documentId)?.status === "removed") return null;
    const staleChunkIds = this.chunkIds(documentId);
    this.sql.transaction(() => {
      this.fullText.changed([documentId]);
      this.sql.rows("DELETE FROM chunks WHERE document_id = ?", documentId);
      this.sql.rows(
        `INSERT INTO documents (id, file_name, status, error, updated_at) VALUES (?, ?, 'failed', ?, ?)
         ON CONFLICT(id) DO UPDATE SET status = 'failed', run_id = NULL, error = excluded.error, ocr_pages = '[]', updated_at = excluded.updated_at`,
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

  /**
   * Documents whose lease expired (no progress for INDEXING_LEASE_MS: the run or
   * its queue message was lost) go back to pending to be queued again, up to
   * MAX_RECOVERIES times; after that they are failed. Returns both lists.
   */
  recoverLost(): { requeued: DocumentState[]; failed: { state: DocumentState; staleChunkIds: string[] }[] } {
    const lost = lostDocuments(this.sql, this.now());
    const requeued: DocumentState[] = [];
    const failed: { state: DocumentState; staleChunkIds: string[] }[] = [];
    for (const row of lost) {
      if (row.attempts >= MAX_RECOVERIES) {
        failed.push(this.fail(row.id, row.file_name, DOCUMENT_MESSAGES.indexingTimedOut)!);
        continue;
      }
      this.sql.rows(
        "UPDATE documents SET status = 'pending', run_id = NULL, attempts = attempts + 1, updated_at = ? WHERE id = ?",
        this.now(),
        row.id,
      );
      requeued.push(this.state(row.id));
    }
    return { requeued, failed };
  }

  /** When the next lease of a pending or processing document expires (null when none is active). */
  nextLeaseDeadline(): number | null {
    return nextLeaseDeadline(this.sql);
  }

  /** Removes a document's chunks and leaves a nameless tombstone; returns the chunk ids (for its vectors). */
  remove(documentId: string): string[] {
    const ids = this.chunkIds(documentId);
    this.sql.transaction(() => {
      this.fullText.changed([documentId]);
      this.sql.rows("DELETE FROM chunks WHERE document_id = ?", documentId);
      this.sql.rows(
        `INSERT INTO documents (id, file_name, status, updated_at) VALUES (?, '', 'removed', ?)
         ON CONFLICT(id) DO UPDATE SET file_name = '', status = 'removed', pages_done = 0, pages_total = NULL, error = NULL, ocr_pages = '[]', updated_at = excluded.updated_at`,
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

  /** The keyword search of a question over the complete documents, or over `documentIds` (keyword-search.ts). */
  search(question: string, documentIds: readonly string[] | null, limit: number): ChunkHit[] {
    return keywordSearch(this.fullText, question, documentIds, limit);
  }

  /** The chunks with these ids that `search` could have found (same scope), in the order asked. */
  chunks(ids: readonly string[], documentIds: readonly string[] | null): ChunkHit[] {
    return this.fullText.chunks(ids, documentIds);
  }
}
