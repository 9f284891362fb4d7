// Reciprocal rank fusion: several rankings of the same kind of items made one,
// each list adding weight / (k + rank) to the items it ranks. Used where two
// searches (keyword and vector, or the question and the concept it names) and
// two orders (search and best sentence) are combined.

/** The usual constant: a list's first places count a little more than its later ones. */
export const RRF_K = 60;

/** The items of every list, best fused score first; `weights[i]` scales list i (1 when absent). */
export function fuseByRank<T extends { id: string }>(lists: T[][], k = RRF_K, weights: readonly number[] = []): T[] {
  const scores = new Map<string, { item: T; score: number }>();
  lists.forEach((list, i) => {
    const weight = weights[i] ?? 1;
    list.forEach((item, rank) => {
      const entry = scores.get(item.id) ?? { item, score: 0 };
      entry.score += weight / (k + rank + 1);
      scores.set(item.id, entry);
    });
  });
  return [...scores.values()].sort((a, b) => b.score - a.score).map((e) => e.item);
}
