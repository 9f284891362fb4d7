// Indexes one document: R2 bytes -> text per page -> chunks + FTS rows (and
// vectors when bound) -> `indexed`. Idempotent: it first removes whatever an
// earlier, interrupted attempt wrote, so a retry never duplicates chunks or vectors.
import { DOCUMENT_MESSAGES } from "../contract/documents";
import { getDb } from "../db/client";
import { quotaFor } from "../services/quotas";
import { deleteVectors, upsertChunkVectors, type ChunkForVector, type VectorBindings } from "../services/vectors";
import { chunkPage } from "./chunker";
import { extractPdfPages, IndexingFailure } from "./extract";

export interface IndexerDeps extends VectorBindings {
  DB: D1Database;
  DOCUMENTS: R2Bucket;
}

const ROWS_PER_INSERT = 12; // 8 columns x 12 rows stays under D1's 100 bound parameters
const STATEMENTS_PER_BATCH = 40;
const PAGES_PER_STEP = 50; // progress (indexed_pages) is written after each step

interface ChunkRow extends ChunkForVector {
  userId: string;
  ord: number;
  charStart: number;
  charEnd: number;
}

async function existingChunkIds(db: D1Database, documentId: string): Promise<string[]> {
  const { results } = await db.prepare("SELECT id FROM chunks WHERE document_id = ?").bind(documentId).all<{ id: string }>();
  return results.map((r) => r.id);
}

async function insertChunks(db: D1Database, rows: ChunkRow[]): Promise<void> {
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const group = rows.slice(i, i + ROWS_PER_INSERT);
    const sql = `INSERT INTO chunks (id, document_id, user_id, page, ord, text, char_start, char_end) VALUES ${group.map(() => "(?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}`;
    statements.push(
      db.prepare(sql).bind(...group.flatMap((r) => [r.id, r.documentId, r.userId, r.page, r.ord, r.text, r.charStart, r.charEnd])),
    );
  }
  for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) await db.batch(statements.slice(i, i + STATEMENTS_PER_BATCH));
}

export type IndexOutcome = "indexed" | "skipped";

/**
 * Throws IndexingFailure for problems a retry cannot fix (the caller marks the
 * document failed at once) and any other error for transient ones (retried).
 */
export async function indexDocument(deps: IndexerDeps, documentId: string): Promise<IndexOutcome> {
  const db = deps.DB;
  const doc = await db
    .prepare("SELECT id, user_id, r2_key, status FROM documents WHERE id = ?")
    .bind(documentId)
    .first<{ id: string; user_id: string; r2_key: string; status: string }>();
  // Deleted meanwhile, or already finished by an earlier delivery.
  if (!doc || doc.status === "indexed" || doc.status === "failed" || doc.status === "uploading") return "skipped";

  await db.prepare("UPDATE documents SET status = 'processing', error = NULL, indexed_pages = 0 WHERE id = ?").bind(documentId).run();

  // Clean up an interrupted earlier attempt (the FTS triggers follow the deletes).
  await deleteVectors(deps, await existingChunkIds(db, documentId));
  await db.prepare("DELETE FROM chunks WHERE document_id = ?").bind(documentId).run();

  const object = await deps.DOCUMENTS.get(doc.r2_key);
  if (!object) throw new IndexingFailure(DOCUMENT_MESSAGES.uploadMissing);
  const bytes = new Uint8Array(await object.arrayBuffer());

  const quota = await quotaFor(getDb(deps), doc.user_id);
  const { pageCount, pages } = await extractPdfPages(bytes, quota.maxPagesPerDocument);
  await db.prepare("UPDATE documents SET page_count = ? WHERE id = ?").bind(pageCount, documentId).run();

  for (let first = 0; first < pages.length; first += PAGES_PER_STEP) {
    const rows: ChunkRow[] = [];
    pages.slice(first, first + PAGES_PER_STEP).forEach((text, i) => {
      const page = first + i + 1;
      for (const chunk of chunkPage(text)) {
        rows.push({ id: `${documentId}:${page}:${chunk.ord}`, documentId, userId: doc.user_id, page, ...chunk });
      }
    });
    await insertChunks(db, rows);
    await upsertChunkVectors(deps, doc.user_id, rows);
    const done = Math.min(first + PAGES_PER_STEP, pages.length);
    await db.prepare("UPDATE documents SET indexed_pages = ? WHERE id = ?").bind(done, documentId).run();
  }

  await db.prepare("UPDATE documents SET status = 'indexed', error = NULL WHERE id = ? AND status = 'processing'").bind(documentId).run();
  return "indexed";
}

export async function markFailed(db: D1Database, documentId: string, reason: string): Promise<void> {
  await db.prepare("UPDATE documents SET status = 'failed', error = ? WHERE id = ?").bind(reason, documentId).run();
}
