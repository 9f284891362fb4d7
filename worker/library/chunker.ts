// Splits one page's text into overlapping chunks that never cross the page
// boundary, preferring to end at a sentence. Spans are offsets into the page's
// normalised text, so a citation can point at the exact passage.
import { rowLabels } from "../answer/ranking/row-labels";
import { headRuns, inheritedHeads } from "../answer/passages/column-heads";
import { inheritedTaxHeads } from "../answer/passages/tax-table";

export const CHUNK_TARGET = 1000;
export const CHUNK_OVERLAP = 150;
const MIN_CHUNK = 600; // do not cut a sentence-aligned chunk shorter than this

export interface PageChunk {
  ord: number;
  text: string;
  charStart: number;
  charEnd: number;
  /** the column heads of the table the chunk starts inside, held by an earlier chunk (inheritedHeads) */
  columnHeads?: string;
  /** the labels of its table rows, searched on their own (rowLabels) */
  rowLabels?: string;
}

/**
 * A capitalised word whose last letter its PDF set apart ("Consolidated Balance Shee t", "Cash
 * Flow s": the statement titles of 3M's 10-K). Not a lone "a", "i" or "x" (an article, a checked
 * box), nor a letter after a lower-case word ("box c", "column d"). The viewer finds a passage
 * this shifted by its words without spaces (client/lib/highlight.ts).
 */
const LAST_LETTER_APART = /(?<!\p{L})(\p{Lu}\p{Ll}{2,}) ([b-hj-wyz])(?=[\s.,;:)]|$)/gu;

export function normalisePageText(text: string): string {
  return text.replace(/\s+/g, " ").trim().replace(LAST_LETTER_APART, "$1$2");
}

function cutPoint(text: string, start: number): number {
  const hardEnd = Math.min(text.length, start + CHUNK_TARGET);
  if (hardEnd === text.length) return hardEnd;
  const window = text.slice(start + MIN_CHUNK, hardEnd);
  // last sentence end in the window
  const sentence = Math.max(window.lastIndexOf(". "), window.lastIndexOf("? "), window.lastIndexOf("! "), window.lastIndexOf("; "));
  if (sentence !== -1) return start + MIN_CHUNK + sentence + 1;
  const space = text.lastIndexOf(" ", hardEnd);
  return space > start + MIN_CHUNK ? space : hardEnd;
}

export function chunkPage(pageText: string): PageChunk[] {
  const text = normalisePageText(pageText);
  const chunks: PageChunk[] = [];
  const heads = headRuns(text);
  let start = 0;
  while (start < text.length) {
    const end = cutPoint(text, start);
    const piece = text.slice(start, end).trim();
    if (piece) {
      const inherited = inheritedHeads(text, heads, start, piece) ?? inheritedTaxHeads(text, start, piece);
      const labels = rowLabels(piece);
      chunks.push({
        ord: chunks.length,
        text: piece,
        charStart: start,
        charEnd: end,
        ...(inherited && { columnHeads: inherited }),
        ...(labels && { rowLabels: labels }),
      });
    }
    if (end >= text.length) break;
    // step back by the overlap, to the start of a word
    let next = Math.max(end - CHUNK_OVERLAP, start + 1);
    const space = text.indexOf(" ", next);
    if (space !== -1 && space < end) next = space + 1;
    start = next;
  }
  return chunks;
}

/** Letters and digits on a page: fewer than this and the page counts as empty (scanned). */
const MIN_TEXT_CHARS = 8;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/gu;

export function isEmptyPage(pageText: string): boolean {
  // counts up to MIN_TEXT_CHARS only: a page of text is known to have text after its first few letters
  LETTER_OR_DIGIT.lastIndex = 0;
  let found = 0;
  while (found < MIN_TEXT_CHARS && LETTER_OR_DIGIT.test(pageText)) found++;
  return found < MIN_TEXT_CHARS;
}
