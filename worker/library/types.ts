// The shapes a user's Library hands out: where a document is in its life, a
// chunk as stored (and handed to the indexer for its vector), a chunk as search returns it.
import type { DocumentStatus } from "../contract/documents";

/** Where a document is in its life, as My Files and the chat show it. */
export interface DocumentState {
  documentId: string;
  status: Exclude<DocumentStatus, "uploading">;
  pagesDone: number;
  pagesTotal: number | null;
  error: string | null;
  /** pages (1-based) that are pictures of text, waiting for recognition (status needs_ocr) */
  ocrPages: number[];
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
  /** from text recognised in the owner's browser (a scanned page), not the PDF's text layer */
  recognised?: boolean;
}

/** A chunk as search returns it. */
export interface ChunkHit {
  id: string;
  document_id: string;
  file_name: string;
  page: number;
  text: string;
  /** where the chunk sits in its page's normalised text (chunker.ts) */
  char_start: number;
  char_end: number;
  /** 1 when the text was recognised from a scanned page */
  recognised: number;
}
