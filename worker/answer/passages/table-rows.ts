// Table rows read as text: a sentence that is mostly figures in columns, or a row's cells read
// across as if they were sentences.

import { MONTH_NAME } from "../question/fact-kind";

const NUMERIC_TOKEN = /^[$(]?[-+]?[\d.,]*\d[\d.,]*%?\)?$/;

/** A calendar date with its year ("January 28, 2023"). */
export const CALENDAR_DATE = String.raw`${MONTH_NAME.source} \d{1,2}, (19|20)\d\d`;
/** Two calendar dates side by side, a table's column heads ("January 28, 2023 January 29, 2022"): running text puts a word between. */
const DATE_COLUMNS = new RegExp(String.raw`${CALENDAR_DATE}\s+(\(\w+\)\s+)?${CALENDAR_DATE}\b`);
const CALENDAR_DATES = new RegExp(CALENDAR_DATE, "g");
/**
 * A day of a month followed straight by another month ("April 15 June 15 Sept."): a table's cells
 * read across; running text puts a comma or a word between dates.
 */
const MONTH_DAY_CELLS = new RegExp(String.raw`${MONTH_NAME.source}\.? \d{1,2} ${MONTH_NAME.source}`);

/**
 * A table row read as text ("2018 2017 $ 17,360 $ 16,202 ..."), or several rows
 * run together: mostly numbers, figures in columns (runs of three or more, or
 * three rows of two), or columns headed by dates (a balance sheet's two columns).
 */
export function isTableRow(sentence: string): boolean {
  if (DATE_COLUMNS.test(sentence) || MONTH_DAY_CELLS.test(sentence)) return true;
  // a date's day and year are no figures ("File Form 1040 by April 17, 2018.")
  const tokens = sentence
    .replace(CALENDAR_DATES, "date")
    .split(/\s+/)
    .filter((t) => t !== "$" && t !== "%");
  const numeric = tokens.filter((t) => NUMERIC_TOKEN.test(t)).length;
  if (numeric >= 3 && numeric / tokens.length >= 0.35) return true;
  let run = 0;
  let columns = 0;
  for (const t of tokens) {
    run = NUMERIC_TOKEN.test(t) ? run + 1 : 0;
    if (run >= 4) return true;
    if (run === 3) columns++;
  }
  return columns >= 2 || figurePairs(sentence) >= 3;
}

/**
 * Two figures side by side, as many times as a two-column statement has rows ("Receivables, net
 * 1,141 1,042"): running text puts a word between two figures, but for a date's day and year.
 */
function figurePairs(sentence: string): number {
  let pairs = 0;
  let run = 0;
  for (const t of sentence.replace(CALENDAR_DATES, "date").split(/\s+/)) {
    if (t === "$" || t === "%") continue;
    run = NUMERIC_TOKEN.test(t) ? run + 1 : 0;
    if (run === 2) pairs++;
  }
  return pairs;
}

// Abbreviations a sentence may run on after in lower case ("XYZ Corp. paid", "paper vs. electronic").
const ABBREVIATIONS = new Set("approx co corp dept etc inc jr ltd mr mrs ms no pub sr st vs".split(" "));

/**
 * The cells of a table row read across ("... at work $230,000 or less a full
 * deduction. more than $230,000 but less than $240,000 a partial deduction."):
 * running text never goes on in lower case after a full stop, except after an
 * abbreviation or before a list letter ("true. a."). Not a sentence, and with no
 * figures in columns, no labelled line either: never quoted.
 */
export function runsTableCells(sentence: string): boolean {
  // from each full stop (most sentences have only their last): one pattern over the whole
  // sentence cost a first question's re-rank of 50 new passages ~3 ms
  for (let stop = sentence.indexOf("."); stop > 0; stop = sentence.indexOf(".", stop + 1)) {
    const next = /^\s+(\p{Ll}{2,})/u.exec(sentence.slice(stop + 1, stop + 40));
    const last = next && /(\p{L}{2,}|\))$/u.exec(sentence.slice(Math.max(0, stop - 30), stop));
    if (last && !ABBREVIATIONS.has(last[1]!.toLowerCase()) && !/^[ivx]+$/.test(next[1]!)) return true;
  }
  return false;
}
