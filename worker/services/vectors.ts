// Embeddings + Vectorize, used only when both the AI and VECTORIZE bindings exist
// (production). Locally, retrieval is FTS5 only and these are no-ops.
export const EMBEDDING_MODEL = "@cf/baai/bge-base-en-v1.5";
const EMBED_BATCH = 100; // Workers AI accepts at most 100 texts per call
const DELETE_BATCH = 500;

export interface VectorBindings {
  AI?: Ai;
  VECTORIZE?: VectorizeIndex;
}

export interface ChunkForVector {
  id: string;
  documentId: string;
  page: number;
  text: string;
}

export function vectorsEnabled(env: VectorBindings): env is Required<VectorBindings> {
  return Boolean(env.AI && env.VECTORIZE);
}

export async function embedTexts(ai: Ai, texts: string[]): Promise<number[][]> {
  const result = (await ai.run(EMBEDDING_MODEL, { text: texts, pooling: "mean" } as never)) as { data?: number[][] };
  if (!result?.data || result.data.length !== texts.length) throw new Error("embedding call returned no vectors");
  return result.data;
}

/** Upserts one vector per chunk in the user's namespace (ids are the chunk ids, so a retry overwrites). */
export async function upsertChunkVectors(
  env: VectorBindings,
  { userId, chunks }: { userId: string; chunks: ChunkForVector[] },
): Promise<void> {
  if (!vectorsEnabled(env)) return;
  for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
    const batch = chunks.slice(i, i + EMBED_BATCH);
    const values = await embedTexts(
      env.AI,
      batch.map((c) => c.text),
    );
    await env.VECTORIZE.upsert(
      batch.map((c, j) => ({ id: c.id, values: values[j]!, namespace: userId, metadata: { documentId: c.documentId, page: c.page } })),
    );
  }
}

export async function deleteVectors(env: VectorBindings, { ids }: { ids: string[] }): Promise<void> {
  if (!vectorsEnabled(env) || ids.length === 0) return;
  for (let i = 0; i < ids.length; i += DELETE_BATCH) await env.VECTORIZE.deleteByIds(ids.slice(i, i + DELETE_BATCH));
}
