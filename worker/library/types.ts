// The shapes a user's Library hands out: where a document is in its life, a
// chunk as stored (and handed to the indexer for its vector), a chunk as search returns it.
import type { DocumentStatus } from "../contract/documents";
import type { FileProgress } from "../contract/protocol";

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

/** A document a question names, as the chat shows it, with the upload key it was uploaded under. */
export interface NamedFile {
  fileId: string;
  fileName: string;
  status: DocumentState["status"];
  pagesDone: number;
  pagesTotal: number | null;
  error: string | null;
  uploadKey: string | null;
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
  /** the column heads of the table the chunk starts inside (chunker.ts) */
  columnHeads?: string;
  /** the labels of its table rows, one per line (chunker.ts) */
  rowLabels?: string;
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
  /** the column heads of the table the chunk starts inside, held by an earlier chunk of its page */
  column_heads: string | null;
}

/** What admitting a question asks of its asker's Library, in one call (chat/admission.ts). */
export interface AdmissionRequest {
  /** the day (UTC) the message counts on */
  day: string;
  /** the asker's signed-in session: when it was signed out, nothing is counted */
  askerSessionId: string | null;
  /** this user's signed-in sessions on the chat to check for sign-out (the asker's among them unless just read) */
  sessionIds: string[];
  /** the documents the question names or the chat keeps, and the upload key of a file it adds */
  files: { ids: string[]; uploadKey: string | null };
  /** search the named documents right away when every one is complete (no indexing to wait for), also when the question adds them */
  search?: { question: string; limit: number };
  /** the chat asking, which then watches the named documents (it hears of one deleted: watchers.ts) */
  watch?: { chatId: string; userId: string };
}

export interface AdmissionFacts {
  /** the day's messages, this one counted (0 when the asker was signed out) */
  messages: number;
  /** which of the sessions asked about were signed out */
  signedOut: string[];
  /** the named documents, or null when one of them is not known here (the catalogue decides) */
  files: NamedFile[] | null;
  /** the search's hits, when it ran */
  hits: ChunkHit[] | null;
  /** for a question over all the user's documents (it names none): those still being indexed, searched as far as they are */
  indexing: NamedFile[];
}

/**
 * What a chat asks to be told of (./watchers.ts): some documents by id (its chips), or
 * all of the user's (`current`: documents to answer as they are now, so nothing that
 * happened before the watch began is missed).
 */
export type WatchRequest = { documentIds: string[] } | { all: true; current?: string[] };

/**
 * What a user's Library tells a chat that watches their documents, and answers
 * when the chat starts watching: the documents it watches by id (all of them, as
 * they are now) and, for a watch over all documents, those that changed and
 * those still being indexed.
 */
export interface DocumentProgress {
  /** whose Library tells (whose documents these are) */
  userId: string;
  files: WatchedFile[];
  /** documents removed since the last push, each with the one that replaces it (a duplicate's original; null: none) */
  replaced?: Record<string, string | null>;
  /** with a watch over all documents: the user's documents still being indexed */
  indexing?: NamedFile[];
}

/** A watched document as its Library tells it, stamped with its last change (a chat keeps the newest it was told). */
export type WatchedFile = FileProgress & { updatedAt: number };

/** A chat's answer to a push: whether it still watches by id and all documents (else the Library forgets that watch). */
export interface KeepWatching {
  ids: boolean;
  all: boolean;
}
