// Which retrieved passages an answer cites: its [n] markers, kept only when they
// name a real passage, as the sources listed under the answer.
import type { Source } from "../contract/protocol";
import type { Passage } from "../services/retrieval";

/** The sources an answer actually cites, ordered by [n]. */
export function citedSources(answer: string, passages: Passage[]): Source[] {
  const seen = new Set<number>();
  for (const match of answer.matchAll(/\[(\d{1,2})\]/g)) {
    const n = Number(match[1]);
    if (n >= 1 && n <= passages.length) seen.add(n);
  }
  return [...seen]
    .sort((a, b) => a - b)
    .map((n) => ({
      n,
      fileId: passages[n - 1]!.documentId,
      fileName: passages[n - 1]!.fileName,
      page: passages[n - 1]!.page,
    }));
}
