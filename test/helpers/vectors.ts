// In-memory doubles for the production-only bindings: a Vectorize index that
// honours namespace, filter, topK and returnMetadata, and an AI binding whose
// embeddings are deterministic bag-of-words vectors.
import { EMBEDDING_MODEL } from "../../worker/services/vectors";

const DIMENSIONS = 64;

function embed(text: string): number[] {
  const v = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 0;
    for (const ch of word) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
    v[h % DIMENSIONS]! += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

export function fakeAi() {
  const calls: string[][] = [];
  const ai = {
    calls,
    async run(model: string, input: { text: string[] } | { query: string; contexts: { text: string }[] }) {
      if ("query" in input) {
        // the reranker: the cosine of the bag-of-words vectors stands in for the cross-encoder's score
        const q = embed(input.query);
        return { response: input.contexts.map((c, id) => ({ id, score: embed(c.text).reduce((s, x, i) => s + x * q[i]!, 0) })) };
      }
      if (model !== EMBEDDING_MODEL) throw new Error(`unexpected model ${model}`);
      calls.push(input.text);
      return { shape: [input.text.length, DIMENSIONS], data: input.text.map(embed) };
    },
  };
  return ai;
}

/** Vectorize metadata filters: a plain value means $eq; `{ $in: [...] }` any of the values. */
function matchesFilter(value: unknown, want: unknown): boolean {
  if (want && typeof want === "object" && "$in" in want) return (want.$in as unknown[]).includes(value);
  if (want && typeof want === "object" && "$eq" in want) return want.$eq === value;
  return value === want;
}

interface StoredVector {
  id: string;
  values: number[];
  namespace?: string;
  metadata?: Record<string, unknown>;
}

export class MemoryVectorize {
  readonly vectors = new Map<string, StoredVector>();

  async upsert(vectors: StoredVector[]) {
    for (const v of vectors) this.vectors.set(v.id, { ...v });
    return { mutationId: crypto.randomUUID(), count: vectors.length, ids: vectors.map((v) => v.id) };
  }

  async deleteByIds(ids: string[]) {
    for (const id of ids) this.vectors.delete(id);
    return { mutationId: crypto.randomUUID(), count: ids.length, ids };
  }

  async getByIds(ids: string[]) {
    return ids.flatMap((id) => (this.vectors.has(id) ? [this.vectors.get(id)!] : []));
  }

  async query(
    values: number[],
    options: { topK?: number; namespace?: string; filter?: Record<string, unknown>; returnMetadata?: boolean | string } = {},
  ) {
    const matches = [...this.vectors.values()]
      .filter((v) => options.namespace === undefined || v.namespace === options.namespace)
      .filter((v) => Object.entries(options.filter ?? {}).every(([k, want]) => matchesFilter(v.metadata?.[k], want)))
      .map((v) => ({
        id: v.id,
        score: v.values.reduce((s, x, i) => s + x * (values[i] ?? 0), 0),
        ...(options.returnMetadata && options.returnMetadata !== "none" ? { metadata: v.metadata } : {}),
      }))
      .sort((a, b) => b.score - a.score)
      .slice(0, options.topK ?? 5);
    return { matches, count: matches.length };
  }

  idsInNamespace(namespace: string): string[] {
    return [...this.vectors.values()].filter((v) => v.namespace === namespace).map((v) => v.id);
  }
}
