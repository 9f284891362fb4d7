// Which retrieved passages an answer cites: its [n] markers, kept only when they
// name a real passage, as the sources listed under the answer.
import type { Source } from "../contract/protocol";
import type { Passage } from "./ranking/retrieval";

/** How much of a passage a source keeps to find it again on the page. */
const QUOTE_CHARS = 80;

/** The sources an answer actually cites, ordered by [n]. */
export function citedSources(answer: string, passages: Passage[]): Source[] {
  const seen = new Set<number>();
  for (const match of answer.matchAll(/\[(\d{1,2})\]/g)) {
    const n = Number(match[1]);
    if (n >= 1 && n <= passages.length) seen.add(n);
  }
  return [...seen]
    .sort((a, b) => a - b)
    .map((n) => {
      const passage = passages[n - 1]!;
      return {
        n,
        fileId: passage.documentId,
        fileName: passage.fileName,
        page: passage.page,
        charStart: passage.charStart,
        charEnd: passage.charEnd,
        quote: passage.text.slice(0, QUOTE_CHARS),
        ...(passage.recognised ? { recognised: true } : {}),
      };
    });
}
