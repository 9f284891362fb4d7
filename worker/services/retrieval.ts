// Retrieval (DESIGN.md section 5): FTS5/BM25 over the caller's chunks, plus
// Vectorize when bound, fused by reciprocal rank. Scoped to the user and, when a
// chat has documents attached, to those documents.
import { embedTexts, vectorsEnabled, type VectorBindings } from "./vectors";

export interface Passage {
  chunkId: string;
  documentId: string;
  fileName: string;
  page: number;
  text: string;
}

export interface RetrievalScope {
  userId: string;
  /** the chat's documents; absent or empty = all of the user's indexed documents */
  documentIds?: readonly string[];
}

const scopedIds = (scope: RetrievalScope) => (scope.documentIds?.length ? [...scope.documentIds] : null);

const CANDIDATES = 24;
const RRF_K = 60;

// Words too common to help ranking; kept short on purpose.
const STOPWORDS = new Set(
  "a an and are as at be but by can did do does for from had has have how i if in into is it its me my of on or our so than that the their them then there these they this to was we were what when where which who why will with would you your".split(
    " ",
  ),
);
// Words about the asking rather than the subject ("Give a response to the question
// by relying on the details shown..."): rare in documents, so BM25 would weight
// them highly and rank passages that happen to contain them.
const QUESTION_WORDS = new Set(
  "about also any answer assume based describe detail details explain following give just kindly like many much please primarily provide question relying response shown tell using".split(
    " ",
  ),
);

/** Search terms from any user text: letters and digits only, so quotes and FTS operators can never break the query. */
export function queryTerms(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  // "FY2023" or "Q2'2023" style tokens: also search their parts ("2023"), which is how tables write them
  const terms = words.flatMap((w) => {
    const parts = w.match(/\p{L}+|\p{N}+/gu) ?? [];
    return parts.length > 1 ? [w, ...parts.filter((p) => p.length > 1)] : [w];
  });
  return [...new Set(terms.filter((t) => !STOPWORDS.has(t) && !QUESTION_WORDS.has(t) && (t.length > 1 || /\d/.test(t))))].slice(0, 32);
}

/** An FTS5 MATCH expression: every term quoted, any term may match (bm25 ranks by how many and how rare). */
export function ftsMatchExpression(text: string): string | null {
  const terms = queryTerms(text);
  return terms.length ? terms.map((t) => `"${t}"`).join(" OR ") : null;
}

interface ChunkHit {
  id: string;
  document_id: string;
  file_name: string;
  page: number;
  text: string;
}

export async function keywordSearch(db: D1Database, scope: RetrievalScope, question: string, limit = CANDIDATES): Promise<ChunkHit[]> {
  const match = ftsMatchExpression(question);
  if (!match) return [];
  const ids = scopedIds(scope);
  const documentFilter = ids ? `AND c.document_id IN (${ids.map((_, i) => `?${i + 3}`).join(", ")})` : "";
  const sql = `
    SELECT c.id, c.document_id, d.file_name, c.page, c.text
    FROM chunks_fts
    JOIN chunks c ON c.rowid = chunks_fts.rowid
    JOIN documents d ON d.id = c.document_id
    WHERE chunks_fts MATCH ?1 AND c.user_id = ?2 ${documentFilter} AND d.status = 'indexed'
    ORDER BY bm25(chunks_fts) ASC
    LIMIT ${Math.floor(limit)}`;
  const params: unknown[] = [match, scope.userId, ...(ids ?? [])];
  const { results } = await db
    .prepare(sql)
    .bind(...params)
    .all<ChunkHit>();
  return results;
}

async function vectorSearch(env: VectorBindings & { DB: D1Database }, scope: RetrievalScope, question: string): Promise<ChunkHit[]> {
  if (!vectorsEnabled(env)) return [];
  const [vector] = await embedTexts(env.AI, [question]);
  const { matches } = await env.VECTORIZE.query(vector!, {
    topK: CANDIDATES,
    namespace: scope.userId,
    ...(scopedIds(scope) ? { filter: { documentId: { $in: scopedIds(scope)! } } } : {}),
    returnMetadata: "indexed",
  });
  if (matches.length === 0) return [];
  const ids = matches.map((m) => m.id);
  const { results } = await env.DB.prepare(
    `SELECT c.id, c.document_id, d.file_name, c.page, c.text FROM chunks c JOIN documents d ON d.id = c.document_id
     WHERE c.user_id = ? AND d.status = 'indexed' AND c.id IN (${ids.map(() => "?").join(", ")})`,
  )
    .bind(scope.userId, ...ids)
    .all<ChunkHit>();
  // Vectorize order, and only chunks this user still owns.
  const byId = new Map(results.map((r) => [r.id, r]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

/** Reciprocal rank fusion: each list adds 1 / (k + rank) for the items it ranks. */
export function fuseByRank<T extends { id: string }>(lists: T[][], k = RRF_K): T[] {
  const scores = new Map<string, { item: T; score: number }>();
  for (const list of lists) {
    list.forEach((item, rank) => {
      const entry = scores.get(item.id) ?? { item, score: 0 };
      entry.score += 1 / (k + rank + 1);
      scores.set(item.id, entry);
    });
  }
  return [...scores.values()].sort((a, b) => b.score - a.score).map((e) => e.item);
}

/**
 * The top k hits, at most one per page while other pages are left: neighbouring
 * chunks of one page mostly repeat each other, and distinct pages give the
 * answer more places to find and cite the evidence. Best first.
 */
export function onePerPage<T extends { document_id: string; page: number }>(hits: T[], k: number): T[] {
  const seen = new Set<string>();
  const first: T[] = [];
  const rest: T[] = [];
  for (const hit of hits) {
    const page = `${hit.document_id}:${hit.page}`;
    (seen.has(page) ? rest : first).push(hit);
    seen.add(page);
  }
  return [...first, ...rest].slice(0, k);
}

export async function retrievePassages(
  env: VectorBindings & { DB: D1Database },
  scope: RetrievalScope,
  question: string,
  topK = 8,
): Promise<Passage[]> {
  const [keyword, semantic] = await Promise.all([
    keywordSearch(env.DB, scope, question),
    vectorSearch(env, scope, question).catch((err) => {
      console.error("vector search failed; using keyword results only", err);
      return [];
    }),
  ]);
  const fused = semantic.length ? fuseByRank([keyword, semantic]) : keyword;
  return onePerPage(fused, topK).map((h) => ({
    chunkId: h.id,
    documentId: h.document_id,
    fileName: h.file_name,
    page: h.page,
    text: h.text,
  }));
}
