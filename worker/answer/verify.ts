// The finished answer checked against the pages it cites (#43): each sentence's figures must be on
// a page it cites (or worked out from two of its figures, as the local writer works out a change),
// each quoted phrase must be there, each [n] must name a source of the answer, a sentence stating
// a figure must cite, and a sentence without figures must be mostly words of its pages.
import type { SentenceCheck, Verified } from "../contract/checks";
import type { Figure } from "./figures";
import { figuresOf, pageStates, workedOutFrom } from "./figures";

export type { SentenceCheck };

export interface Verification {
  checks: SentenceCheck[];
  verified: Verified;
}

/**
 * The share of a sentence's content words its cited pages must hold when it states no figure.
 * Chosen on the labelled set (bench/verify-set.jsonl) once it exists; a quote holds them all.
 */
const CONTENT_SHARE = 0.5;

const CITATION = /\[(\d{1,2})\]/g;
/** A sentence ends at . ! or ? (and the citations after it) before a capital, a digit or a quote; not after "Jan." or "No.". */
const SENTENCE_END =
  /(?<=[.!?]["”')]?(?:\s*\[\d{1,2}\])*)(?<!\b(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec|No|Mr|Mrs|Ms|Dr|Inc|Corp|Co|Ltd|vs|etc|U\.S|e\.g|i\.e|Pub|Rev)\.)\s+(?=["“(]?[\p{Lu}\p{N}$])/u;
/** A worked-out change ("(from 2022 to 2023: up $243, or 30%)"): its figures come from two of the page's. */
const WORKED_OUT = /\((?:from|between) [^()]*?: (?:up|down|unchanged)[^()]*\)/g;
const QUOTED = /["“]([^"“”]{3,}?)["”]/g;
const STOPWORDS = new Set(
  "about after also been before being both does each from have here into just more most must only other over same such than that their them then there these they this those under very were what when where which while will with would your".split(
    " ",
  ),
);

/** A text as compared: lower case, words broken at line ends made whole, one space. */
const comparable = (text: string) =>
  text
    .toLowerCase()
    .replace(/(\p{L})- (\p{Ll})/gu, "$1$2")
    .replace(/[‘’]/g, "'")
    .replace(/\s+/g, " ");

const contentWords = (text: string) => (comparable(text).match(/\p{L}{4,}/gu) ?? []).filter((w) => !STOPWORDS.has(w));

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
export function verifyAnswer(answer: string, sources: ReadonlyMap<number, readonly string[]>): Verification {
  const sentences = sentencesOf(answer);
  const cites = sentences.map((s) => [...s.text.matchAll(CITATION)].map((m) => Number(m[1])));
  const checks = sentences.map((s, i): SentenceCheck => {
    let cited = cites[i]!;
    for (let next = i + 1; !cited.length && next < sentences.length && sentences[next]!.line === s.line; next++) cited = cites[next]!;
    const missing: string[] = cited.filter((n) => !sources.has(n)).map((n) => `[${n}]`);
    const pages = cited.flatMap((n) => sources.get(n) ?? []).join(" ");
    const pageFigures = figuresOf(pages);
    const workedOut = [...s.text.matchAll(WORKED_OUT)].map((m) => m[0]);
    const stated = s.text.replace(WORKED_OUT, " ");
    const figures = figuresOf(stated);
    const unfound = (f: Figure) => !pageStates(f, pageFigures);
    missing.push(...figures.filter(unfound).map((f) => f.written));
    for (const clause of workedOut)
      missing.push(
        ...figuresOf(clause)
          .filter((f) => unfound(f) && !workedOutFrom(f, pageFigures))
          .map((f) => f.written),
      );
    const page = comparable(pages);
    for (const [, phrase] of s.text.matchAll(QUOTED)) if (!page.includes(comparable(phrase!).trim())) missing.push(`"${phrase}"`);
    if (!cited.length) {
      // nothing to look up: a figure stated without a source is unsupported, words alone are no claim to check
      return { sentence: s.text, status: figures.length ? "unsupported" : "supported", missing: figures.map((f) => f.written) };
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
