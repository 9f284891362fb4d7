// The finished answer checked against the pages it cites (#43): each sentence's figures must be on
// a page it cites (or worked out from two of its figures, as the local writer works out a change),
// each quoted phrase must be there, each [n] must name a source of the answer, a sentence stating
// a figure must cite, and a sentence without figures must be mostly words of its pages. Read beside
// the page sentence it restates (sentence-match.ts), it must add no "not" and put none of its
// figures in the place of that sentence's own.
import type { SentenceCheck, Verified } from "../contract/checks";
import type { Figure } from "./figures";
import { figuresOf, pageStates, workedOutFrom } from "./figures";
import { joinedBrokenWords } from "./passages/line-breaks";
import { DOCUMENT_PARTS } from "./passages/sentences";
import { addedNegations, comparable, contentWords, pageSentences, restated, swappedFigures, type PageSentence } from "./sentence-match";

export type { SentenceCheck };

export interface Verification {
  checks: SentenceCheck[];
  verified: Verified;
}

/**
 * The share of a sentence's content words its cited pages must hold when it states no figure; a
 * quote holds them all. Chosen on the tune half of the labelled set (bench/verify-set.jsonl): its
 * sentences cited against another page hold at most 0.46, its reworded ones at least 0.83; this
 * is the middle.
 */
export const CONTENT_SHARE = 0.65;

const CITATION = /\[(\d{1,2})\]/g;
/**
 * A sentence ends at . ! or ? (and the citations after it) before a capital, a digit or a quote; not
 * after "Jan." or "No.", nor after a list item's number an excerpt quotes ("…apply: … 4. Your..."),
 * nor after a name's middle initial ("Signed by Nicholas C. Gangestad"; "on Schedule A." ends one).
 */
const SENTENCE_END = new RegExp(
  String.raw`(?<=[.!?]["”')]?(?:\s*\[\d{1,2}\])*)(?<!\b(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec|No|Mr|Mrs|Ms|Dr|Inc|Corp|Co|Ltd|vs|etc|U\.S|e\.g|i\.e|Pub|Rev)\.)(?<!… \d{1,2}\.)(?<!\b(?!(?:${DOCUMENT_PARTS})\s)\p{Lu}\p{Ll}+ \p{Lu}\.)\s+(?=["“(]?[\p{Lu}\p{N}$])`,
  "u",
);
/** A worked-out change ("(from 2022 to 2023: up $243, or 30%)"): its figures come from two of the page's. */
const WORKED_OUT = /\((?:from|between) [^()]*?: (?:up|down|unchanged)[^()]*\)/g;
/** Where a quote leaves words of its page out ("...following apply: … 4. Your taxable income..."). */
const OMITTED = /\s…\s/;
/** A list item's number before what it says ("4. Your taxable income..."). */
const ITEM_NUMBER = /^\s*\(?\d{1,2}[.)]\s+/;
const QUOTED = /["“]([^"“”]{3,}?)["”]/g;

/** A text without its hyphens and the spaces after them: "filled- out" and "filled-out" read alike. */
const withoutHyphens = (text: string) => text.replace(/-\s*/g, "");

/** A figure as a reader is told it: with the unit of time its number alone does not write ("3 months"). */
const told = (f: Figure) => (f.unit && !/\p{L}/u.test(f.written) ? `${f.written} ${f.unit}${f.value === 1 ? "" : "s"}` : f.written);
/** The answer's claims: its lines' sentences, without the "See also" line, list marks, headings or notes. */
function sentencesOf(answer: string): { text: string; line: number }[] {
  return answer
    .split("\n")
    .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, "").trim())
    .flatMap((line, at) =>
      !line || /^See also:/.test(line) || /^_.*_$/.test(line) || /^[^.!?]*:$/.test(line)
        ? []
        : line.split(SENTENCE_END).map((text) => ({ text: text.trim(), line: at })),
    )
    .filter((s) => /[\p{L}\p{N}]/u.test(s.text));
}

/**
 * Each sentence of an answer checked against the texts of the sources it cites, by source number
 * (`sources.get(n)`: every passage cited under [n]). A sentence with no [n] of its own is covered by
 * the next citation in its line ("First sentence. Second sentence. [2]": a quote's one mark).
 */
export function verifyAnswer(
  answer: string,
  sources: ReadonlyMap<number, readonly string[]>,
  { documentNames = [] }: { documentNames?: readonly string[] } = {},
): Verification {
  const sentences = sentencesOf(answer);
  // a file's name ("Handbook 2025.pdf") is no figure the answer states
  const names = [...documentNames].sort((a, b) => b.length - a.length);
  const withoutNames = (text: string) => names.reduce((t, name) => t.split(name).join(" "), text);
  const cites = sentences.map((s) => [...s.text.matchAll(CITATION)].map((m) => Number(m[1])));
  // the cited pages as compared, read once per set of citations
  const read = new Map<string, { figures: Figure[]; text: string; unhyphenated: string; sentences: PageSentence[] }>();
  const pagesOf = (cited: number[]) => {
    const key = cited.join(",");
    if (!read.has(key)) {
      const pages = cited.flatMap((n) => sources.get(n) ?? []).join(" ");
      // a date broken at a line end ("De- cember 31") is quoted whole
      const joined = joinedBrokenWords(pages);
      const text = comparable(pages);
      read.set(key, { figures: figuresOf(joined), text, unhyphenated: withoutHyphens(text), sentences: pageSentences(joined) });
    }
    return read.get(key)!;
  };
  const checks = sentences.map((s, i): SentenceCheck => {
    let cited = cites[i]!;
    for (let next = i + 1; !cited.length && next < sentences.length && sentences[next]!.line === s.line; next++) cited = cites[next]!;
    const missing: string[] = cited.filter((n) => !sources.has(n)).map((n) => `[${n}]`);
    const { figures: pageFigures, text: page, unhyphenated, sentences: restatable } = pagesOf(cited);
    const workedOut = [...s.text.matchAll(WORKED_OUT)].map((m) => m[0]);
    const stated = withoutNames(s.text).replace(WORKED_OUT, " ");
    const figures = figuresOf(stated);
    const unfound = (f: Figure) => !pageStates(f, pageFigures);
    missing.push(...figures.filter(unfound).map(told));
    for (const clause of workedOut)
      missing.push(
        ...figuresOf(clause)
          .filter((f) => unfound(f) && !workedOutFrom(f, pageFigures))
          .map(told),
      );
    // a word the page broke at a line end ("filled- out") is quoted whole ("filled-out")
    for (const [, phrase] of s.text.matchAll(QUOTED))
      if (!unhyphenated.includes(withoutHyphens(comparable(phrase!).trim()))) missing.push(`"${phrase}"`);
    if (!cited.length) {
      // nothing to look up: a figure stated without a source is unsupported, words alone are no claim to check
      return { sentence: s.text, status: figures.length ? "unsupported" : "supported", missing: figures.map(told) };
    }
    // an excerpt ("…because: … 2. You substantially understate your income tax.") restates its
    // parts apart, each without the number of the list item it quotes
    for (const part of stated.replace(CITATION, " ").split(OMITTED)) {
      const said = part.replace(ITEM_NUMBER, "");
      const partFigures = figuresOf(said);
      const match = restated(said, partFigures, restatable);
      if (match)
        missing.push(
          ...addedNegations(said, match),
          ...swappedFigures(partFigures, match)
            .filter(({ figure }) => !unfound(figure)) // one not on the page at all is said so once, above
            .map(({ figure, replaced }) => `${told(figure)} (in place of ${told(replaced)})`),
        );
    }
    if (!figures.length && !workedOut.length) {
      const words = contentWords(stated.replace(CITATION, " "));
      const held = words.filter((w) => page.includes(w)).length;
      if (words.length && held < words.length * CONTENT_SHARE) missing.push(...words.filter((w) => !page.includes(w)));
    }
    return { sentence: s.text, status: missing.length ? "unsupported" : "supported", missing: [...new Set(missing)] };
  });
  return { checks, verified: { sentences: checks.length, unsupported: checks.filter((c) => c.status === "unsupported").length } };
}
