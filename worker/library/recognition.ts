// Text recognised in the owner's browser for a document's scanned pages (the pages that are
// pictures of text, listed when its text layer was read): which pages it may be for, and the
// chunks it makes. LibraryIndex.recognise stores them in place of the pages' own.
import { chunkPage } from "./chunker";
import type { DocumentRow } from "./document-rows";
import type { DocumentState, IndexedChunk } from "./types";

/** What recognised text for a document's scanned pages came to (POST /api/documents/:id/ocr-pages). */
export type RecognitionResult =
  | { ok: true; state: DocumentState; chunks: IndexedChunk[]; staleChunkIds: string[] }
  | { ok: false; reason: "unknown" | "not_waiting" }
  | { ok: false; reason: "page_not_listed"; page: number };

/**
 * The chunks of a document's recognised pages and the listed pages left waiting, or why it takes
 * none (it waits for no recognition, or a page is not on its list).
 */
export function recognisedPages(
  row: DocumentRow,
  pages: readonly { page: number; text: string }[],
): Extract<RecognitionResult, { ok: false }> | { ok: true; chunks: IndexedChunk[]; left: number[] } {
  const waiting = new Set(JSON.parse(row.ocr_pages) as number[]);
  if (!(row.status === "needs_ocr" || (row.status === "indexed" && waiting.size))) return { ok: false, reason: "not_waiting" };
  const stray = pages.find((p) => !waiting.has(p.page));
  if (stray) return { ok: false, reason: "page_not_listed", page: stray.page };
  const chunks = pages.flatMap(({ page, text }) =>
    chunkPage(text).map((c) => ({ ...c, id: `${row.id}:${page}:${c.ord}`, documentId: row.id, page, recognised: true })),
  );
  for (const { page } of pages) waiting.delete(page);
  return { ok: true, chunks, left: [...waiting].sort((a, b) => a - b) };
}
