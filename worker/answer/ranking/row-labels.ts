// A statement's rows found by their labels. "What was revenue in fiscal 2023?" is answered by the
// income statement's "Revenue" row, but that page names revenue once among a hundred figures, and
// a search of its whole text ranks it below every page that discusses revenue. The Library keeps
// each chunk's row labels apart (rowLabels) and ranks the chunks whose labels the question names
// whole (rowLabelScore).
import { glossaryMatches } from "../question/glossary";
import { isAskingWord, PERIOD_WORD, queryTerms, stem, wordsOf } from "../question/terms";
import { isTableRow } from "../passages/table-rows";
import { labelledRows, rowLabelText } from "../passages/labelled-rows";
import { splitSentences } from "../passages/sentences";
import { type RowNaming } from "./sentence-scores";

/**
 * The labels of the table rows in a chunk's text ("Revenue", "Total assets", "Total cash provided
 * by operating activities"), one per line; null when it has no table rows.
 */
export function rowLabels(text: string): string | null {
  const labels = splitSentences(text).filter(isTableRow).flatMap(labelledRows).map(rowLabelText);
  return labels.length ? labels.join("\n") : null;
}

/**
 * A word's stem as a label's words start with it: a noun's final y after a consonant left out, as a
 * statement writes the plural ("Merchandise inventories" for "inventory"; "Total liabilities").
 */
const labelStem = (word: string) => stem(word).replace(/(?<=\p{L}{3}[^aeiou])y$/u, "");

/** A stem shorter than this ("r" of "R&D") would name every label it starts a word of. */
const MIN_STEM = 2;

/** Particles of a verb or a time, which no row's label holds: "pay out", "bring in", "during". */
const PARTICLE = /^(out|in|up|down|off|over|during|each|per)$/;

const namesRow = (word: string) => !isAskingWord(word) && !PERIOD_WORD.test(word) && !PARTICLE.test(word);

/** What a question asks a row for. */
export interface RowQuestion {
  /** the stems of its words, but those of a concept it names */
  stems: string[];
  /** each concept it names (glossary.ts), in all its phrasings, each phrasing the stems of its words */
  concepts: string[][][];
  /** a word of the files' own names: no more a label's word than the question's ("Net income attributable to 3M") */
  ownName: (word: string) => boolean;
}

/**
 * What a question asks a row for: its terms, without its period and without the files' own names
 * ("Best Buy" of BESTBUY_2023_10K.pdf is on every page; a store table's "Best Buy" row is no
 * answer), and the concepts it names in any of their phrasings (glossary.ts: "revenue" is "net
 * sales"), a phrasing named only whole ("net" alone is half the labels of a statement).
 */
export function rowQuestion(question: string, fileNames: readonly string[]): RowQuestion {
  const names = fileNames.map((name) => name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, ""));
  const ownName = (word: string) => /\p{L}/u.test(word) && names.some((name) => name.includes(word));
  const phrasing = (phrase: string) => wordsOf(phrase).filter(namesRow).map(labelStem);
  const concepts = glossaryMatches(question).map((m) => [...m.used, ...m.others].map(phrasing).filter((p) => p.length));
  const conceptStems = new Set(concepts.flat(2));
  return {
    stems: [
      ...new Set(
        queryTerms(question)
          .filter((w) => namesRow(w) && !ownName(w))
          .map(labelStem),
      ),
    ].filter((s) => s.length >= MIN_STEM && !conceptStems.has(s)),
    concepts,
    ownName,
  };
}

/** Parenthesised notes opening a label: "(Unaudited)", "(In millions)". */
const LEADING_NOTES = /^(?:\([^()]*\)\s*)+/;

/** Whose share a row counts, after what it counts: "Net income attributable to Pfizer Inc. common shareholders". */
const ATTRIBUTED = /\battributable to\b.*/i;

/** A label counts when the question names at least this share of its words... */
const MIN_LABEL_SHARE = 0.5;
/**
 * ...and it holds this share of the question's. bench:offline: a third lifted 10-K tables whose
 * label names one concept of a long analyst's question ("Capital expenditures" for "...the capex
 * amount ... shown in the cash flow statement"), and the chat path's FinanceBench hit@5 fell 21 -> 20/23.
 */
const MIN_QUESTION_SHARE = 0.5;

/**
 * How wholly a row's label and the question name each other: the share of the label's words (its
 * period, "total" and the files' names aside) the question names, and the share of the question's
 * words the label holds (a concept counted once, in any of its phrasings). Null when either is
 * below its minimum ("Net sales" is no answer to "wages expense as a percent of net sales").
 */
export function labelShares(label: string, asked: RowQuestion): { label: number; question: number } | null {
  if (asked.stems.length + asked.concepts.length === 0) return null;
  // the end of a label wrapped onto its own line ("of revenue", "% of revenue") names no row
  if (!/^[\p{Lu}\p{N}]/u.test(label.replace(LEADING_NOTES, ""))) return null;
  const words = labelWords(label, asked);
  if (words.length === 0) return null;
  const named = new Set<number>();
  let held = 0;
  for (const stemmed of asked.stems) {
    const at = words.flatMap((w, i) => (w.startsWith(stemmed) ? [i] : []));
    at.forEach((i) => named.add(i));
    if (at.length) held++;
  }
  for (const phrasings of asked.concepts) {
    let found = false;
    for (const phrasing of phrasings) {
      const start = phrasingAt(words, phrasing);
      if (start === -1) continue;
      phrasing.forEach((_, j) => named.add(start + j));
      found = true;
    }
    if (found) held++;
  }
  const shares = { label: named.size / words.length, question: held / (asked.stems.length + asked.concepts.length) };
  return shares.label >= MIN_LABEL_SHARE && shares.question >= MIN_QUESTION_SHARE ? shares : null;
}

/**
 * Whether a row's label names any of what the question asks about: a word of it or a concept it
 * names, its period and the files' own names aside ("Stores at End of Fiscal Year Canada Best Buy"
 * names nothing of "How much did Best Buy earn in fiscal 2023?"). True when the question asks about
 * nothing but those.
 */
export function labelNamesAny(label: string, asked: RowQuestion): boolean {
  if (asked.stems.length + asked.concepts.length === 0) return true;
  const words = labelWords(label, asked);
  const holds = (phrasing: readonly string[]) => phrasingAt(words, phrasing) !== -1;
  return asked.stems.some((stemmed) => holds([stemmed])) || asked.concepts.some((phrasings) => phrasings.some(holds));
}

/**
 * A label's words that can name what is asked: without a note on the table before its first label
 * ("(Unaudited) Assets Cash and cash equivalents"), whose share it counts, its period and the files' names.
 */
const labelWords = (label: string, asked: RowQuestion) =>
  wordsOf(label.replace(LEADING_NOTES, "").replace(ATTRIBUTED, "")).filter((w) => namesRow(w) && !asked.ownName(w));

/** Where a phrasing's stems start a run of the label's words, in order; -1 for nowhere. */
const phrasingAt = (words: readonly string[], phrasing: readonly string[]) =>
  words.findIndex((_, i) => phrasing.every((part, j) => words[i + j]?.startsWith(part)));

/** How wholly the question names one of a chunk's row labels (one per line): the best label's two shares summed; 0 for none. */
export function rowLabelScore(labels: string, asked: RowQuestion): number {
  let best = 0;
  for (const label of labels.split("\n")) {
    const shares = labelShares(label, asked);
    if (shares) best = Math.max(best, shares.label + shares.question);
  }
  return best;
}

/**
 * How much more a table row counts whose label is what the question asks, wholly ("Revenue" for
 * "What was revenue in fiscal 2023?"): the statement's row is the answer, where a sentence that
 * also says "revenue" and "fiscal 2023" only discusses it (a row writes its period in its column
 * heads, and holds fewer of the question's words). bench:offline, filings dev: lead 7 -> 12/14 with
 * the row-label search, FinanceBench lead 10 -> 11/23, IRS unchanged; 1.5 gave less; 3 (or by the
 * mean of both shares) put "Cash and cash equivalents" before the row of cash from operations.
 */
const NAMED_ROW_WEIGHT = 2;

/** How a question names each quoted row, its label read once per row. */
export function rowNaming(
  question: string,
  fileNames: readonly string[],
  asked: RowQuestion = rowQuestion(question, fileNames),
): (row: string) => RowNaming {
  return (row) => {
    const share = labelShares(rowLabelText(row), asked)?.label ?? 0;
    // 1, up to NAMED_ROW_WEIGHT as the question names all of its label
    return { weight: 1 + (NAMED_ROW_WEIGHT - 1) * share, wholly: share === 1 };
  };
}
