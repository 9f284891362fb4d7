// One user's search index: the chunks of their documents, the FTS5 index over
// them and which documents are complete (only those are searched). It runs on
// any synchronous SQLite: the user's Library Durable Object in the product, and
// node:sqlite in the offline benchmark. The schema is versioned here.
import { ftsMatchExpression } from "../services/text";

export type SqlParam = string | number | null;

/** A synchronous SQLite: one statement, its parameters, its rows. */
export interface SyncSql {
  rows<T>(query: string, ...params: SqlParam[]): T[];
  transaction(fn: () => void): void;
}

/** A chunk as the indexer hands it over. */
export interface IndexedChunk {
  id: string;
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

const SCHEMA_VERSION = 1;
const ROWS_PER_INSERT = 12;

const SCHEMA_V1 = [
  `CREATE TABLE IF NOT EXISTS documents (
    id TEXT PRIMARY KEY,
    file_name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('processing', 'indexed'))
  )`,
  `CREATE TABLE IF NOT EXISTS chunks (
    rowid INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    document_id TEXT NOT NULL,
    page INTEGER NOT NULL,
    ord INTEGER NOT NULL,
    text TEXT NOT NULL,
    char_start INTEGER NOT NULL,
    char_end INTEGER NOT NULL
  )`,
  "CREATE INDEX IF NOT EXISTS chunks_document_idx ON chunks (document_id)",
  `CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(text, content='chunks', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2')`,
  `CREATE TRIGGER IF NOT EXISTS chunks_fts_after_insert AFTER INSERT ON chunks BEGIN
    INSERT INTO chunks_fts(rowid, text) VALUES (new.rowid, new.text);
  END`,
  `CREATE TRIGGER IF NOT EXISTS chunks_fts_after_delete AFTER DELETE ON chunks BEGIN
    INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
  END`,
  `CREATE TRIGGER IF NOT EXISTS chunks_fts_after_update AFTER UPDATE ON chunks BEGIN
    INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
    INSERT INTO chunks_fts(rowid, text) VALUES (new.rowid, new.text);
  END`,
];

export class LibraryIndex {
  constructor(private readonly sql: SyncSql) {
    sql.rows("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
    const version = sql.rows<{ version: number }>("SELECT version FROM schema_version")[0]?.version ?? 0;
    if (version < SCHEMA_VERSION) {
      sql.transaction(() => {
        for (const statement of SCHEMA_V1) sql.rows(statement);
        sql.rows("DELETE FROM schema_version");
        sql.rows("INSERT INTO schema_version (version) VALUES (?)", SCHEMA_VERSION);
      });
    }
  }

  /**
   * A document starts (or restarts) indexing: whatever an earlier attempt wrote is
   * removed, so a retry never duplicates. Returns the removed chunk ids (their vectors go too).
   */
  begin(documentId: string, fileName: string): string[] {
    const stale = this.chunkIds(documentId);
    this.sql.transaction(() => {
      this.sql.rows("DELETE FROM chunks WHERE document_id = ?", documentId);
      this.sql.rows(
        "INSERT INTO documents (id, file_name, status) VALUES (?, ?, 'processing') ON CONFLICT(id) DO UPDATE SET file_name = excluded.file_name, status = 'processing'",
        documentId,
        fileName,
      );
    });
    return stale;
  }

  addChunks(documentId: string, chunks: readonly IndexedChunk[]): void {
    this.sql.transaction(() => {
      for (let i = 0; i < chunks.length; i += ROWS_PER_INSERT) {
        const group = chunks.slice(i, i + ROWS_PER_INSERT);
        this.sql.rows(
          `INSERT INTO chunks (id, document_id, page, ord, text, char_start, char_end) VALUES ${group.map(() => "(?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
          ...group.flatMap((c) => [c.id, documentId, c.page, c.ord, c.text, c.charStart, c.charEnd]),
        );
      }
    });
  }

  /** The document is complete: from now on its chunks are searched. */
  finish(documentId: string): void {
    this.sql.rows("UPDATE documents SET status = 'indexed' WHERE id = ?", documentId);
  }

  /** Removes a document's chunks and index rows; returns the chunk ids (for its vectors). */
  remove(documentId: string): string[] {
    const ids = this.chunkIds(documentId);
    this.sql.transaction(() => {
      this.sql.rows("DELETE FROM chunks WHERE document_id = ?", documentId);
      this.sql.rows("DELETE FROM documents WHERE id = ?", documentId);
    });
    return ids;
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
