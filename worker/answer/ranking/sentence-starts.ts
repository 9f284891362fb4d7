// A retrieved chunk that opens inside a sentence ("revenue surpassed ten billion dollars, ... and we
// exceeded 40 million Ultamate Rewards members.") is given the sentence's start from the chunk
// before it on its page ("“For the first time in our 33-year history, Ulta Beauty’s annual"): its
// first sentence, often the one that answers, can then be quoted whole instead of as a fragment.
import type { ChunkHit } from "../../library/library-index";
import { library, type LibraryBinding } from "../../library/stub";

/** How far back on its page a chunk looks for the start of the sentence it opens inside. */
const SENTENCE_START_REACH = 400;

/** Opens as a sentence does: a capital, a digit, "$", a quote or a bullet. */
const OPENS_SENTENCE = /^\s*["“'(•]?[\p{Lu}\p{N}$]/u;

/** The hits, each opening inside a sentence given that sentence's start (and its start offset moved back with it). */
export async function withSentenceStarts(
  env: LibraryBinding,
  scope: { userId: string; documentIds: readonly string[] | null },
  hits: ChunkHit[],
): Promise<ChunkHit[]> {
  const cut = hits.filter((h) => h.char_start > 0 && !OPENS_SENTENCE.test(h.text));
  if (!cut.length) return hits;
  const pages = [...new Map(cut.map((h) => [`${h.document_id}:${h.page}`, { document_id: h.document_id, page: h.page }])).values()];
  const chunks = await library(env, scope.userId).pageChunks(pages, scope.documentIds ? [...scope.documentIds] : null);
  return hits.map((hit) => {
    if (!cut.includes(hit)) return hit;
    const start = sentenceStart(
      chunks.filter((c) => c.document_id === hit.document_id && c.page === hit.page),
      hit.char_start,
    );
    return start ? { ...hit, text: `${start} ${hit.text}`, char_start: hit.char_start - start.length - 1 } : hit;
  });
}

/** The words of the page before `at` back to the sentence start they follow, from the page's chunks; null when none is in reach. */
function sentenceStart(chunks: readonly ChunkHit[], at: number): string | null {
  const from = Math.max(0, at - SENTENCE_START_REACH);
  let before = "";
  for (let offset = from; offset < at;) {
    const chunk = chunks.find((c) => c.char_start <= offset && c.char_end > offset);
    if (!chunk) return null;
    const upTo = Math.min(chunk.char_end, at);
    before += chunk.text.slice(offset - chunk.char_start, upTo - chunk.char_start);
    offset = upTo;
  }
  const stop = Math.max(before.lastIndexOf(". "), before.lastIndexOf("? "), before.lastIndexOf("! "));
  if (stop === -1 && from > 0) return null;
  const start = before.slice(stop + 1).trim();
  return start && OPENS_SENTENCE.test(start) ? start : null;
}
