// The figures a text states, read the same way in an answer and in the page it cites, so that one
// can be looked up in the other: "$1,234.5 million" is 1234.5 million, "7 percent" is 7%,
// "Jan. 31, 2025" is January 31, 2025, "sixteen weeks" is 16 weeks, "14,600" is 14600; and what
// it counts where the text says ("60 days" is no 60 weeks, "October 2018" no October 2017).

/** A figure as compared: its value, whether it is a percent, the scale word after it, a date's month and year, a duration's unit. */
export interface Figure {
  /** as the text writes it, for the reader ("$99,999", "Jan. 31") */
  written: string;
  value: number;
  percent: boolean;
  scale: "thousand" | "million" | "billion" | "trillion" | null;
  /** the month a day number or a year follows ("January" of "January 31", "October" of "October 2018") */
  month: string | null;
  /** a date's year ("January 31, 2025"), when it writes one */
  year: number | null;
  /** the unit a count of time is in ("60 days", "12-month") */
  unit: Unit | null;
  /** the number of a form or publication it names ("Form(s) 1099", "Schedule 8812", "Pub. 505"): a name, no quantity */
  names?: true;
}

/** A form's or publication's name before its number: "Form(s) 1099", "Forms 1098", "Schedule 8812", "Pub. 505". */
const NAME_BEFORE = /\b(?:Forms?(?:\(s\))?|Schedule|Pub\.|Publication)\s*$/i;

export type Unit = "hour" | "day" | "week" | "month" | "quarter" | "year";

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const MONTH_ABBREVIATIONS: Record<string, string> = Object.fromEntries(
  MONTHS.flatMap((m) => [
    [m.slice(0, 3), m],
    [`${m.slice(0, 3)}.`, m],
  ]).concat([
    ["sept", "september"],
    ["sept.", "september"],
  ]),
);

/** The unit after a figure ("60 days", "12-month", "two full years"), and a date's year (", 2025"). */
const UNIT_AFTER = /^[\s-]+(?:full\s+|calendar\s+|consecutive\s+)?(hour|day|week|month|quarter|year)s?\b/i;
const YEAR_AFTER = /^,?\s+((?:19|20)\d\d)\b/;

const NUMBER_WORDS: Record<string, number> = Object.fromEntries(
  "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty"
    .split(" ")
    .map((word, i) => [word, i])
    .concat([
      ["thirty", 30],
      ["forty", 40],
      ["fifty", 50],
      ["sixty", 60],
      ["seventy", 70],
      ["eighty", 80],
      ["ninety", 90],
    ]),
);

/**
 * A number as written: "$1,234.5", "(1,577)", "23.0%", "7 percent", "1.2 billion", a month and day
 * ("Jan. 31"), or a number word before a unit ("sixteen weeks"). Commas group thousands only.
 */
const FIGURE = new RegExp(
  String.raw`(?:\b(${Object.keys(MONTH_ABBREVIATIONS).join("|").replace(/\./g, "\\.")}|${MONTHS.join("|")})\s+)?` +
    String.raw`\$?\s?\(?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\)?` +
    String.raw`(?:\s?(%|percent\b|per cent\b)|\s(thousand|million|billion|trillion)\b)?` +
    String.raw`|\b(${Object.keys(NUMBER_WORDS).join("|")})\b(?=[\s-]+(?:days?|weeks?|months?|quarters?|years?|percent|per cent|times|hours?)\b)`,
  "gi",
);

/** Every figure a text states, citation marks ("[2]") aside. */
export function figuresOf(text: string): Figure[] {
  const figures: Figure[] = [];
  const plain = text.replace(/\[\d{1,2}\]/g, " ");
  for (const m of plain.matchAll(FIGURE)) {
    const after = plain.slice(m.index + m[0].length, m.index + m[0].length + 30);
    const unit = (after.match(UNIT_AFTER)?.[1]?.toLowerCase() ?? null) as Unit | null;
    if (m[5]) {
      const percent = /^[\s-]+per\s?cent/i.test(after);
      figures.push({ written: m[0], value: NUMBER_WORDS[m[5].toLowerCase()]!, percent, scale: null, month: null, year: null, unit });
      continue;
    }
    const month = m[1] ? (MONTH_ABBREVIATIONS[m[1].toLowerCase()] ?? m[1].toLowerCase()) : null;
    const value = Number(m[2]!.replace(/,/g, ""));
    if (!Number.isFinite(value)) continue;
    const scale = (m[4]?.toLowerCase() ?? null) as Figure["scale"];
    // a table's "% to Sales" after an amount ("6,306 % to Sales") or "% Change" after a column's date or
    // year ("July 3, 2022 % Change", "2021 % Change") names the next column or row, as in labelled-rows.ts
    const spacedPercent = /\s%$/.test(m[0]) && (/[,$]/.test(m[0]) || /^\s*change\b/i.test(after));
    const percent = Boolean(m[3]) && !/^P/.test(m[3]!) && !spacedPercent;
    const day = month !== null && value >= 1 && value <= 31;
    const year = day ? Number(after.match(YEAR_AFTER)?.[1] ?? Number.NaN) : Number.NaN;
    figures.push({
      ...(NAME_BEFORE.test(plain.slice(Math.max(0, m.index - 16), m.index)) && { names: true as const }),
      written: m[0].trim(),
      value,
      percent,
      scale,
      // "October 2018": a year in its month; "Jan. 31": a day
      month: month && (day || isYear(value, m[0])) ? month : null,
      year: Number.isNaN(year) ? null : year,
      unit: scale || percent || month || isYear(value, m[0]) ? null : unit,
    });
  }
  return figures;
}

/** A number that reads as a year: 1900-2099, written bare. */
const isYear = (value: number, written: string) => Number.isInteger(value) && value >= 1900 && value <= 2099 && !/[$,.%]/.test(written);

/** What a figure counts, for telling one figure put in another's place: a date, a year, a percent, a duration or an amount. */
export function kindOf(figure: Figure): "date" | "year" | "percent" | "duration" | "amount" {
  if (figure.month !== null && figure.value <= 31) return "date";
  if (figure.percent) return "percent";
  if (figure.unit) return "duration";
  return isYear(figure.value, figure.written.replace(/^\p{L}+\.?\s+/u, "")) && !figure.scale ? "year" : "amount";
}

/**
 * Whether the page states an answer's figure: the same value (currency and grouping aside), a
 * percent for a percent, the same month (and year) for a date, and the same scale and unit where
 * the page writes one (a table's bare figure may be in the millions its heading names). A year in
 * its month ("October 2018") is also the year of a date of that month ("October 5, 2018").
 */
export function pageStates(figure: Figure, page: readonly Figure[]): boolean {
  return page.some(
    (p) =>
      (p.value === figure.value &&
        p.percent === figure.percent &&
        (figure.month === null || p.month === figure.month) &&
        (figure.year === null || p.year === null || p.year === figure.year) &&
        (figure.unit === null || p.unit === null || p.unit === figure.unit) &&
        (figure.scale === null || p.scale === null || p.scale === figure.scale)) ||
      (figure.month !== null && figure.value > 31 && p.month === figure.month && p.year === figure.value),
  );
}

/**
 * Whether a figure is worked out from two of the page's figures: their difference, or the change
 * from one to the other as a percent (rounded as the answer writes it), as the local writer works
 * out a change asked (row-change.ts).
 */
export function workedOutFrom(figure: Figure, page: readonly Figure[]): boolean {
  // a change in percentage points is the difference of two percents
  const values = [...new Set(page.filter((p) => p.month === null).map((p) => p.value))];
  const decimals = figure.written.match(/\.(\d+)/)?.[1]?.length ?? 0;
  const close = (x: number) => Math.abs(x - figure.value) <= 0.5 * 10 ** -decimals + 1e-9;
  for (const a of values)
    for (const b of values) {
      if (a === b) continue;
      if (!figure.percent && close(Math.abs(a - b))) return true;
      if (figure.percent && (close((Math.abs(b - a) / Math.abs(a)) * 100) || close(Math.abs(b - a)))) return true;
    }
  return false;
}
