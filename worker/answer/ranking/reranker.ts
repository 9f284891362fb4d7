// With Workers AI bound, the fused top candidates are re-ordered by a
// cross-encoder (@cf/baai/bge-reranker-base), which reads the question and the
// passage together and so matches a user's own words to the document's. Any
// failure keeps the order retrieval already had.
export const RERANK_MODEL = "@cf/baai/bge-reranker-base";

export async function rerankWithModel<T extends { text: string }>(
  { ai }: { ai: Ai },
  { question, hits, top }: { question: string; hits: T[]; top: number },
): Promise<T[]> {
  const head = hits.slice(0, top);
  if (head.length < 2) return hits;
  try {
    const result = (await ai.run(RERANK_MODEL, { query: question, contexts: head.map((h) => ({ text: h.text })) } as never)) as {
      response?: { id?: number; score?: number }[];
    };
    const scores = new Map(
      (result?.response ?? []).flatMap((r) => (typeof r.id === "number" && typeof r.score === "number" ? [[r.id, r.score]] : [])),
    );
    if (scores.size === 0) return hits;
    const order = head.map((hit, i) => ({ hit, score: scores.get(i) ?? -Infinity, i })).sort((a, b) => b.score - a.score || a.i - b.i);
    return [...order.map((o) => o.hit), ...hits.slice(top)];
  } catch (err) {
    console.error("reranker failed; keeping the retrieval order", err);
    return hits;
  }
}
