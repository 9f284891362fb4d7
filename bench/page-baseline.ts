// The retrieval benchmark's baseline (bench/retrieval.ts): page-level FTS5 BM25 over the same
// files (one row per page, the naive OR-of-all-words query).
import { DatabaseSync } from "node:sqlite";
import { extractText, getDocumentProxy } from "unpdf";

/**
 * Page-level FTS5 BM25 in memory: one row per PDF page (pages as unpdf extracts
 * them), the same tokenizer as migrations/0001_chunks_fts.sql.
 */
export class PageIndex {
  private readonly db = new DatabaseSync(":memory:");

  constructor() {
    this.db.exec(
      "CREATE VIRTUAL TABLE pages USING fts5(doc UNINDEXED, page UNINDEXED, text, tokenize='porter unicode61 remove_diacritics 2')",
    );
  }

  async add(doc: string, bytes: Uint8Array): Promise<void> {
    const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: false });
    const insert = this.db.prepare("INSERT INTO pages (doc, page, text) VALUES (?, ?, ?)");
    this.db.exec("BEGIN");
    text.forEach((pageText, i) => insert.run(doc, i + 1, pageText));
    this.db.exec("COMMIT");
  }

  /** The naive query: every lower-cased word of the question, double-quoted, OR-ed (no stopword removal). */
  search(doc: string, question: string, limit: number): number[] {
    const words = [...new Set(question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
    if (words.length === 0) return [];
    const match = words.map((w) => `"${w}"`).join(" OR ");
    const rows = this.db
      .prepare("SELECT page FROM pages WHERE pages MATCH ? AND doc = ? ORDER BY bm25(pages) ASC LIMIT ?")
      .all(match, doc, limit);
    return rows.map((r) => Number(r.page));
  }
}
