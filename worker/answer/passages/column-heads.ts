// A table's column heads (years, dates, the periods they end) and the heads a chunk inherits
// when a long statement is cut across chunks.

import { MONTH_NAME } from "../question/fact-kind";
import { sentencePieces } from "./sentences";
import { CALENDAR_DATE, isTableRow } from "./table-rows";

export const YEAR = /^(19|20)\d\d$/;

/** "Three Months Ended", "Twelve months ended": the period a run of repeated dates heads, in turn. */
const PERIOD_ENDED = /\b(Three|Six|Nine|Twelve|Thirteen|Fourteen|Fifty-two|Fifty-three|13|14|26|39|52|53) (Months|Weeks) Ended\b/gi;
/** Words before a table's dates read for the periods they head (and characters, for a chunk inheriting them). */
export const MAX_PERIOD_WORDS = 40;
const PERIODS_BEFORE_CHARS = 300;

/**
 * The heads of a run of dates: the dates when they differ; when they repeat ("December 31, 2022
 * December 31, 2021 December 31, 2022 December 31, 2021"), each with the period it ends, read in
 * turn from the periods written before them ("Three months ended ... Twelve months ended"): none
 * when those do not say.
 */
function datedHeads(dates: readonly string[], before: string): string[] {
  const distinct = new Set(dates).size;
  if (distinct === dates.length) return [...dates];
  const periods = [...before.matchAll(PERIOD_ENDED)].map((m) => m[0].charAt(0).toUpperCase() + m[0].slice(1).toLowerCase());
  if (dates.length % distinct !== 0 || periods.length !== dates.length / distinct) return [];
  return dates.map((date, n) => `${periods[Math.floor(n / distinct)]} ${date}`);
}

/**
 * A table's column heads, and where its rows start: the first run of two or more years ("2018
 * 2017 2016"), or of two or more dates ("July 29, 2023 January 28, 2023"; dates repeated for
 * periods of different lengths are read with their periods: datedHeads).
 */
/** Whether a calendar date ("July", "29,", "2023") starts at token i. */
export const dateAt = (tokens: readonly string[], i: number) =>
  MONTH_NAME.test(tokens[i] ?? "") && /^\d{1,2},$/.test(tokens[i + 1] ?? "") && YEAR.test(tokens[i + 2] ?? "");

export function columnHeads(tokens: readonly string[]): { heads: string[]; start: number } {
  for (let i = 0; i < tokens.length; i++) {
    let j = i;
    while (j < tokens.length && YEAR.test(tokens[j]!)) j++;
    if (j - i >= 2) return { heads: splitDatedHeads(tokens, i, tokens.slice(i, j)) ?? tokens.slice(i, j), start: j };
    const dates: string[] = [];
    for (j = i; dateAt(tokens, j); j += 3) dates.push(tokens.slice(j, j + 3).join(" "));
    if (dates.length >= 2) return { heads: datedHeads(dates, tokens.slice(Math.max(0, i - MAX_PERIOD_WORDS), i).join(" ")), start: j };
  }
  return { heads: [], start: 0 };
}

/**
 * Heads whose dates a PDF split, the month and day over their years ("13 Weeks Ended 52 Weeks Ended
 * January 28, January 29, January 28, January 29, (Dollars in millions) 2023 2022 2023 2022"),
 * when the years repeat for periods of different lengths: the dates made whole and named by their
 * periods ("13 weeks ended January 28, 2023"); null otherwise (the years alone head the figures).
 */
function splitDatedHeads(tokens: readonly string[], at: number, years: readonly string[]): string[] | null {
  if (new Set(years).size === years.length) return null;
  const before = tokens.slice(Math.max(0, at - MAX_PERIOD_WORDS), at);
  for (let k = 0; k + 1 < before.length; k++) {
    const days: string[] = [];
    let d = k;
    for (; MONTH_NAME.test(before[d] ?? "") && /^\d{1,2},$/.test(before[d + 1] ?? ""); d += 2) days.push(`${before[d]} ${before[d + 1]}`);
    if (days.length === years.length) {
      const heads = datedHeads(
        days.map((day, n) => `${day} ${years[n]}`),
        before.slice(0, k).join(" "),
      );
      return heads.length ? heads : null;
    }
    // another date ("March 9, 2023" of a release's dateline), or a run of another count: read on after it
    if (days.length) k = d - 1;
  }
  return null;
}

/** A table's column heads in a page's text: two or more years side by side ("2018 2017 2016"), or calendar dates ("July 29, 2023 January 28, 2023"). */
const HEAD_RUN = new RegExp(
  String.raw`(?<![\p{L}\p{N},$])(?:(?:19|20)\d\d\s+)+(?:19|20)\d\d(?![\p{L}\p{N}])|(?:${CALENDAR_DATE}\s+)+${CALENDAR_DATE}\b`,
  "gu",
);
const HOLDS_HEAD_RUN = new RegExp(HEAD_RUN.source, "u");
/** A word that ends a sentence ("were as follows.", "in fiscal 2023."): running text, no table's. */
const ENDS_SENTENCE = /\p{Ll}{2,}[.!?](?:\s|$)/u;

/** A table's heads are a few years or dates: a longer run of them is no table's heads (a list of years, a hostile page). */
const MAX_HEADS_CHARS = 200;

/** Where a page's text has column heads (HEAD_RUN), read once for all its chunks. */
export const headRuns = (page: string): { index: number; text: string }[] =>
  [...page.matchAll(HEAD_RUN)].filter((run) => run[0].length <= MAX_HEADS_CHARS).map((run) => ({ index: run.index!, text: run[0] }));

/**
 * The column heads a chunk of a page inherits when it starts inside a table whose heads an
 * earlier chunk holds: a long statement is cut into chunks, and the rows after the first would
 * lose which figure is which year. The heads of the last table before the chunk, when only that
 * table lies between (no sentence ends there); null when the chunk starts outside a table, or
 * with heads of its own. `page` is the page's normalised text, `runs` its headRuns, `at` where the
 * chunk starts in it.
 */
export function inheritedHeads(page: string, runs: readonly { index: number; text: string }[], at: number, chunk: string): string | null {
  if (at === 0) return null;
  const last = runs.findLast((run) => run.index < at);
  if (!last) return null;
  const end = last.index + last.text.length;
  // the chunk starts inside the heads ("January 28, 2023 July 30, 2022 Cash and..."): the heads before it complete them
  if (end > at) return page.slice(last.index, at).trim() || null;
  const first = sentencePieces(chunk)[0] ?? "";
  if (!isTableRow(first) || HOLDS_HEAD_RUN.test(first) || ENDS_SENTENCE.test(page.slice(end, at))) return null;
  const before = page.slice(Math.max(0, last.index - PERIODS_BEFORE_CHARS), last.index);
  if (columnHeads(last.text.split(" ")).heads.length) {
    // years repeated for periods of different lengths, their months and days split before them
    // (splitDatedHeads): the heads are read from the first period's name on
    const from = before.search(PERIOD_ENDED);
    const whole = from >= 0 ? `${before.slice(from)} ${last.text}`.replace(/\s+/g, " ") : null;
    return whole && /ended/i.test(columnHeads(whole.split(" ")).heads[0] ?? "") ? whole : last.text;
  }
  // dates repeated for periods of different lengths are the periods' heads, with their periods (datedHeads)
  const periods = before.match(PERIOD_ENDED);
  const withPeriods = periods && `${periods.join(" ")} ${last.text}`;
  return withPeriods && columnHeads(withPeriods.split(" ")).heads.length ? withPeriods : null;
}

/** A passage's text as its sentences and rows are read: with the column heads it inherits first (inheritedHeads). */
export const withColumnHeads = (passage: { text: string; columnHeads?: string }) =>
  passage.columnHeads ? `${passage.columnHeads} ${passage.text}` : passage.text;
