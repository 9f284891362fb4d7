// The figures a text states, read the same way in an answer and in the page it cites, so that one
// can be looked up in the other: "$1,234.5 million" is 1234.5 million, "7 percent" is 7%,
// "Jan. 31, 2025" is January 31, "sixteen weeks" is 16 weeks, "14,600" is 14600.

/** A figure as compared: its value, whether it is a percent, the scale word after it, and a date's month. */
export interface Figure {
  /** as the text writes it, for the reader ("$99,999", "Jan. 31") */
  written: string;
  value: number;
  percent: boolean;
  scale: "thousand" | "million" | "billion" | "trillion" | null;
  /** the month a day number follows ("January" of "January 31") */
  month: string | null;
}

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
    String.raw`|\b(${Object.keys(NUMBER_WORDS).join("|")})\b(?=[\s-]+(?:days?|weeks?|months?|years?|percent|times|hours?)\b)`,
  "gi",
);

/** Every figure a text states, citation marks ("[2]") aside. */
export function figuresOf(text: string): Figure[] {
  const figures: Figure[] = [];
  for (const m of text.replace(/\[\d{1,2}\]/g, " ").matchAll(FIGURE)) {
    if (m[5]) {
      figures.push({ written: m[0], value: NUMBER_WORDS[m[5].toLowerCase()]!, percent: false, scale: null, month: null });
      continue;
    }
    const month = m[1] ? (MONTH_ABBREVIATIONS[m[1].toLowerCase()] ?? m[1].toLowerCase()) : null;
    const value = Number(m[2]!.replace(/,/g, ""));
    if (!Number.isFinite(value)) continue;
    const scale = (m[4]?.toLowerCase() ?? null) as Figure["scale"];
    // a table's "% to Sales" or "Percent change" after an amount ("6,306 % to Sales") names the next row, as in labelled-rows.ts
    const percent = Boolean(m[3]) && !/^P/.test(m[3]!) && !(/\s%$/.test(m[0]) && /[,$]/.test(m[0]));
    figures.push({ written: m[0].trim(), value, percent, scale, month: month && value <= 31 ? month : null });
  }
  return figures;
}

/**
 * Whether the page states an answer's figure: the same value (currency and grouping aside), a
 * percent for a percent, the same month for a day, and the same scale where the page writes one
 * (a table's bare figure may be in the millions its heading names).
 */
export function pageStates(figure: Figure, page: readonly Figure[]): boolean {
  return page.some(
    (p) =>
      p.value === figure.value &&
      p.percent === figure.percent &&
      (figure.month === null || p.month === figure.month) &&
      (figure.scale === null || p.scale === null || p.scale === figure.scale),
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
