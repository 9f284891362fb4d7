// Every quotable sentence of the passages scored for a question: the rarer the question's terms it
// holds and the fewer other words around them, the higher; the kind of fact asked counts more.
// Shared by retrieval's re-rank and the local writer.

import { ASKS_WHERE_TO_LOOK } from "../passages/contents";
import { type ListedCase, type QuotableSentence, casesOf, quotableSentences } from "../passages/quotable";
import { isTaxTableRow, rangeHolds, statedAmounts } from "../passages/tax-table";
import { wordCount } from "../passages/sentences";
import { MONTH, SHARE_ASKED, askedFactKind, factStrength, rowAnswers, rowStrength } from "../question/fact-kind";
import { termAsked } from "../question/definition";
import { definingSentence } from "../passages/defining-sentence";
import { glossaryMatches, saidApart } from "../question/glossary";
import { MEANING_WORDS, PERIOD_WORD, askedPart, codeLetters, queryTerms, stem, wordsOf } from "../question/terms";

/** How much the question terms of the previous sentence count for a sentence. */
const NEIGHBOUR_WEIGHT = 0.35;
/** The weight of a sentence that holds the kind of fact asked for (an amount, a period, a date, a rule). */
const FACT_BONUS = 3;
/** How much more a code the question names by its letter ("code W") counts than another term as rare. */
const CODE_WEIGHT = 3;
/**
 * How much a word of a compound the question writes ("time" of "full-time") counts alone: the
 * compound is the term, its words alone are mostly other things (bench:offline, dev fact in answer:
 * 68 at 0, 69 at 0.25, 68 at 0.5, 66 at 1).
 */
const PART_WEIGHT = 0.25;

export interface ScoredSentence {
  /** index of the passage the sentence comes from */
  passage: number;
  text: string;
  score: number;
  /** a table row as a labelled line ("Net income: 2023 1,058; 2022 815") */
  row?: true;
  /** a form's numbered line as a labelled line ("Line 11: Subtract line 10 from line 9...") */
  formLine?: true;
  /** part of a worked example */
  example?: true;
  /** says what the term a question asks to define is (passages/defining-sentence.ts) */
  defines?: true;
  /** the sentence before it in its passage (none for a row, a form's line or a passage's first sentence) */
  before?: string;
}

/**
 * A sentence of a passage, in lower case for matching question terms, what is
 * quoted of it (the sentence without a heading run into it), and its word count
 * once needed. A table row is there only as a labelled line.
 */

/** A compound a question writes: "full-time", "head-of-household", "e-filing" (a form's name has a digit: "W-2"). */
const COMPOUND = /(?<![\p{L}\p{N}-])\p{L}+(?:-\p{L}+)+(?![\p{L}\p{N}-])/gu;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The question's terms to find in sentences, each a pattern matching the start of a word, with its
 * weight: each word stemmed, and each compound as one term (its last word stemmed: "e-filing" finds
 * "e-file"), whose words alone count PART_WEIGHT ("time" of "full-time" is mostly something else).
 */
function sentenceTerms(question: string): { pattern: string; weight: number }[] {
  const compounds = [...new Set(question.toLowerCase().match(COMPOUND) ?? [])];
  const standalone = new Set(wordsOf(question.replace(COMPOUND, " ")));
  const parts = new Set(compounds.flatMap((c) => c.split("-")).filter((w) => !standalone.has(w)));
  return [
    ...queryTerms(question)
      .filter((t) => !MEANING_WORDS.has(t))
      .map((t) => ({ pattern: escapeRegExp(stem(t)), weight: parts.has(t) ? PART_WEIGHT : 1 })),
    ...compounds.map((c) => ({ pattern: stem(c).split("-").map(escapeRegExp).join("[\\s-]?"), weight: 1 })),
  ];
}

/**
 * A question's term naming a period or a point in it ("fiscal", "second", "quarter", "year end"),
 * as a table's column heads write it in other words; not a total, a year's number or a month,
 * which heads write as they are ("FY2022" is 2022).
 */
const headsPeriod = (term: string) => PERIOD_WORD.test(term) && !/^(total|fy\d|\d)/.test(term) && !MONTH.test(term);
/** How a question names a quoted row ("Label: figures"; row-labels.ts rowNaming). */
export interface RowNaming {
  /** how much the row's score counts */
  weight: number;
  /**
   * whether the question names all of its label ("Revenue" for "What was revenue in the second
   * quarter?"): the row that answers it, whose column heads also write the period it asks
   */
  wholly: boolean;
}

/** A row the question does not name by its label (scoreSentences without `rowNaming`). */
const UNNAMED_ROW: RowNaming = { weight: 1, wholly: false };
/** A labelled row whose figures are headed by periods or dates: "Revenue: Three months ended July 29, 2023 $9,583; ...", "Net sales: 2023 $3,226.8; ...". */
const HEADED_ROW =
  /^[^:]+: (?:(?:[A-Z][a-z]+(?:-[a-z]+)?|\d{1,2}) (?:months|weeks) ended )?(?:(?:19|20)\d\d|[A-Z][a-z]+ \d{1,2}, (?:19|20)\d\d) /;

/**
 * A term of the file's name ("3M" of 3M_2018_10K.pdf, "Pfizer", "Best" and "Buy" of BESTBUY_2023_10K.pdf)
 * names what every page of it is about, and counts this much in a sentence (bench:offline: 0.5 moved
 * FinanceBench lead 9 -> 10/23, dev unchanged; 0.25 and 0 lost FinanceBench answers).
 */
const FILE_NAME_WEIGHT = 0.5;

/** Whether a term (with a letter: "2023" names a period, not the file) is part of one of the file names, written together ("bestbuy202310k"). */
function namesFile(pattern: string, fileNames: readonly string[]): boolean {
  const term = pattern.replace(/[^\p{L}\p{N}]/gu, "");
  return term.length >= 2 && /\p{L}/u.test(term) && fileNames.some((name) => name.includes(term));
}

/**
 * Every quotable sentence of the passages, scored: the rarer the question terms
 * it contains and the fewer other words around them, the higher; a sentence that
 * holds the kind of fact asked for counts more; better-ranked sources break ties.
 * Headings are never quoted; table rows only as labelled lines, and never for a
 * date, a period or a rule. `quoteCases`: the case of a listed sentence the question singles out is
 * scored as a sentence too (for the answer; ranking passages needs no more than their sentences).
 * `percentRows`: a share asked is stated by a row of percents before one of sums (for the answer: a
 * page of sums holds the share's parts).
 * `fileNames`: the passages' file names, letters and digits only, whose terms count FILE_NAME_WEIGHT.
 * `rowNaming`: how the question names a table row ("Label: figures"; row-labels.ts): how much its
 * score counts, and whether its column heads, when headed by periods or dates, hold the question's
 * period words ("quarter", "fiscal").
 */
export function scoreSentences(
  question: string,
  passageTexts: readonly string[],
  {
    quoteCases = false,
    percentRows = false,
    fileNames = [],
    rowNaming = () => UNNAMED_ROW,
  }: {
    quoteCases?: boolean;
    percentRows?: boolean;
    fileNames?: readonly string[];
    rowNaming?: (row: string) => RowNaming;
  } = {},
): ScoredSentence[] {
  const terms = sentenceTerms(question).map((t) => (namesFile(t.pattern, fileNames) ? { ...t, weight: t.weight * FILE_NAME_WEIGHT } : t));
  if (terms.length === 0) return [];
  const kind = askedFactKind(question);
  // a term asked to define: the sentence that says what it is states the fact (question/definition.ts)
  const definedTerm = kind === "definition" ? termAsked(askedPart(question)) : null;
  const definition = definedTerm ? definingSentence(definedTerm) : null;
  // as written or as quoted, without a heading run into it ("Working hours. Overtime means..."); read
  // once per sentence, for its score and its mark
  const definesMemo = new Map<QuotableSentence, boolean>();
  const defines = (sentence: QuotableSentence) => {
    if (definition === null || sentence.row) return false;
    let says = definesMemo.get(sentence);
    if (says === undefined) definesMemo.set(sentence, (says = definition.test(sentence.text) || definition.test(sentence.quote)));
    return says;
  };
  const rowsAnswer = rowAnswers(kind);
  const shareAsked = percentRows && SHARE_ASKED.test(question.toLowerCase());
  const entriesAnswer = ASKS_WHERE_TO_LOOK.test(question);
  const amounts = statedAmounts(question);
  const passages = passageTexts.map((text, passage) => ({
    passage,
    // a tax table's row answers only the income it holds: another is a figure of no one's tax
    sentences: quotableSentences(text).filter(
      (s) => (rowsAnswer || !s.row) && (entriesAnswer || !s.entry) && !(s.row && isTaxTableRow(s.text) && !rangeHolds(s.text, amounts)),
    ),
  }));
  // which terms each sentence holds (a term matches the start of a word: "deduct" finds "deduction"),
  // one expression per term compiled once per question; keyed by text, so a sentence found in two
  // passages counts once for the terms' rarity
  const termTests: { test(sentence: string): boolean }[] = terms.map((t) => new RegExp(`(?<![\\p{L}\\p{N}])${t.pattern}`, "u"));
  // what the question names in other words ("capex": "purchases of property, plant and equipment") counts as one
  // more term, where the sentence does not already name it as the question does (its words count already)
  for (const m of glossaryMatches(question))
    termTests.push({ test: (sentence) => m.pattern.test(sentence) && !m.usedPattern.test(sentence) });
  for (const said of saidApart(question)) termTests.push(said);
  // a code the question names by its letter is what it asks about: a sentence without it explains another code
  const codes = codeLetters(question).map((letter) => new RegExp(`(?:^|[).]\\s)${letter}\\s?[—–]|\\bcodes? ${letter}\\b`, "u"));
  const weights = termTests.map((_, j) => terms[j]?.weight ?? 1).concat(codes.map(() => CODE_WEIGHT));
  termTests.push(...codes);
  // an amount the question states ("my taxable income is $35,220") is held by the tax table's row
  // whose range holds it, as a code is by its entry: the row asked among rows of the same words
  if (amounts.length) {
    termTests.push({ test: (sentence) => rangeHolds(sentence, amounts) });
    weights.push(CODE_WEIGHT);
  }
  const holds = new Map<string, boolean[]>();
  // a period the question names ("in the second quarter of fiscal 2024") is written in a table's
  // column heads ("Three months ended July 29, 2023"): the row asked, headed by periods, holds its
  // words, as rare as the words are where written
  const periodTerms = termTests.map((_, j) => j < terms.length && headsPeriod(terms[j]!.pattern));
  const headedRows = new Set<string>();
  const naming = new Map<string, RowNaming>();
  for (const p of passages) {
    for (const { text, lower, row } of p.sentences) {
      if (holds.has(text)) continue;
      holds.set(
        text,
        termTests.map((term) => term.test(lower)),
      );
      if (!row) continue;
      naming.set(text, rowNaming(text));
      if (naming.get(text)!.wholly && HEADED_ROW.test(text)) headedRows.add(text);
    }
  }
  const total = holds.size;
  const idf = termTests.map((_, j) => weights[j]! * Math.log(1 + total / (1 + [...holds.values()].filter((h) => h[j]).length)));
  const matched = (sentence: string) => {
    const headed = headedRows.has(sentence);
    return holds.get(sentence)!.reduce((sum, hit, j) => sum + (hit || (headed && periodTerms[j]) ? idf[j]! : 0), 0);
  };
  // a listed case is no sentence of its own for the terms' rarity: its words are its list's
  const matchedIn = (lower: string) => termTests.reduce((sum, term, j) => sum + (term.test(lower) ? idf[j]! : 0), 0);
  const termsIn = (lower: string) => termTests.filter((term) => term.test(lower)).length;
  const scoreOf = (sentence: QuotableSentence, own: number, context: number) => {
    sentence.words ??= wordCount(sentence.text);
    const density = context / Math.sqrt(Math.max(sentence.words, 12));
    // the kind of fact asked counts only in a sentence about the question: one that holds none of
    // its terms ("Staff may work from home two days a week" after the parental leave sentence) is
    // at most context
    const fact =
      kind && own > 0
        ? 1 +
          (FACT_BONUS - 1) *
            (definition
              ? Number(defines(sentence))
              : sentence.row
                ? rowStrength(sentence.text, shareAsked)
                : ((sentence.strength ??= {})[kind] ??= factStrength(sentence.text, kind)))
        : 1;
    return density * fact;
  };
  return passages.flatMap(({ passage, sentences }) => {
    let before = 0;
    let previous: string | undefined;
    return sentences.flatMap((sentence) => {
      const own = matched(sentence.text);
      // a heading is read as the next sentence's context and never quoted
      if (sentence.heading) {
        before = own;
        previous = undefined;
        return [];
      }
      // the sentence before often names the subject the answer sentence refers to ("It", "This tax");
      // a table row or a form's line has no such sentence and is no sentence's
      const alone = sentence.row || sentence.formLine;
      const context = own + (alone ? 0 : NEIGHBOUR_WEIGHT * before);
      const sentenceBefore = alone ? undefined : previous;
      const scored: ScoredSentence[] = [];
      const cases = quoteCases && !alone && !sentence.entry ? (sentence.cases ??= casesOf(sentence.text)) : null;
      const asked = cases && askedCase(cases, matchedIn, termsIn);
      if (asked) {
        const caseOwn = matchedIn(asked.case.lower);
        const score = scoreOf(asked.case, caseOwn, caseOwn + NEIGHBOUR_WEIGHT * before);
        // cases that tie are quoted in their list: the reader finds theirs among them
        scored.push({
          passage,
          text: asked.alone ? asked.case.quote : sentence.quote,
          score,
          ...(sentenceBefore && { before: sentenceBefore }),
        });
      }
      if (!alone) before = own;
      // what a sentence after a table points back to is the table, not the sentence before it
      previous = alone ? undefined : sentence.quote;
      if (own > 0 || context > 0) {
        const score = scoreOf(sentence, own, context) * (sentence.row ? naming.get(sentence.text)!.weight : 1);
        scored.push({
          passage,
          text: sentence.quote,
          score,
          ...(sentence.row && { row: true as const }),
          ...(sentence.formLine && { formLine: true as const }),
          ...(sentence.example && { example: true as const }),
          ...(defines(sentence) && { defines: true as const }),
          ...(sentenceBefore && { before: sentenceBefore }),
        });
      }
      return scored;
    });
  });
}

/**
 * The case of a list the question singles out: the one whose own words hold more of the question's
 * terms than any other case's (`alone`), or the first of the few that tie ("married filing
 * separately" is in two cases, living apart and living together): the whole list answers then, as
 * closely about the question as its case. None when every case ties (the question names no case),
 * or when cases tie on one word alone.
 */
function askedCase(
  cases: readonly ListedCase[],
  matchedIn: (lower: string) => number,
  termsIn: (lower: string) => number,
): { case: ListedCase; alone: boolean } | null {
  const scores = cases.map((c) => matchedIn(c.caseLower));
  const best = Math.max(...scores);
  const tied = scores.filter((s) => s === best).length;
  if (best <= 0 || tied === cases.length) return null;
  const first = cases[scores.indexOf(best)]!;
  if (tied === 1) return { case: first, alone: true };
  // a tie on one word ("filing" of "married filing jointly") is chance; on several, a case the list has twice
  return termsIn(first.caseLower) >= 2 ? { case: first, alone: false } : null;
}
