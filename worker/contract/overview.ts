// A document's overview (GET /api/documents/:fileId/overview), shared by the Worker and the
// chat's "Document overview" card.

/** One entry of a document's outline: its bookmark (or heading), the page it opens at (1-based), 1 or 2. */
export interface OutlineEntry {
  title: string;
  page: number;
  level: number;
}

export interface DocumentOverview {
  pages: number;
  outline: OutlineEntry[];
  summary: string;
  questions: string[];
}

/** Entries kept: a long PDF's outline is a table of contents, not the whole index. */
export const OUTLINE_MAX_ENTRIES = 150;
export const OUTLINE_MAX_LEVEL = 2;

export const OVERVIEW_MESSAGES = {
  indexing: "This file is still being indexed. Its overview is ready when indexing finishes.",
  failed: "This file could not be indexed, so it has no overview.",
} as const;
