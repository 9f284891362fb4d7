// The IRS tax table (#42): its rows read as labelled lines with each status's tax, the row whose
// range holds the taxable income a question states leads the answer and is checked against its
// page, and the keyword search finds that row's page among the table's others. On two layouts:
// Publication 17's (2024), each page a short block under its heads, and the 1040 instructions'
// (2017), a block's first bound standing above its rows, its heads hyphenated, and a long page cut
// into chunks that inherit the heads.
import { describe, expect, it } from "vitest";
import { chunkPage } from "../../worker/library/chunker";
import { localAnswer } from "../../worker/answer/writer/local-writer";
import { verifyAnswer } from "../../worker/answer/verify";
import { withColumnHeads } from "../../worker/answer/passages/column-heads";
import { rangeHolds, statedAmounts, taxTableRows } from "../../worker/answer/passages/tax-table";
import { retrievePassages, type Passage } from "../../worker/answer/ranking/retrieval";
import { newUser } from "../helpers/api";
import { uploadAndIndex, waitUntilDone } from "../helpers/documents";
import { textPdf } from "../helpers/pdfs";
import { env } from "cloudflare:workers";

const HEADS_2024 =
  "If line 15 (taxable income) is— And you are— At least But less than Single Married filing jointly * Married filing separately Head of a household Your tax is—";
const HEADS_2017 =
  "If line 43 (taxable income) is— And you are— At least But less than Single Married filing jointly * Married filing sepa- rately Head of a house- hold Your tax is—";

const fmt = (n: number) => n.toLocaleString("en-US");
/** A made-up tax per status for a row starting at `low` (rates are no concern of the reader). */
const taxes = (low: number) => [0.12, 0.1, 0.12, 0.11].map((rate) => fmt(Math.round((low + 25) * rate)));
/** `count` rows of `width` dollars from `from`, as the table writes them. */
const rows = (from: number, count: number, width = 50) =>
  Array.from({ length: count }, (_, i) => from + i * width)
    .map((low) => `${fmt(low)} ${fmt(low + width)} ${taxes(low).join(" ")}`)
    .join(" ");

const passage = (page: number, text: string, columnHeads?: string): Passage => ({
  chunkId: `t:${page}:${text.length}`,
  documentId: "t",
  fileName: "tax.pdf",
  page,
  text,
  charStart: 0,
  charEnd: text.length,
  ...(columnHeads && { columnHeads }),
});
const lead = (question: string, passages: Passage[]) => localAnswer({ question, passages, history: [], anonymous: false }).split("\n")[0]!;

describe("the tax table", () => {
  it("reads each row with its range and each status's tax, and leads with the row holding the income asked (a 2024 guide)", () => {
    const page = `${HEADS_2024} 35,000 — 40,000 (Scroll to find your taxable income line.) ${rows(35000, 10)} * This column must also be used by a qualifying surviving spouse.`;
    const read = taxTableRows(page);
    expect(read).toHaveLength(10);
    expect(read[4]).toBe(
      `Taxable income at least 35,200 but less than 35,250: Single ${taxes(35200)[0]}; Married filing jointly ${taxes(35200)[1]}; Married filing separately ${taxes(35200)[2]}; Head of household ${taxes(35200)[3]}`,
    );
    const answer = lead("I'm single and my taxable income came out to $35,220. What does the tax table say I owe?", [passage(405, page)]);
    expect(answer).toBe(`${read[4]} [1]`);
    // checked against the page it cites: every figure is in the row the page writes, none in place of the heads' "15"
    const check = verifyAnswer(answer, new Map([[1, [page]]]));
    expect(check.checks.map((c) => c.status)).toEqual(["supported"]);
    // without the heads, figures in columns are no tax table
    expect(taxTableRows(rows(35000, 10))).toEqual([]);
  });

  it("reads a long page cut into chunks, each inheriting the heads, and a block's first bound above its rows (2017 instructions)", () => {
    const page = `2017 Tax Table — Continued ${HEADS_2017} 30,000 ${rows(30000, 20)} 31,000 ${rows(31000, 20)} 32,000 ${rows(32000, 20)}`;
    const chunks = chunkPage(page);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.slice(1).every((c) => c.columnHeads?.includes("Your tax is"))).toBe(true);
    const read = chunks.flatMap((c) => taxTableRows(withColumnHeads(c)));
    expect(read[0]).toMatch(
      /^Taxable income at least 30,000 but less than 30,050: Single [\d,]+; Married filing jointly [\d,]+; Married filing separately [\d,]+; Head of household [\d,]+$/,
    );
    // every row once, whatever chunk it falls in (a row cut by a chunk's end is read in the next, which overlaps it)
    const starts = new Set(read.map((r) => /at least ([\d,]+)/.exec(r)![1]));
    expect(starts.size).toBe(60);
    const passages = chunks.map((c) => passage(82, c.text, c.columnHeads));
    const answer = lead("Head of household, 2017 taxable income $31,525: what's my tax from the table?", passages);
    expect(answer).toMatch(/^Taxable income at least 31,500 but less than 31,550: .*Head of household [\d,]+ \[\d\]$/);
    // checked against the page: its figures are the row's, none in place of the heads' "43"
    const sources = new Map(passages.map((_, i) => [i + 1, [page]]));
    expect(verifyAnswer(answer, sources).checks.map((c) => c.status)).toEqual(["supported"]);
  });

  it("reads the amounts a question states, not its years, and a range holds its low bound but not its high one", () => {
    expect(statedAmounts("My 2024 taxable income was $35,220 and I paid 1,250.50 in 2023.")).toEqual([35220, 1250]);
    const row = "Taxable income at least 35,200 but less than 35,250: Single 4,007";
    expect(rangeHolds(row, [35200])).toBe(true);
    expect(rangeHolds(row, [35250])).toBe(false);
    expect(rangeHolds("Net income: 2023 35,220", [35220])).toBe(false);
  });

  it("finds the page of the row holding the income asked among the table's pages, and never leads with another row", async () => {
    // the low incomes go by 25 dollars ("250 275"): the words of "$41,275" are in their rows too
    const pages = [
      "Tax Table. See the instructions for line 16 to see if you must use the Tax Table below to figure your tax.",
      `${HEADS_2024} ${rows(200, 10, 25)}`,
      ...Array.from({ length: 12 }, (_, p) => `${HEADS_2024} ${rows(40000 + p * 500, 10)}`),
    ];
    const u = await newUser("taxrows");
    const doc = await uploadAndIndex(u.token, "tax-table.pdf", await textPdf(pages));
    await waitUntilDone(u.token, doc.fileId);
    const question = "I file as head of household with taxable income of $41,275. What's my tax from the tax table?";
    const found = await retrievePassages(env, { userId: u.user.id, documentIds: [doc.fileId], question });
    // rows 41,000-41,500 are on the fifth page
    expect(found[0]?.page).toBe(5);
    const answer = (passages: Passage[]) => localAnswer({ question, passages, history: [], anonymous: false });
    expect(answer(found).split("\n")[0]).toMatch(/^Taxable income at least 41,250 but less than 41,300: .* \[1\]$/);
    // without the page holding it, no other row of the table answers
    expect(answer(found.filter((p) => p.page !== 5))).not.toMatch(/Taxable income at least/);
  });
});
