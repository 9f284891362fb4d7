// Indexes one document: R2 bytes -> text per page -> chunks into the owner's
// Library (its FTS index follows), vectors when bound -> `indexed`. Idempotent:
// it first removes whatever an earlier, interrupted attempt wrote, so a retry
// never duplicates chunks or vectors.
import { DOCUMENT_MESSAGES } from "../contract/documents";
import { getDb } from "../db/client";
import { quotaFor } from "../services/quotas";
import { deleteVectors, upsertChunkVectors, type ChunkForVector, type VectorBindings } from "../services/vectors";
import type { IndexedChunk } from "../library/library-index";
import { library, type LibraryBinding } from "../library/stub";
import { chunkPage } from "./chunker";
import { extractPdfPages, IndexingFailure } from "./extract";

export interface IndexerDeps extends VectorBindings, LibraryBinding {
  DB: D1Database;
  DOCUMENTS: R2Bucket;
}

const PAGES_PER_STEP = 50; // progress (indexed_pages) is written after each step

interface ChunkRow extends ChunkForVector, IndexedChunk {}

export type IndexOutcome = "indexed" | "skipped";

/**
 * Throws IndexingFailure for problems a retry cannot fix (the caller marks the
 * document failed at once) and any other error for transient ones (retried).
 */
export async function indexDocument(deps: IndexerDeps, documentId: string): Promise<IndexOutcome> {
  const db = deps.DB;
  const doc = await db
    .prepare("SELECT id, user_id, file_name, r2_key, status FROM documents WHERE id = ?")
    .bind(documentId)
    .first<{ id: string; user_id: string; file_name: string; r2_key: string; status: string }>();
  // Deleted meanwhile, or already finished by an earlier delivery.
  if (!doc || doc.status === "indexed" || doc.status === "failed" || doc.status === "uploading") return "skipped";

  await db.prepare("UPDATE documents SET status = 'processing', error = NULL, indexed_pages = 0 WHERE id = ?").bind(documentId).run();

  // Clean up an interrupted earlier attempt.
  const userLibrary = library(deps, doc.user_id);
  await deleteVectors(deps, await userLibrary.begin(documentId, doc.file_name));

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
        rows.push({ id: `${documentId}:${page}:${chunk.ord}`, documentId, page, ...chunk });
      }
    });
    await userLibrary.addChunks(documentId, rows);
    await upsertChunkVectors(deps, doc.user_id, rows);
    const done = Math.min(first + PAGES_PER_STEP, pages.length);
    await db.prepare("UPDATE documents SET indexed_pages = ? WHERE id = ?").bind(done, documentId).run();
  }

  const done = await db
    .prepare("UPDATE documents SET status = 'indexed', error = NULL WHERE id = ? AND status = 'processing'")
    .bind(documentId)
    .run();
  if (done.meta.changes === 0) {
    // deleted (or given up on) while it was being indexed: leave nothing behind
    await deleteVectors(deps, await userLibrary.remove(documentId));
    return "skipped";
  }
  await userLibrary.finish(documentId);
  return "indexed";
}

export async function markFailed(db: D1Database, documentId: string, reason: string): Promise<void> {
  await db.prepare("UPDATE documents SET status = 'failed', error = ? WHERE id = ?").bind(reason, documentId).run();
}
