// The words people ask in and the words documents write for the same thing:
// "capex" is "purchases of property, plant and equipment" in a cash flow
// statement, a "kid" is a "child" in a tax publication. Each group lists the
// phrasings of one thing in general business, tax and plain-English use; a
// question that uses one also searches, and scores sentences by, the others a
// document would use. The plain-English groups were checked on the development
// questions (bench/qa, the dev half; docs/decisions.md).

import { GROUPS } from "./glossary-groups";

/**
 * One phrasing as a pattern: any spacing or punctuation between its words (letters, digits, "&":
 * nothing to escape; "as a % of"), a plural's "s" at its end; as a document writes it
 * (`inflected`), a verb's "-ed" or "-ing" too ("limited", "withdrawing").
 */
function phrasePattern(phrase: string, { inflected = false } = {}): string {
  const body = (phrase.toLowerCase().match(/[\p{L}\p{N}&]+/gu) ?? []).join("[\\s,.&/%-]*");
  return `(?<![\\p{L}\\p{N}])${body}(?:e?s${inflected ? "|e?d|ing" : ""})?(?![\\p{L}\\p{N}])`;
}

/** Words before a noun: a verb's phrasing after one is a noun or an adjective ("a change in", "your correct TIN"). */
const BEFORE_A_NOUN = String.raw`(?<!\b(?:a|an|any|the|no|my|your|his|her|its|our|their)\s+)`;

const COMPILED = GROUPS.map((phrases) =>
  phrases.map((written) => {
    const phrase = written.replace(/^[~^]/, "");
    // "~": only people say it ("kid"); a question in the document's words is not searched for it.
    // "^": a verb ("correct your return"); the same word naming a thing is not found in a question
    const asked = (written.startsWith("^") ? BEFORE_A_NOUN : "") + phrasePattern(phrase);
    return { phrase, informal: written.startsWith("~"), everywhere: new RegExp(asked, "giu") };
  }),
);

export interface GlossaryMatch {
  /** the phrasings the question used */
  used: string[];
  /** the document's phrasings the question did not use, to search too */
  others: string[];
  /** any of those phrasings, to find in a sentence */
  pattern: RegExp;
  /** any phrasing the question used */
  usedPattern: RegExp;
}

/** The last question's matches: a turn searches and scores sentences for one question several times. */
let last: { question: string; matches: GlossaryMatch[] } | null = null;

/** For each group the question uses one phrasing of, the others it could be written in. */
export function glossaryMatches(question: string): GlossaryMatch[] {
  if (last?.question !== question) last = { question, matches: findMatches(question) };
  return last.matches;
}

function findMatches(question: string): GlossaryMatch[] {
  // where each phrasing occurs; one inside a longer phrasing of another group is not used ("cash" in "cash flow statement")
  const found = COMPILED.flatMap((group, g) =>
    group.flatMap((p) => [...question.matchAll(p.everywhere)].map((m) => ({ g, p, start: m.index, end: m.index + m[0].length }))),
  );
  // the longest phrasing at each position claims it first (linear in the question's length)
  const longest = new Array<(typeof found)[number] | undefined>(question.length);
  for (const m of [...found].sort((a, b) => b.end - b.start - (a.end - a.start)))
    for (let at = m.start; at < m.end; at++) longest[at] ??= m;
  const used = found.filter((a) => {
    const b = longest[a.start]!;
    return b.g === a.g || b.end - b.start === a.end - a.start || a.end > b.end;
  });
  return COMPILED.flatMap((group, g) => {
    const usedHere = group.filter((p) => used.some((m) => m.g === g && m.p === p));
    const others = group.filter((p) => !usedHere.includes(p) && !p.informal);
    if (!usedHere.length || !others.length) return [];
    return [
      {
        used: usedHere.map((p) => p.phrase),
        others: others.map((p) => p.phrase),
        pattern: new RegExp(others.map((p) => phrasePattern(p.phrase, { inflected: true })).join("|"), "iu"),
        usedPattern: new RegExp(usedHere.map((p) => phrasePattern(p.phrase)).join("|"), "iu"),
      },
    ];
  });
}

/** Taxability asked: "Is unemployment taxable?", "Are scholarships tax-free?", "Do I owe tax on it?", "Is it taxed?". */
const TAXABILITY_ASKED = /\b(?:taxable|tax[- ]free|nontaxable|taxed|(?:owe|pay) (?:any )?tax(?:es)? on)\b/i;
/** What is taxable is included in income, what is not excluded: "include ... in (your) (gross) income", "excluded from income". */
const INCLUDED_IN_INCOME = /\b(?:includ|includible|exclud)\w*\b[^.;]{0,80}?\b(?:in|from) (?:your |gross |taxable )*income\b/;

/**
 * What a question asks that documents say with other words between, no phrasing a group can hold:
 * whether something is taxable is whether it is included in income ("You must include in income
 * all unemployment compensation you receive"). Each a test of a sentence (lower case) that says it
 * without the question's own word, for one more term of its score.
 */
export function saidApart(question: string): { test(sentence: string): boolean }[] {
  return TAXABILITY_ASKED.test(question) ? [{ test: (sentence) => INCLUDED_IN_INCOME.test(sentence) && !/\btax/.test(sentence) }] : [];
}
