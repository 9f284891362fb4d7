// The Library's full-text (FTS5) indexes read: BM25 searches over the chunks' whole text and over
// the labels of their table rows, within what a search may read (only indexed documents, or a
// chat's own as far as they are), and the chunks a search could have found by id. Which searches
// a question calls for is the answer engine's (answer/ranking/keyword-search.ts).
import type { KeywordIndex } from "../answer/ranking/keyword-search";
import type { SyncSql } from "./library-schema";
import type { ChunkHit } from "./types";

/** The full-text indexes: the chunks' whole text, and the labels of their table rows. */
type FullText = "chunks_fts" | "row_labels_fts";

/** A Library of fewer chunks searches every phrase of a question (see FullTextIndex.weighty). */
const COMMON_PHRASE_MIN_CHUNKS = 200;

/**
 * What a search reads: every document as far as it is indexed (those whose scanned
 * pages still wait for recognition included: their text pages are done), or a chat's
 * own documents as far as they are. An answer that used a document still being
 * indexed says so (chat/turn.ts).
 */
const searchable = (ids: readonly string[] | null, idColumn = "c.document_id") =>
  `d.status IN ('indexed', 'needs_ocr', 'processing')${ids ? ` AND ${idColumn} IN (${ids.map(() => "?").join(", ")})` : ""}`;

/** A year as documents write it, and the first pages read for the year a document is about. */
const YEAR = /(?<![\p{N}.,$-])(?:19|20)\d\d(?![\p{N}%])/gu;
const YEAR_PAGES = 2;
const YEAR_BATCH = 90;

const HIT_COLUMNS = "c.id, c.document_id, d.file_name, c.page, c.text, c.char_start, c.char_end, c.recognised, c.column_heads";

export class FullTextIndex implements KeywordIndex {
  /** the Library's chunk count and how many chunks hold each phrase searched; cleared by every write to the chunks */
  private phraseCounts: { chunks: number; holding: Map<string, number> } | null = null;
  /** the year each document is about (documentYears), null for none; cleared by every write to the chunks */
  private readonly years = new Map<string, number | null>();

  constructor(private readonly sql: SyncSql) {}

  /** These documents' chunks were written (added or removed): the phrase counts and their years are read again. */
  changed(documentIds: readonly string[]): void {
    this.phraseCounts = null;
    for (const id of documentIds) this.years.delete(id);
  }

  matching(match: string, documentIds: readonly string[] | null, limit: number): ChunkHit[] {
    return this.best(match, documentIds, limit);
  }

  labelsMatching(match: string, documentIds: readonly string[] | null, limit: number): (ChunkHit & { row_labels: string })[] {
    return this.best(match, documentIds, limit, "row_labels_fts", `${HIT_COLUMNS}, c.row_labels`);
  }

  /** The documents a search over `documentIds` (or the whole Library) reads, with their file names. */
  searchableDocuments(documentIds: readonly string[] | null): { id: string; file_name: string }[] {
    const ids = documentIds?.length ? documentIds : null;
    if (ids?.length === 1) return [];
    return this.sql.rows<{ id: string; file_name: string }>(
      `SELECT d.id, d.file_name FROM documents d WHERE ${searchable(ids, "d.id")}`,
      ...(ids ?? []),
    );
  }

  /**
   * The year each document is about: the year its first pages write most ("2024" for Pub 17, "2017"
   * for the 2017 Form 1040 instructions, "2018" for 3M's 2018 10-K); null when they write none.
   */
  documentYears(documents: readonly { id: string }[]): Map<string, number | null> {
    const unread = documents.map((d) => d.id).filter((id) => !this.years.has(id));
    // a Durable Object's SQLite binds at most 100 parameters
    for (let at = 0; at < unread.length; at += YEAR_BATCH) {
      const batch = unread.slice(at, at + YEAR_BATCH);
      const counts = new Map<string, Map<number, number>>(batch.map((id) => [id, new Map()]));
      for (const { document_id, text } of this.sql.rows<{ document_id: string; text: string }>(
        `SELECT document_id, text FROM chunks WHERE page <= ${YEAR_PAGES} AND document_id IN (${batch.map(() => "?").join(", ")})`,
        ...batch,
      ))
        for (const year of text.match(YEAR) ?? [])
          counts.get(document_id)!.set(Number(year), (counts.get(document_id)!.get(Number(year)) ?? 0) + 1);
      for (const [id, years] of counts) this.years.set(id, [...years].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? null);
    }
    return new Map(documents.map((d) => [d.id, this.years.get(d.id) ?? null]));
  }

  /**
   * The phrases BM25 gives a weight: FTS5 floors the weight of a phrase found in half of the
   * Library's chunks or more to nothing ("tax" in Pub 17), yet matching it makes the search score
   * nearly every chunk. Those are left out while another phrase remains: the same order but for
   * ties, in a third less time over Pub 17 (search falls back to every phrase when the others find
   * too few chunks). A small Library keeps every phrase: its few chunks are cheap to score.
   */
  weighty(phrases: readonly string[]): string[] {
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
  private best<T = ChunkHit>(
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

  /** The chunks with these ids that a search could have found (same scope), in the order asked. */
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
