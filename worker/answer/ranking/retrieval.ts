// Retrieval (DESIGN.md section 5): FTS5/BM25 over the caller's chunks, plus
// Vectorize when bound, fused by reciprocal rank. Scoped to the user and, when a
// chat has documents attached, to those documents.
import type { ChunkHit } from "../../library/library-index";
import { library, type LibraryBinding } from "../../library/stub";
import { rerankWithModel } from "./reranker";
import { scoreSentences } from "./sentence-scores";
import { rowNaming } from "./row-labels";
import { fuseByRank } from "./rank-fusion";
import { withColumnHeads } from "../passages/column-heads";
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
  /** with Workers AI bound: re-rank this many of the best candidates with the cross-encoder (0 = off) */
  modelRerank: number;
}

export const RETRIEVAL_TUNING: RetrievalTuning = {
  candidates: 50,
  sentenceRerank: true,
  modelRerank: 20,
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
 * The score of each hit's best sentence (0 when none holds a question term), in the hits' order;
 * a row the question names by its label counts more (row-labels.ts), as in the answer. And which
 * hits say what a term the question asks to define is.
 */
function bestSentenceScores(
  question: string,
  hits: readonly { text: string; file_name?: string; column_heads?: string | null }[],
): { best: number[]; defining: Set<number> } {
  const best = new Array<number>(hits.length).fill(0);
  const defining = new Set<number>();
  const fileNames = [...new Set(hits.flatMap((h) => (h.file_name ? [h.file_name] : [])))];
  for (const s of scoreSentences(
    question,
    // read as the answer reads them: with the column heads they inherit
    hits.map((h) => withColumnHeads({ text: h.text, columnHeads: h.column_heads ?? undefined })),
    { rowNaming: rowNaming(question, fileNames) },
  )) {
    best[s.passage] = Math.max(best[s.passage]!, s.score);
    if (s.defines) defining.add(s.passage);
  }
  return { best, defining };
}

/**
 * The candidates re-ranked by fusing their search order with the order of their best sentences;
 * those saying what a term asked to define is go first, wherever the search put them (the sentence
 * that says what it is answers "What is X?", and the pages that use the term most rank above it).
 */
export function bySentence<T extends { id: string; text: string; file_name?: string }>(question: string, hits: T[]): T[] {
  const { best, defining } = bestSentenceScores(question, hits);
  const sentenceOrder = hits.map((hit, i) => ({ hit, score: best[i]! })).sort((a, b) => b.score - a.score);
  const fused = fuseByRank([hits, sentenceOrder.filter((s) => s.score > 0).map((s) => s.hit)]);
  const defines = new Set([...defining].map((i) => hits[i]!));
  return [...fused.filter((hit) => defines.has(hit)), ...fused.filter((hit) => !defines.has(hit))];
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
  const lists = [keyword, semantic].filter((l) => l.length);
  let ranked = lists.length > 1 ? fuseByRank(lists) : (lists[0] ?? []);
  if (tuning.sentenceRerank) ranked = bySentence(question, ranked);
  if (tuning.modelRerank > 0 && env.AI) ranked = await rerankWithModel({ ai: env.AI }, { question, hits: ranked, top: tuning.modelRerank });
  return onePerPage(ranked, topK).map(toPassage);
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
