// A table's rows as compact labelled lines ("Revenue: 2023 $46,298; 2022 $51,761"): the label,
// then each figure after its column's head.

import { MONTH_NAME } from "../question/fact-kind";
import { MAX_PERIOD_WORDS, YEAR, columnHeads, dateAt } from "./column-heads";
import { ROW_UNIT } from "./table-units";

/** A table's figure: "1,577", "$(7)", "23.0%", "(5.4)%" (a percent below nothing), a dash for none. */
const ROW_VALUE = /^[$(]?[-+]?\d[\d,]*(\.\d+)?(%?\)?|\)%)$|^[—–-]$/;

/** A figure no label holds: a percent, or a grouped or decimal number ("2.9%", "576,575,168", "0.3"). */
const SHORT_ROW_FIGURE = /%|\d[,.]\d/;
/** A footnote's mark: "(1)", "(a)". */
const FOOTNOTE_MARK = /^\((\d|[a-z])\)$/;
/** Words of a row's label kept at most (the end of a label names the row; its start may be a section's title). */
const ROW_LABEL_WORDS = 12;

/** A labelled row's label, as labelledRows writes a row ("Revenue: 2023 $46,298; ..." -> "Revenue"). */
export const rowLabelText = (row: string): string => {
  const at = row.lastIndexOf(": ");
  return at < 0 ? row : row.slice(0, at);
};

/** What a labelled row says after its label and before its table's unit ("July 29, 2023 $1,093; January 28, 2023 $1,874"); null for no labelled row. */
export const rowFiguresText = (row: string): string | null => {
  const at = row.lastIndexOf(": ");
  return at < 0 ? null : row.slice(at + 2).replace(ROW_UNIT, "");
};

/**
 * The rows of a table read as text, each as a compact labelled line ("Purchases of
 * property, plant and equipment (PP&E): 2018 (1,577); 2017 (1,373); 2016 (1,420)"):
 * the label, then its figures, each after its column's year or date when the table
 * starts with a row of them (columnHeads).
 */
export function labelledRows(table: string): string[] {
  const tokens = table.split(/\s+/).filter(Boolean);
  const { heads: first, start } = columnHeads(tokens);
  let header = first;
  let minValues = header.length || 2;
  const rows: string[] = [];
  let label: string[] = [];
  let values: string[] = [];
  let dollar = false;
  const flush = () => {
    // a footnote's mark after the label ("Gross profit as a % of revenue (1) 21.4 % 22.5 % 22.4 %"),
    // or the mark opening the footnote below the table, is a figure more than the table has columns,
    // and unlike the row's figures (percents, or dollars): no figure, and no word of what the row counts
    const figures = values.filter((v) => !FOOTNOTE_MARK.test(v));
    if (header.length && (figures.every((v) => v.endsWith("%")) || figures.every((v) => v.startsWith("$")))) {
      if (values.length > header.length && FOOTNOTE_MARK.test(values[0]!)) values.shift();
      if (values.length > header.length && FOOTNOTE_MARK.test(values.at(-1)!)) values.pop();
    }
    const words = label.slice(-ROW_LABEL_WORDS);
    // a label of words and figures that are not all years (a run of dates is no row)
    // an index line ("RRTA tax withheld 72 Exemptions 15 Extension of time to file 7, 71", "interest
    // deduction 37 T Tax and credits 38–52") has page numbers or ranges in its label
    const pageNumbers = words.filter((w) => /^\d+(?:[–-]\d+)?,?$/.test(w)).length;
    if (values.length >= minValues && words.some((w) => /\p{L}{2}/u.test(w)) && !values.every((v) => YEAR.test(v)) && pageNumbers < 2) {
      // a table's title ending in its columns' date ("NET REVENUES ... Twelve months ended December 31,
      // 2022") is a heading, and a column's date alone ("December 31, 2021") no row: neither has figures
      if (!(MONTH_NAME.test(words.at(-1)!) && /^\d{1,2},$/.test(values[0]!))) {
        const figures = header.length === values.length ? values.map((v, i) => `${header[i]} ${v}`) : values;
        rows.push(`${words.join(" ")}: ${figures.join("; ")}`);
      }
    }
    label = [];
    values = [];
  };
  for (let at = start; at < tokens.length; at++) {
    const token = tokens[at]!;
    // another table's column dates ("... EBITDAR (In thousands) Three months ended ... December 31, 2022
    // December 31, 2021 ..."): its title is no row's label, its dates no row's figures, but its heads
    if (dateAt(tokens, at) && dateAt(tokens, at + 3)) {
      let end = at + 3;
      while (dateAt(tokens, end)) end += 3;
      const next = columnHeads(tokens.slice(Math.max(0, at - MAX_PERIOD_WORDS), end));
      if (next.heads.length) {
        flush();
        header = next.heads;
        minValues = header.length;
        at = end - 1;
        continue;
      }
    }
    if (token === "$") {
      dollar = true;
      continue;
    }
    if (ROW_VALUE.test(token)) {
      values.push(dollar && /\d/.test(token) ? `$${token}` : token);
      dollar = false;
      continue;
    }
    // a percent sign set apart from its figure ("23.0 %") is the figure's; an amount's ("$2,391",
    // "14,212") takes none: its "%" starts the next label ("% of revenue")
    if (token === "%" && values.length && /\d\)?$/.test(values.at(-1)!) && !/[$,]/.test(values.at(-1)!)) {
      values[values.length - 1] += "%";
      continue;
    }
    dollar = false;
    // figures inside a label ("maturities greater than 90 days") are part of it; a percent or a
    // grouped or decimal figure is a short row's ("Total sales change 2.9% 4.4%"), not the next label's
    if (values.length >= minValues) flush();
    else if (values.some((v) => SHORT_ROW_FIGURE.test(v))) {
      label = [];
      values = [];
    } else if (values.length) {
      label.push(...values);
      values = [];
    }
    label.push(token);
  }
  flush();
  return rows;
}
