// A sentence of an answer read beside the page sentence it restates (#43): the cited pages' sentence
// that holds most of its words and figures. Its figures can all be on the page and it can still say
// what that sentence does not: a "not" the page sentence does not write ("is deductible" -> "is not
// deductible"), or one of its figures put in the place of the page sentence's own ("in the second
// quarter of 2018" -> "of 2017", with 2017 written elsewhere on the page).
import type { Figure } from "./figures";
import { figuresOf, kindOf, pageStates } from "./figures";

/**
 * The share of an answer sentence's content words its page sentence must hold for the two to be
 * read side by side. On the tune half of the labelled set (bench/verify-set.jsonl) a sentence
 * cited against another page holds at most 0.36 of its words in any page sentence, one restated
 * (reworded, reordered, negated) at least 0.82: this is the middle.
 */
export const MATCH_SHARE = 0.6;

const STOPWORDS = new Set(
  "about after also been before being both does each from have here into just more most must only other over same such than that their them then there these they this those under very were what when where which while will with would your".split(
    " ",
  ),
);
/** "not", "no", "never", "cannot", "can't"...: each counts once ("No." of a number aside). */
const NEGATION = /\b(?:not|never|none|nothing|neither|nor|cannot|without)\b|\bno\b(?!\.)|n't\b/g;

/** A text as compared: lower case, words broken at line ends made whole, one space. */
export const comparable = (text: string) =>
  text
    .toLowerCase()
    .replace(/(\p{L})- (\p{Ll})/gu, "$1$2")
    .replace(/[‘’]/g, "'")
    .replace(/\s+/g, " ");

export const contentWords = (text: string) => (comparable(text).match(/\p{L}{4,}/gu) ?? []).filter((w) => !STOPWORDS.has(w));
const negations = (text: string) => comparable(text).match(NEGATION)?.length ?? 0;

export interface PageSentence {
  text: string;
  words: Set<string>;
  figures: Figure[];
}

/** The cited pages' sentences (and a table's rows run together, which end at no stop). */
export function pageSentences(pages: string): PageSentence[] {
  return pages
    .split(/(?<=[.!?]["”')]?)\s+(?=["“(]?[\p{Lu}\p{N}$])|\s[•·]\s/u)
    .map((text) => ({ text, words: new Set(contentWords(text)), figures: figuresOf(text) }));
}

/**
 * Running text, not a table's rows: at most one figure in every PROSE_WORDS words. A balance
 * sheet's run of rows has one in three (a local answer's labelled row was read as swapped at 3);
 * the tune half's year swaps are all found up to 10.
 */
const PROSE_WORDS = 6;
const isProse = (page: PageSentence) => page.figures.length * PROSE_WORDS <= page.text.split(" ").length;

/**
 * The page sentence an answer sentence restates: the one holding most of its content words and
 * figures, or two that follow each other when together they hold more (a sentence that joins
 * two), if it holds at least MATCH_SHARE of its words; null when none does (the sentence gathers
 * several, or words of its own).
 */
export function restated(sentence: string, figures: readonly Figure[], page: readonly PageSentence[]): PageSentence | null {
  const words = [...new Set(contentWords(sentence))];
  if (!words.length) return null;
  const held = (p: PageSentence) => words.filter((w) => p.words.has(w)).length;
  const score = (p: PageSentence) => held(p) + figures.filter((f) => pageStates(f, p.figures)).length;
  // of two holding as much, the one with fewer words of its own: the sentence, not a long one around the same words
  const better = (p: PageSentence, b: PageSentence) => score(p) > score(b) || (score(p) === score(b) && p.words.size < b.words.size);
  const best = (candidates: PageSentence[]) => candidates.reduce<PageSentence | null>((b, p) => (!b || better(p, b) ? p : b), null);
  const one = best([...page]);
  if (!one) return null;
  // two sentences that follow each other, each holding words of it the other does not
  const pairs = page.slice(1).map((b, i) => {
    const a = page[i]!;
    return { text: `${a.text} ${b.text}`, words: new Set([...a.words, ...b.words]), figures: [...a.figures, ...b.figures], parts: [a, b] };
  });
  const two = best(pairs.filter((p) => p.parts.every((part) => held(part) < held(p))));
  const match = two && held(two) > held(one) ? two : one;
  if (held(match) < words.length * MATCH_SHARE) return null;
  // a table row quoted with its heads' words ("Taxable income at least 35,200 but less than 35,250:
  // Single 4,007; ..."): it restates the run of rows that holds all its figures, not the heads' sentence
  const states = (p: PageSentence) => figures.every((f) => pageStates(f, p.figures));
  if (figures.length < 2 || states(match)) return match;
  return page.find((p) => !isProse(p) && states(p)) ?? match;
}

/** The negations ("not", "never"...) a sentence adds to the page sentence it restates. */
export function addedNegations(sentence: string, page: PageSentence): string[] {
  const added = negations(sentence) - negations(page.text);
  return added > 0 ? [...new Set(comparable(sentence).match(NEGATION) ?? [])] : [];
}

/**
 * The figures a sentence puts in another's place (each with the page sentence's figure it replaces): not in the page sentence it restates, which
 * writes a figure of the same kind (a year for a year, a date for a date) the sentence does not.
 * Only running text is read so: a table's rows are no sentences, their figures stand in columns.
 */
export function swappedFigures(figures: readonly Figure[], page: PageSentence): { figure: Figure; replaced: Figure }[] {
  if (!isProse(page)) return [];
  // a form's number is its name: "Form(s) 1099" takes the place of no quantity
  const unsaid = page.figures.filter((p) => !p.names && !figures.some((f) => pageStates(f, [p]) || pageStates(p, [f])));
  return figures.flatMap((figure) => {
    if (figure.names) return [];
    const replaced = pageStates(figure, page.figures) ? undefined : unsaid.find((p) => kindOf(p) === kindOf(figure));
    return replaced ? [{ figure, replaced }] : [];
  });
}
