// Retrieval (DESIGN.md section 5): FTS5/BM25 over the caller's chunks, plus
// Vectorize when bound, fused by reciprocal rank. Scoped to the user and, when a
// chat has documents attached, to those documents.
import type { ChunkHit } from "../../library/library-index";
import { library, type LibraryBinding } from "../../library/stub";
import { rerankWithModel } from "./reranker";
import { queryTerms } from "../question/terms";
import { scoreSentences } from "./sentence-scores";
import { rowNaming } from "./row-labels";
import { fuseByRank, RRF_K } from "./rank-fusion";
import { embedTexts, vectorsEnabled, type VectorBindings } from "../../services/vectors";
import type { Passage } from "../../providers/llm/types";

export type { Passage };

export interface RetrievalScope {
  userId: string;
  /** the chat's documents; absent or empty = all of the user's indexed documents */
  documentIds?: readonly string[];
}

const scopedIds = (scope: RetrievalScope) => (scope.documentIds?.length ? [...scope.documentIds] : null);

/**
 * The knobs of retrieval, each measured on the dev questions (bench/offline.ts;
 * the table in docs/PERFORMANCE.md). RETRIEVAL_TUNING holds the kept values.
 */
export interface RetrievalTuning {
  /** keyword (and vector) candidates read before re-ranking */
  candidates: number;
  /** re-rank the candidates by their best sentence (question-term proximity, the kind of fact asked) */
  sentenceRerank: boolean;
  /** pseudo-relevance feedback: expand the query with this many strong terms of the top passages (0 = off) */
  feedbackTerms: number;
  /** how a page's chunks make its score: its best chunk, or the sum of their reciprocal ranks */
  pageScore: "best" | "sum";
  /** which of a page's candidate chunks stands for it: the best-ranked, or the one with the best sentence */
  pageChunk: "ranked" | "bestSentence";
  /** with Workers AI bound: re-rank this many of the best candidates with the cross-encoder (0 = off) */
  modelRerank: number;
  /** a page's passage also takes up to this many candidate chunks of the page that overlap it, on each side */
  neighbours: number;
}

export const RETRIEVAL_TUNING: RetrievalTuning = {
  candidates: 50,
  sentenceRerank: true,
  feedbackTerms: 0,
  pageScore: "best",
  pageChunk: "ranked",
  modelRerank: 20,
  neighbours: 0,
};

/** BM25 over the caller's Library (their complete documents, or the chat's), best first. */
export async function keywordSearch(
  env: LibraryBinding,
  { question, limit = RETRIEVAL_TUNING.candidates, ...scope }: RetrievalScope & { question: string; limit?: number },
): Promise<ChunkHit[]> {
  return library(env, scope.userId).search(question, scopedIds(scope), limit);
}

async function vectorSearch(
  env: VectorBindings & LibraryBinding,
  scope: RetrievalScope,
  question: string,
  limit: number,
): Promise<ChunkHit[]> {
  if (!vectorsEnabled(env)) return [];
  const [vector] = await embedTexts(env.AI, [question]);
  const { matches } = await env.VECTORIZE.query(vector!, {
    topK: limit,
    namespace: scope.userId,
    ...(scopedIds(scope) ? { filter: { documentId: { $in: scopedIds(scope)! } } } : {}),
    returnMetadata: "indexed",
  });
  // in Vectorize order, and only chunks of complete documents this user still has
  return library(env, scope.userId).chunks(
    matches.map((m) => m.id),
    scopedIds(scope),
  );
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

/**
 * Each page keeps its place (its best-ranked chunk's), but the chunk that stands
 * for it first is the one of its candidates with the best sentence: a page's
 * best-matching chunk overall is often not the one that states the fact.
 */
export function byPageBestSentence<T extends { id: string; text: string; file_name?: string; document_id: string; page: number }>(
  question: string,
  hits: T[],
): T[] {
  const best = bestSentenceScores(question, hits);
  const pages = new Map<string, { hit: T; score: number }[]>();
  hits.forEach((hit, i) => {
    const key = `${hit.document_id}:${hit.page}`;
    pages.set(key, [...(pages.get(key) ?? []), { hit, score: best[i]! }]);
  });
  return [...pages.values()].flatMap((chunks) => {
    const top = chunks.reduce((a, b) => (b.score > a.score ? b : a));
    return [top.hit, ...chunks.filter((c) => c !== top).map((c) => c.hit)];
  });
}

/** Pages ranked by the reciprocal ranks of all their chunks; each page keeps its best chunk first. */
export function bySummedPage<T extends { document_id: string; page: number }>(hits: T[], k = RRF_K): T[] {
  const pages = new Map<string, { hits: T[]; score: number }>();
  hits.forEach((hit, rank) => {
    const key = `${hit.document_id}:${hit.page}`;
    const entry = pages.get(key) ?? { hits: [], score: 0 };
    entry.hits.push(hit);
    entry.score += 1 / (k + rank + 1);
    pages.set(key, entry);
  });
  return [...pages.values()].sort((a, b) => b.score - a.score).flatMap((p) => p.hits);
}

/**
 * The score of each hit's best sentence (0 when none holds a question term), in the hits' order;
 * a row the question names by its label counts more (row-labels.ts), as in the answer.
 */
function bestSentenceScores(question: string, hits: readonly { text: string; file_name?: string }[]): number[] {
  const best = new Array<number>(hits.length).fill(0);
  const fileNames = [...new Set(hits.flatMap((h) => (h.file_name ? [h.file_name] : [])))];
  for (const s of scoreSentences(
    question,
    hits.map((h) => h.text),
    { rowNaming: rowNaming(question, fileNames) },
  ))
    best[s.passage] = Math.max(best[s.passage]!, s.score);
  return best;
}

/** The candidates re-ranked by fusing their search order with the order of their best sentences. */
export function bySentence<T extends { id: string; text: string; file_name?: string }>(question: string, hits: T[]): T[] {
  const best = bestSentenceScores(question, hits);
  const sentenceOrder = hits.map((hit, i) => ({ hit, score: best[i]! })).sort((a, b) => b.score - a.score);
  return fuseByRank([hits, sentenceOrder.filter((s) => s.score > 0).map((s) => s.hit)]);
}

/** Up to `count` terms that the top passages share and the question lacks: RM3-style query expansion. */
export function feedbackTerms(question: string, top: readonly { text: string }[], count: number): string[] {
  const asked = new Set(queryTerms(question));
  const seenIn = new Map<string, number>();
  for (const passage of top)
    for (const term of new Set(queryTerms(passage.text)))
      if (!asked.has(term) && !/^\d+$/.test(term)) seenIn.set(term, (seenIn.get(term) ?? 0) + 1);
  return [...seenIn.entries()]
    .filter(([, n]) => n >= 2)
    .sort((a, b) => b[1] - a[1] || b[0].length - a[0].length)
    .slice(0, count)
    .map(([term]) => term);
}

export async function retrievePassages(
  env: VectorBindings & LibraryBinding,
  {
    question,
    tuning = RETRIEVAL_TUNING,
    topK = 8,
    keywordHits,
    ...scope
  }: RetrievalScope & { question: string; tuning?: RetrievalTuning; topK?: number; keywordHits?: ChunkHit[] },
): Promise<Passage[]> {
  const [keyword, semantic] = await Promise.all([
    // a chat's question comes with the keyword search its admission already ran (chat/admission.ts)
    keywordHits ?? keywordSearch(env, { ...scope, question, limit: tuning.candidates }),
    vectorSearch(env, scope, question, tuning.candidates).catch((err) => {
      console.error("vector search failed; using keyword results only", err);
      return [];
    }),
  ]);
  let lists = [keyword, semantic].filter((l) => l.length);
  if (tuning.feedbackTerms > 0 && keyword.length) {
    const expansion = feedbackTerms(question, keyword.slice(0, 5), tuning.feedbackTerms);
    if (expansion.length)
      lists = [...lists, await keywordSearch(env, { ...scope, question: `${question} ${expansion.join(" ")}`, limit: tuning.candidates })];
  }
  let ranked = lists.length > 1 ? fuseByRank(lists) : (lists[0] ?? []);
  if (tuning.sentenceRerank) ranked = bySentence(question, ranked);
  if (tuning.pageScore === "sum") ranked = bySummedPage(ranked);
  if (tuning.modelRerank > 0 && env.AI) ranked = await rerankWithModel({ ai: env.AI }, { question, hits: ranked, top: tuning.modelRerank });
  if (tuning.pageChunk === "bestSentence") ranked = byPageBestSentence(question, ranked);
  return onePerPage(ranked, topK).map((hit) => toPassage(tuning.neighbours > 0 ? withNeighbours(hit, ranked, tuning.neighbours) : hit));
}

/** A retrieved chunk as the answer (and its citations) see it. */
export function toPassage(h: ChunkHit): Passage {
  return {
    chunkId: h.id,
    documentId: h.document_id,
    fileName: h.file_name,
    page: h.page,
    text: h.text,
    charStart: h.char_start,
    charEnd: h.char_end,
    ...(h.recognised ? { recognised: true } : {}),
    ...(h.column_heads ? { columnHeads: h.column_heads } : {}),
  };
}

/**
 * The chunk joined with the candidates of its page that overlap it, up to `perSide` before and
 * after it: chunks are cut every ~1,000 characters, and the sentence that states the fact is
 * often in the chunk beside the one that matched the question best.
 */
export function withNeighbours<
  T extends { id: string; document_id: string; page: number; text: string; char_start: number; char_end: number },
>(hit: T, candidates: readonly T[], perSide: number): T {
  const page = candidates
    .filter((c) => c.document_id === hit.document_id && c.page === hit.page)
    .sort((a, b) => a.char_start - b.char_start);
  let merged = hit;
  for (let side = 0; side < perSide; side++) {
    const before = page.find((c) => c.char_start < merged.char_start && c.char_end >= merged.char_start && c.char_end < merged.char_end);
    if (before)
      merged = { ...merged, text: before.text + merged.text.slice(before.char_end - merged.char_start), char_start: before.char_start };
    const after = page.find((c) => c.char_start > merged.char_start && c.char_start <= merged.char_end && c.char_end > merged.char_end);
    if (after) merged = { ...merged, text: merged.text + after.text.slice(merged.char_end - after.char_start), char_end: after.char_end };
  }
  return merged;
}
