// The chunks a document's pages are stored as: cut from each page's text alone (chunker.ts), and
// written to the Library's `chunks` table (its triggers keep the full-text indexes in step).
import { chunkPage } from "./chunker";
import type { SyncSql } from "./library-schema";
import type { IndexedChunk } from "./types";

/** Rows per INSERT: a Durable Object's SQLite binds at most 100 parameters to a statement (10 rows of 10 columns). */
const ROWS_PER_INSERT = 10;

/** A document's pages, from `firstPage` on, as the chunks the index stores (their text alone decides them). */
export function chunkPages(documentId: string, firstPage: number, texts: readonly string[]): IndexedChunk[] {
  return texts.flatMap((text, i) => {
    const page = firstPage + i;
    return chunkPage(text).map((c) => ({ ...c, id: `${documentId}:${page}:${c.ord}`, documentId, page }));
  });
}

/** Stores chunks as they are, in one transaction. */
export function storeChunks(sql: SyncSql, chunks: readonly IndexedChunk[]): void {
  sql.transaction(() => {
    for (let i = 0; i < chunks.length; i += ROWS_PER_INSERT) {
      const group = chunks.slice(i, i + ROWS_PER_INSERT);
      sql.rows(
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
