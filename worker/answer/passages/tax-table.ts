// The IRS tax table: rows of taxable income "at least / but less than", then the tax for each filing
// status ("35,200 35,250 4,007 3,787 4,007 3,913"). Read as text it is a run of numbers no reader
// can use; read here, each row is a labelled line naming its range and each status's tax
// ("Taxable income at least 35,200 but less than 35,250: Single 4,007; Married filing jointly
// 3,787; ..."), and the row whose range holds the income a question states is the answer.

/** The table's heads: "At least But less than Single Married filing jointly * Married filing sepa- rately Head of a house- hold Your tax is—". */
const HEADS =
  /At least\s+But less than\s+(Single)\s+(Married filing jointly)\s*\*?\s+(Married filing sep-?\s?a-?\s?rately)\s+(Head of a house-?\s?hold)\s+Your tax is/;
const EVERY_HEADS = new RegExp(HEADS.source, "g");
/** A figure of the table: "35,200", "4,007", "0". */
const FIGURE = /^\d{1,3}(?:,\d{3})*$/;
/** A row's cells: its range's two bounds and a tax per status. */
const ROW_CELLS = 6;
/** A range's width: rows go by 5, 10, 25 or 50 dollars. */
const MAX_RANGE = 50;

const amount = (figure: string) => Number(figure.replace(/,/g, ""));

/** A range row's label, as taxTableRows writes it. */
const RANGE_LABEL = /^taxable income at least ([\d,]+) but less than ([\d,]+):/i;

/** The rows of a tax table in a passage, each as a labelled line; none without the table's heads. */
export function taxTableRows(text: string): string[] {
  // most passages are no tax table: the heads' words first, before reading the text again
  if (!text.includes("But less than")) return [];
  const flat = text.replace(/\s+/g, " ");
  const heads = HEADS.exec(flat);
  if (!heads) return [];
  const statuses = heads.slice(1).map((h) => h.replace(/-\s?/g, "").replace(/\bHead of a household\b/, "Head of household"));
  const rows: string[] = [];
  // token by token: a block's first bound stands alone above its rows ("30,000 30,000 30,050 4,038 ...")
  const tokens = flat.slice(heads.index + heads[0].length).split(" ");
  for (let at = 0; at + ROW_CELLS <= tokens.length; at++) {
    const cells = tokens.slice(at, at + ROW_CELLS);
    if (!cells.every((c) => FIGURE.test(c))) continue;
    const [low, high, ...taxes] = cells as [string, string, ...string[]];
    const width = amount(high) - amount(low);
    if (width <= 0 || width > MAX_RANGE) continue;
    rows.push(`Taxable income at least ${low} but less than ${high}: ${taxes.map((tax, i) => `${statuses[i]} ${tax}`).join("; ")}`);
    at += ROW_CELLS - 1;
  }
  return rows;
}

/** Whether a labelled row is a tax table's (taxTableRows). */
export const isTaxTableRow = (row: string) => RANGE_LABEL.test(row);

/** Whether a tax table row's range (taxTableRows) holds one of the amounts. */
export function rangeHolds(row: string, amounts: readonly number[]): boolean {
  const range = RANGE_LABEL.exec(row);
  return range !== null && amounts.some((a) => a >= amount(range[1]!) && a < amount(range[2]!));
}

/** The dollar amounts of a thousand or more a question states ("$35,220", "35,220"; a year such as "2024" is none). */
export function statedAmounts(question: string): number[] {
  return [...question.matchAll(/(?<![\d.,])\$?(\d{1,3}(?:,\d{3})+|\d{4,})(?:\.\d\d)?(?![\d,]*\d|%)/g)]
    .filter((m) => m[1]!.includes(",") || m[0].startsWith("$") || !/^(19|20)\d\d$/.test(m[1]!))
    .map((m) => amount(m[1]!))
    .filter((n) => n >= 1000);
}

/**
 * The row bound a tax table writes for an amount, as search words ("35,220" -> "35 200": the row
 * "35,200 35,250" holds it): rows go by 50 dollars from 3,000 on, by 25 below.
 */
export function rowBoundWords(value: number): string {
  const step = value >= 3000 ? 50 : 25;
  const low = Math.floor(value / step) * step;
  return low.toLocaleString("en-US").replace(/,/g, " ");
}

/**
 * The tax table's heads a chunk inherits when it starts inside the table below them: a page of the
 * table is cut into chunks, and those after the first would lose which tax is whose. The last heads
 * on the page before the chunk, when the chunk has none of its own and starts with figures; else null.
 */
export function inheritedTaxHeads(page: string, at: number, chunk: string): string | null {
  // every chunk of every page is asked while indexing: the cheap tests first
  if (at === 0 || !/^[\d,]+ [\d,]+ /.test(chunk) || HEADS.test(chunk)) return null;
  const heads = [...page.slice(0, at).matchAll(EVERY_HEADS)].at(-1);
  return heads ? `${heads[0]}—` : null;
}
