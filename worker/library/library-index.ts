// One user's library: the lifecycle of each of their documents (pending ->
// processing -> indexed | failed, progress, indexing leases, removal), the
// chunks and the FTS5 index over them (only indexed documents are searched).
// It runs on any synchronous SQLite: the user's Library Durable Object in the
// product, and node:sqlite in the offline benchmark. Its schema and migrations
// are in ./library-schema.ts, the shapes it hands out in ./types.ts.
import { DOCUMENT_MESSAGES } from "../contract/documents";
import { askedFactKind, rowAnswers } from "../answer/question/fact-kind";
import { conceptMatchExpression, questionMatchPhrases } from "../answer/question/terms";
import { fuseByRank } from "../answer/ranking/rank-fusion";
import { rowLabelScore, rowQuestion } from "../answer/ranking/row-labels";
import { chunkPage } from "./chunker";
import { documentNames, namedDocuments } from "../answer/question/named-files";
import { migrate, type SyncSql } from "./library-schema";
import type { ChunkHit, DocumentState, IndexedChunk, NamedFile } from "./types";

export type { ChunkHit, DocumentState, IndexedChunk, NamedFile } from "./types";
export type { SqlParam, SyncSql } from "./library-schema";

/**
 * How much the search for the concept a question names counts beside the search for the whole
 * question (rank fusion). bench:offline: 0.3 put an evidence page first for 4 more FinanceBench
 * questions (8 -> 12/23) and changed no IRS figure; 0.5-1 lowered FinanceBench hit@5 or dev.
 */
const CONCEPT_WEIGHT = 0.3;

/**
 * How much the same search within the documents the question names (named-documents.ts) counts
 * beside it. bench:offline with SCOPE=all (every question over all 14 files): dev hit@5 69 -> 75/89,
 * FinanceBench 15 -> 20/23, held-out 33 -> 34/44; weight 1 gave less on every set.
 */
const NAMED_WEIGHT = 2;

/**
 * How much the search of table rows' labels (rowsNamed) counts beside the search of the whole
 * text (rank fusion). bench:offline, our filings questions (dev): hit@5 10 -> 14/14, fact in answer
 * 7 -> 13/14 with the row weight of the answer (row-labels.ts); IRS unchanged; weights below 1 cost
 * FinanceBench hit@1 (12 -> 9-11), 2 and up none.
 */
const ROW_LABEL_WEIGHT = 2;

/** A question naming no document has its rows looked for in the documents of this many of its best hits. */
const LABEL_DOCUMENT_HITS = 10;

/** Label matches read per chunk the search returns, to find those naming a row wholly among them. */
const LABEL_CANDIDATES = 3;

/** The full-text indexes: the chunks' whole text, and the labels of their table rows. */
type FullText = "chunks_fts" | "row_labels_fts";

/** A Library of fewer chunks searches every phrase of a question (see LibraryIndex.weighty). */
const COMMON_PHRASE_MIN_CHUNKS = 200;

/**
 * A pending or processing document with no progress for this long has lost its
 * indexer (a restart, a lost queue message): it is queued again, up to
 * MAX_RECOVERIES times, then failed. Progress renews the lease at least every 100 pages or 2 s (indexer.ts).
 */
export const INDEXING_LEASE_MS = 90 * 1000;
export const MAX_RECOVERIES = 3;

/** Rows per INSERT: a Durable Object's SQLite binds at most 100 parameters to a statement (10 rows of 10 columns). */
const ROWS_PER_INSERT = 10;
const ACTIVE = "('pending', 'processing')";

interface DocumentRow {
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

const toState = (row: DocumentRow): DocumentState => ({
  documentId: row.id,
  status: row.status as DocumentState["status"],
  pagesDone: row.pages_done,
  pagesTotal: row.pages_total,
  error: row.error,
  ocrPages: JSON.parse(row.ocr_pages) as number[],
});

/** What recognised text for a document's scanned pages came to (POST /api/documents/:id/ocr-pages). */
export type RecognitionResult =
  | { ok: true; state: DocumentState; chunks: IndexedChunk[]; staleChunkIds: string[] }
  | { ok: false; reason: "unknown" | "not_waiting" }
  | { ok: false; reason: "page_not_listed"; page: number };

/**
 * What a search reads: every document as far as it is indexed (those whose scanned
 * pages still wait for recognition included: their text pages are done), or a chat's
 * own documents as far as they are. An answer that used a document still being
 * indexed says so (chat/turn.ts).
 */
const searchable = (ids: readonly string[] | null, idColumn = "c.document_id") =>
  `d.status IN ('indexed', 'needs_ocr', 'processing')${ids ? ` AND ${idColumn} IN (${ids.map(() => "?").join(", ")})` : ""}`;

const DOCUMENT_COLUMNS = "id, file_name, status, run_id, attempts, pages_done, pages_total, error, updated_at, ocr_pages";
const NAMED_FILE_COLUMNS =
  "id AS fileId, file_name AS fileName, status, pages_done AS pagesDone, pages_total AS pagesTotal, error, upload_key AS uploadKey";
const HIT_COLUMNS = "c.id, c.document_id, d.file_name, c.page, c.text, c.char_start, c.char_end, c.recognised, c.column_heads";

/** A document's pages, from `firstPage` on, as the chunks the index stores (their text alone decides them). */
export function chunkPages(documentId: string, firstPage: number, texts: readonly string[]): IndexedChunk[] {
  return texts.flatMap((text, i) => {
    const page = firstPage + i;
    return chunkPage(text).map((c) => ({ ...c, id: `${documentId}:${page}:${c.ord}`, documentId, page }));
  });
}

/**
 * Each page's first place goes to its chunk holding the row the question names best (`rowScores`,
 * LibraryIndex.rowsNamed), when another of its chunks ranks first: a page is answered from one
 * chunk, and the one discussing "revenue" in prose would stand for the statement above it.
 */
function namedRowsFirst(hits: ChunkHit[], rowScores: ReadonlyMap<string, number>): ChunkHit[] {
  const byPage = new Map<string, ChunkHit[]>();
  for (const hit of hits) {
    const page = `${hit.document_id}:${hit.page}`;
    byPage.set(page, [...(byPage.get(page) ?? []), hit]);
  }
  const order = [...hits];
  for (const chunks of byPage.values()) {
    const best = chunks.reduce((a, b) => ((rowScores.get(b.id) ?? 0) > (rowScores.get(a.id) ?? 0) ? b : a));
    if (best === chunks[0]) continue;
    const [first, at] = [order.indexOf(chunks[0]!), order.indexOf(best)];
    [order[first], order[at]] = [best, chunks[0]!];
  }
  return order;
}

export class LibraryIndex {
  /** the Library's chunk count and how many chunks hold each phrase searched; cleared by every write to the chunks */
  private phraseCounts: { chunks: number; holding: Map<string, number> } | null = null;

  constructor(
    private readonly sql: SyncSql,
    private readonly now: () => number = Date.now,
  ) {
    migrate(sql);
  }

  private row(documentId: string): DocumentRow | undefined {
    return this.sql.rows<DocumentRow>(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = ?`, documentId)[0];
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

  /**
   * The documents a question names, by id and by the upload key of its own upload,
   * as the chat shows them; null when one of them is not known here (a document
   * still uploading, a duplicate's upload key, a removed one): the catalogue decides.
   */
  namedFiles(ids: readonly string[], uploadKey: string | null): NamedFile[] | null {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0 && !uploadKey) return [];
    const rows = this.sql.rows<NamedFile & { status: DocumentRow["status"] }>(
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
  indexingFiles(): NamedFile[] {
    return this.sql.rows<NamedFile>(`SELECT ${NAMED_FILE_COLUMNS} FROM documents WHERE status IN ${ACTIVE} ORDER BY rowid`);
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
      this.phraseCounts = null;
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
    this.sql.transaction(() => {
      for (let i = 0; i < chunks.length; i += ROWS_PER_INSERT) {
        const group = chunks.slice(i, i + ROWS_PER_INSERT);
        this.phraseCounts = null;
        this.sql.rows(
          `INSERT INTO chunks (id, document_id, page, ord, text, char_start, char_end, recognised, column_heads, row_labels) VALUES ${group.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
          ...group.flatMap((c) => [
            c.id,
            c.documentId,
            c.page,
            c.ord,
            c.text,
            c.charStart,
            c.charEnd,
            c.recognised ? 1 : 0,
            c.columnHeads ?? null,
            c.rowLabels ?? null,
          ]),
        );
      }
    });
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
    const waiting = new Set(JSON.parse(row.ocr_pages) as number[]);
    if (!(row.status === "needs_ocr" || (row.status === "indexed" && waiting.size))) return { ok: false, reason: "not_waiting" };
    const stray = pages.find((p) => !waiting.has(p.page));
    if (stray) return { ok: false, reason: "page_not_listed", page: stray.page };
    const chunks = pages.flatMap(({ page, text }) =>
      chunkPage(text).map((c) => ({ ...c, id: `${documentId}:${page}:${c.ord}`, documentId, page, recognised: true })),
    );
    for (const { page } of pages) waiting.delete(page);
    const left = [...waiting].sort((a, b) => a - b);
    // the recognised text replaces what little the page's text layer had (a stray mark, a page number)
    const onPages = `document_id = ? AND page IN (${pages.map(() => "?").join(", ")})`;
    const pageNumbers = pages.map((p) => p.page);
    const staleChunkIds = this.sql
      .rows<{ id: string }>(`SELECT id FROM chunks WHERE ${onPages}`, documentId, ...pageNumbers)
      .map((r) => r.id);
    this.sql.transaction(() => {
      this.phraseCounts = null;
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
      this.phraseCounts = null;
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
    const lost = this.sql.rows<DocumentRow>(
      `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE status IN ${ACTIVE} AND updated_at < ?`,
      this.now() - INDEXING_LEASE_MS,
    );
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
    const oldest = this.sql.rows<{ at: number | null }>(`SELECT MIN(updated_at) AS at FROM documents WHERE status IN ${ACTIVE}`)[0]?.at;
    return oldest == null ? null : oldest + INDEXING_LEASE_MS;
  }

  /** Removes a document's chunks and leaves a nameless tombstone; returns the chunk ids (for its vectors). */
  remove(documentId: string): string[] {
    const ids = this.chunkIds(documentId);
    this.sql.transaction(() => {
      this.phraseCounts = null;
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

  /**
   * The keyword search over the complete documents, or over `documentIds` (complete, or the pages
   * done so far), best first: the question's terms and the other phrasings of what it names, fused
   * with a search for that concept alone (CONCEPT_WEIGHT).
   */
  search(question: string, documentIds: readonly string[] | null, limit: number): ChunkHit[] {
    const phrases = questionMatchPhrases(question);
    if (phrases.length === 0) return [];
    const weighty = this.weighty(phrases);
    let hits = this.matching(weighty.join(" OR "), documentIds, limit);
    // fewer than asked: the chunks holding only common phrases follow, as the whole question ranks them
    if (weighty.length < phrases.length && hits.length < limit) hits = this.matching(phrases.join(" OR "), documentIds, limit);
    // the concept the question names (glossary.ts), searched alone in all its phrasings: among a
    // long question's many terms ("FY2018", "amount", "USD", "millions"...) the chunk naming it
    // ("Purchases of property, plant and equipment") can rank low
    const concept = conceptMatchExpression(question);
    if (concept) hits = fuseByRank([hits, this.matching(concept, documentIds, limit)], undefined, [1, CONCEPT_WEIGHT]).slice(0, limit);
    // the documents the question names by name ("my W-9", "3M's"), searched alone: in a chat over
    // many files, the others that mention the same form or company would outrank them
    // (the files' names are read only for a question that names something: most name nothing)
    const names = documentNames(question);
    const documents = names.length ? this.searchableDocuments(documentIds) : [];
    const named = namedDocuments(names, documents);
    // the table rows the question names by their labels: a statement's "Revenue" or "Total assets"
    // row, on a page of figures that names it once, ranks low by its whole text. Only in the
    // documents the question names, else in those its best hits are from: every filing has a
    // "Revenue" row, and a tax question's "taxable income" is no row of a 10-K's
    const rowsIn = named.length
      ? documents.filter((d) => named.includes(d.id))
      : [
          ...new Map(
            hits.slice(0, LABEL_DOCUMENT_HITS).map((h) => [h.document_id, { id: h.document_id, file_name: h.file_name }]),
          ).values(),
        ];
    const labelled = rowsIn.length && rowAnswers(askedFactKind(question)) ? this.rowsNamed(question, rowsIn, limit) : [];
    // one fusion of the three, the rows weighing against the whole text of the documents they are
    // in as in a chat about one file: the named documents' whole text counts in both text searches
    const lists: { hits: ChunkHit[]; weight: number }[] = [{ hits, weight: 1 }];
    const wholeText = 1 + (named.length ? NAMED_WEIGHT : 0);
    if (labelled.length) lists.push({ hits: labelled.map((l) => l.hit), weight: ROW_LABEL_WEIGHT * wholeText });
    if (named.length) lists.push({ hits: this.matching(weighty.join(" OR "), named, limit), weight: NAMED_WEIGHT });
    if (lists.length > 1)
      hits = fuseByRank(
        lists.map((l) => l.hits),
        undefined,
        lists.map((l) => l.weight),
      ).slice(0, limit);
    return labelled.length ? namedRowsFirst(hits, new Map(labelled.map((l) => [l.hit.id, l.score]))) : hits;
  }

  /**
   * The chunks with a table row the question names (row-labels.ts), the most wholly named first:
   * among those whose labels hold any of the question's row words.
   */
  private rowsNamed(
    question: string,
    documents: readonly { id: string; file_name: string }[],
    limit: number,
  ): { hit: ChunkHit; score: number }[] {
    const asked = rowQuestion(
      question,
      documents.map((d) => d.file_name),
    );
    const words = [...new Set([...asked.stems, ...asked.concepts.flat(2)])];
    if (words.length === 0) return [];
    const match = words.map((stemmed) => `"${stemmed}"*`).join(" OR ");
    return this.matching<ChunkHit & { row_labels: string }>(
      match,
      documents.map((d) => d.id),
      limit * LABEL_CANDIDATES,
      "row_labels_fts",
      `${HIT_COLUMNS}, c.row_labels`,
    )
      .map(({ row_labels, ...hit }) => ({ hit, score: rowLabelScore(row_labels, asked) }))
      .filter((h) => h.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  }

  /** The documents a search over `documentIds` (or the whole Library) reads, with their file names. */
  private searchableDocuments(documentIds: readonly string[] | null): { id: string; file_name: string }[] {
    const ids = documentIds?.length ? documentIds : null;
    if (ids?.length === 1) return [];
    return this.sql.rows<{ id: string; file_name: string }>(
      `SELECT d.id, d.file_name FROM documents d WHERE ${searchable(ids, "d.id")}`,
      ...(ids ?? []),
    );
  }

  /**
   * The phrases BM25 gives a weight: FTS5 floors the weight of a phrase found in half of the
   * Library's chunks or more to nothing ("tax" in Pub 17), yet matching it makes the search score
   * nearly every chunk. Those are left out while another phrase remains: the same order but for
   * ties, in a third less time over Pub 17 (search falls back to every phrase when the others find
   * too few chunks). A small Library keeps every phrase: its few chunks are cheap to score.
   */
  private weighty(phrases: readonly string[]): string[] {
    this.phraseCounts ??= { chunks: this.sql.rows<{ n: number }>("SELECT count(*) AS n FROM chunks")[0]!.n, holding: new Map() };
    const { chunks, holding } = this.phraseCounts;
    if (chunks < COMMON_PHRASE_MIN_CHUNKS) return [...phrases];
    if (holding.size > 1000) holding.clear(); // a long-lived Library asked many different questions
    const count = (phrase: string) => {
      if (!holding.has(phrase))
        holding.set(phrase, this.sql.rows<{ n: number }>("SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?", phrase)[0]!.n);
      return holding.get(phrase)!;
    };
    const weighty = phrases.filter((phrase) => count(phrase) * 2 < chunks);
    return weighty.length ? weighty : [...phrases];
  }

  /**
   * BM25 of a MATCH expression, best first.
   * CROSS JOIN keeps the full-text index as the outer loop: with a plain JOIN SQLite may walk the
   * document's chunks and run the MATCH once per chunk (80 ms instead of under 1 ms on a 100-page PDF).
   * The best `limit` are chosen first and only they are read whole: sorting every match with its
   * text made a search over Pub 17 (1,237 chunks, ~1,000 matching) ~20% slower.
   */
  private matching<T = ChunkHit>(
    match: string,
    documentIds: readonly string[] | null,
    limit: number,
    over: FullText = "chunks_fts",
    columns = HIT_COLUMNS,
  ): T[] {
    const ids = documentIds?.length ? documentIds : null;
    return this.sql.rows<T>(
      `SELECT ${columns}
       FROM (SELECT ${over}.rowid AS hit, bm25(${over}) AS score
             FROM ${over}
             CROSS JOIN chunks c ON c.rowid = ${over}.rowid
             CROSS JOIN documents d ON d.id = c.document_id
             WHERE ${over} MATCH ? AND ${searchable(ids)}
             ORDER BY score ASC
             LIMIT ?) best
       CROSS JOIN chunks c ON c.rowid = best.hit
       CROSS JOIN documents d ON d.id = c.document_id
       ORDER BY best.score ASC`,
      match,
      ...(ids ?? []),
      Math.floor(limit),
    );
  }

  /** The chunks with these ids that `search` could have found (same scope), in the order asked. */
  chunks(ids: readonly string[], documentIds: readonly string[] | null): ChunkHit[] {
    if (ids.length === 0) return [];
    const scope = documentIds?.length ? documentIds : null;
    const rows = this.sql.rows<ChunkHit>(
      `SELECT ${HIT_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document_id
       WHERE ${searchable(scope)} AND c.id IN (${ids.map(() => "?").join(", ")})`,
      ...(scope ?? []),
      ...ids,
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }
}
