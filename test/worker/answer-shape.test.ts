// The local answer's shape on real text from ../shared/corpus (extracted here at
// test time, never copied into the repository): a statement of cash flows reads
// as table rows, which are detected and never quoted as text, only as compact
// labelled lines whose figures are the statement's; Publication 17's headings
// are never quoted as sentences, nor at the start of one they run into, and its
// phase-out tables read across and its index are never quoted at all; Form
// 1040's numbered lines are quoted one by one with their numbers, and a 10-K's
// table of contents only to say where to look; an answer leads with one cited
// sentence and stays within about 120 words.
// Skipped when the corpus is not beside the project.
import { describe, expect, it } from "vitest";
import { corpus, corpusBytes } from "../helpers/corpus";
import { chunkPage, normalisePageText } from "../../worker/library/chunker";
import { extractPdfPages } from "../../worker/ingest/extract";
import type { Passage } from "../../worker/answer/ranking/retrieval";
import { localAnswer } from "../../worker/answer/writer/local-writer";
import { codeLetters } from "../../worker/answer/question/terms";
import { formLines } from "../../worker/answer/passages/form-lines";
import { headRuns, inheritedHeads, withColumnHeads } from "../../worker/answer/passages/column-heads";
import { isContentsPassage, isIndexEntry, isIndexPassage } from "../../worker/answer/passages/contents";
import { isHeading, leadingHeading, splitSentences } from "../../worker/answer/passages/sentences";
import { isTableRow, runsTableCells } from "../../worker/answer/passages/table-rows";
import { labelledRows } from "../../worker/answer/passages/labelled-rows";

async function pages(file: string): Promise<string[]> {
  const bytes = await corpusBytes(file);
  return (await extractPdfPages(bytes, 1000)).pages;
}

function passagesOf(fileName: string, pageTexts: Record<number, string>): Passage[] {
  return Object.entries(pageTexts).flatMap(([page, text]) =>
    chunkPage(text).map((c) => ({
      chunkId: `${page}:${c.ord}`,
      documentId: "d",
      fileName,
      page: Number(page),
      text: c.text,
      charStart: c.charStart,
      charEnd: c.charEnd,
      ...(c.columnHeads && { columnHeads: c.columnHeads }),
    })),
  );
}

/** The quoted sentences of an answer: its lines without list marks and [n] citations (the "See also" line quotes nothing). */
function quotes(answer: string): string[] {
  return answer
    .split("\n")
    .filter((l) => !/^See also: (\[\d+\] ?)+$/.test(l))
    .map((l) =>
      l
        .replace(/^- /, "")
        .replace(/\s*\[\d+\]$/, "")
        .trim(),
    )
    .filter((l) => l && l !== "Also in your documents:");
}

/** A signed-in user's local answer to `question` over `passages`, in a new chat. */
const answerOver = (passages: Passage[], question: string) => localAnswer({ question, passages, history: [], anonymous: false });

describe.skipIf(!corpus)("the local answer on real PDF text", () => {
  it("detects a statement of cash flows as table rows and quotes one only as a labelled line of its figures", async () => {
    const tenK = await pages("sec_financebench/3M_2018_10K.pdf");
    const cashFlow = chunkPage(tenK[59]!).flatMap((c) => splitSentences(c.text));
    const rows = cashFlow.filter(isTableRow);
    expect(rows.length).toBeGreaterThan(cashFlow.length / 2);

    const passages = passagesOf("3M_2018_10K.pdf", { 60: tenK[59]!, 59: tenK[58]! });
    const answer = answerOver(passages, "How much did 3M spend on property, plant and equipment in 2018?");
    for (const quote of quotes(answer)) {
      expect(isTableRow(quote)).toBe(false);
      expect(quote).not.toMatch(/(\(?[\d,]+\)?\s+){4}/); // never four figures in a row
    }
    // the amount asked is in a table: the answer leads with its row, "label: figure; figure; ..."
    const lead = quotes(answer)[0]!;
    const [label, figures] = lead.split(": ");
    expect(label!.split(" ").length).toBeLessThanOrEqual(12);
    const page = tenK[59]!.replace(/\s+/g, " ");
    expect(page).toContain(label!.split(" ").slice(-4).join(" "));
    const numbers = figures!.split("; ").map((f) => f.replace(/^(19|20)\d\d /, ""));
    expect(numbers.length).toBeGreaterThanOrEqual(2);
    for (const n of numbers) expect(page).toContain(n.replace(/^\$/, ""));
    // every row of the statement becomes such a line
    const lines = cashFlow.filter(isTableRow).flatMap((row) => labelledRows(row));
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) expect(line).toMatch(/^\D.*: [^;]+(; [^;]+)+$/);
  });

  it("never quotes a table's title ending in its columns' date, nor a column's date alone, as a row", async () => {
    const earnings = await pages("sec_financebench/MGMRESORTS_2022Q4_EARNINGS.pdf");
    const lines = splitSentences(earnings[12]!)
      .filter(isTableRow)
      .flatMap((row) => labelledRows(row));
    // its columns' dates repeat (three months and twelve months ended December 31): each figure is named by its period
    const ended = (year: number, months: string) => `${months} months ended December 31, ${year}`;
    expect(lines).toContain(
      `Las Vegas Strip Resorts: ${ended(2022, "Three")} $2,297,282; ${ended(2021, "Three")} $1,806,686; ${ended(2022, "Twelve")} $8,398,372; ${ended(2021, "Twelve")} $4,737,185`,
    );
    // and so is the second table's, under the same heads: its title and dates are neither a label nor figures
    expect(lines).toContain(
      `Las Vegas Strip Resorts: ${ended(2022, "Three")} $877,052; ${ended(2021, "Three")} $698,739; ${ended(2022, "Twelve")} $3,142,308; ${ended(2021, "Twelve")} $1,738,211`,
    );
    // was quoted as written ("ADJUSTED EBITDAR (In thousands) (Unaudited) Three months ended Twelve months
    // ended December 31, 2022") and led answers with no figure in it
    expect(lines.filter((line) => /EBITDAR|NET REVENUES/.test(line))).toEqual([]);
    // was "... Twelve months ended December: 31,; 2022" and "December: 31,; 2021"
    for (const line of lines)
      expect(line).not.toMatch(/^(\S+ )*(January|February|March|April|May|June|July|August|September|October|November|December): \d/);
    expect(lines.some((line) => /^December 31, 20\d\d$/.test(line))).toBe(false);
  });

  it("names each figure of a quarterly statement by its period, also in a chunk after the one holding its heads", async () => {
    // "Three Months Ended Six Months Ended ... July 2, 2023 July 3, 2022 July 2, 2023 July 3, 2022": were bare figures
    const pfizer = chunkPage((await pages("sec_financebench/Pfizer_2023Q2_10Q.pdf"))[7]!);
    const income = splitSentences(pfizer[0]!.text)
      .filter(isTableRow)
      .flatMap((piece) => labelledRows(piece));
    expect(income).toContain(
      "Revenues: Three months ended July 2, 2023 $12,734; Three months ended July 3, 2022 $27,742; Six months ended July 2, 2023 $31,015; Six months ended July 3, 2022 $53,402",
    );
    const mgm = chunkPage((await pages("sec_financebench/MGMRESORTS_2022Q4_EARNINGS.pdf"))[10]!);
    const later = mgm.find((c) => c.text.includes("Operating income (loss)"))!;
    expect(later.columnHeads).toMatch(/^Three Months Ended Twelve Months Ended December 31, 2022 /);
    const rows = splitSentences(withColumnHeads(later))
      .filter(isTableRow)
      .flatMap((piece) => labelledRows(piece));
    expect(rows).toContain(
      "Operating income (loss): Three months ended December 31, 2022 (1,896); Three months ended December 31, 2021 368,847; Twelve months ended December 31, 2022 1,439,372; Twelve months ended December 31, 2021 2,278,699",
    );

    // a month and day split from their years ("13 Weeks Ended 52 Weeks Ended January 28, January 29, ... 2023 2022 ..."): were years alone
    const ultaRows = (chunk: { text: string; columnHeads?: string }) =>
      splitSentences(withColumnHeads(chunk))
        .filter(isTableRow)
        .flatMap((piece) => labelledRows(piece));
    const ulta = chunkPage((await pages("sec_financebench/ULTABEAUTY_2023Q4_EARNINGS.pdf"))[0]!);
    expect(ultaRows(ulta[0]!)).toContain(
      "Net sales: 13 weeks ended January 28, 2023 $3,226.8; 13 weeks ended January 29, 2022 $2,729.4; 13 weeks ended January 30, 2021 $2,198.7; 52 weeks ended January 28, 2023 $10,208.6; 52 weeks ended January 29, 2022 $8,630.9; 52 weeks ended January 30, 2021 $6,152.0",
    );
    // and in the chunk after, which inherits them
    expect(ultaRows(ulta[1]!)).toContain(
      "Diluted earnings per share: 13 weeks ended January 28, 2023 $6.68; 13 weeks ended January 29, 2022 $5.41; 13 weeks ended January 30, 2021 $3.03; 52 weeks ended January 28, 2023 $24.01; 52 weeks ended January 29, 2022 $17.98; 52 weeks ended January 30, 2021 $3.11",
    );
  });

  it("reads a statement of two columns (headed by dates, or rows of two figures) as labelled rows, never as text", async () => {
    const tenK = await pages("sec_financebench/BESTBUY_2023_10K.pdf");
    const balanceSheet = splitSentences(tenK[38]!);
    // was one "sentence": "Consolidated Balance Sheets $ in millions ... January 28, 2023 January 29, 2022 Assets ... $ 1,874 $ 2,936 Receivables, net 1,141 1,042 ..."
    const headed = balanceSheet.filter((s) => /January 28, 2023 January 29, 2022/.test(s));
    expect(headed.length).toBeGreaterThan(0);
    for (const piece of headed) expect(isTableRow(piece)).toBe(true);
    const rows = headed.flatMap((piece) => labelledRows(piece));
    // each figure after the date of its column
    expect(rows).toContain("Receivables, net: January 28, 2023 1,141; January 29, 2022 1,042");
    expect(rows).toContain("Net property and equipment: January 28, 2023 2,352; January 29, 2022 2,250");
    // 3M's balance sheet: two figures side by side, row after row (its column heads are cut: "December 31, December 31,")
    const threeM = (await pages("sec_financebench/3M_2018_10K.pdf"))[57]!;
    const statement = splitSentences(threeM).filter((s) => /Property, plant and equipment — net/.test(s));
    expect(statement.length).toBeGreaterThan(0);
    for (const piece of statement) expect(isTableRow(piece)).toBe(true);
    expect(statement.flatMap((piece) => labelledRows(piece))).toContain("Property, plant and equipment — net: 2018 8,738; 2017 8,866");
    // a date's day and year are no two figures
    expect(isTableRow("Leave taken from April 1, 2021, and before October 1, 2021, and after March 31, 2021, counts too.")).toBe(false);
    // a column head of dates alone is a table's, no sentence; running text puts a word between two dates
    expect(
      isTableRow("Three months ended Three months ended 2018 vs 2017 December 31, 2018 December 31, 2017 % change Net % of Oper."),
    ).toBe(true);
    expect(isTableRow("The plan ran from January 1, 2024, to December 31, 2024, for all staff.")).toBe(false);
  });

  it("reads percents set apart from their figures ('23.0 %') and percents below nothing ('(10.9)%') as a row's figures", async () => {
    const international = (await pages("sec_financebench/BESTBUY_2023_10K.pdf"))[26]!;
    const rows = splitSentences(international)
      .filter(isTableRow)
      .flatMap((piece) => labelledRows(piece));
    // were "as a % of revenue 23.0 % 23.9 % 21.5 % SG&A: 2023 $638; ..." and "(10.9)% (1.0)% 12.6% Comparable sales % change ...": one row's label
    expect(rows).toContain("Gross profit as a % of revenue: 2023 23.0%; 2022 23.9%; 2021 21.5%");
    expect(rows).toContain("Revenue % change: 2023 (10.9)%; 2022 (1.0)%; 2021 12.6%");
    expect(rows).toContain("SG&A: 2023 $638; 2022 $689; 2021 $689");
    // an amount takes no percent sign: it starts the next label ("$ 2,391 \n% of revenue 3.9 % ...")
    const segments = splitSentences((await pages("sec_financebench/BESTBUY_2023_10K.pdf"))[27]!)
      .filter(isTableRow)
      .flatMap((piece) => labelledRows(piece));
    expect(segments).toContain("Operating income: 2023 $1,795; 2022 $3,039; 2021 $2,391");
  });

  it("reads a footnote's mark beside a row's percents or dollars as no figure ('Gross profit as a % of revenue (1) 21.4 %')", async () => {
    const rowsOf = (pageText: string) =>
      splitSentences(pageText)
        .filter(isTableRow)
        .flatMap((piece) => labelledRows(piece));
    const tenK = await pages("sec_financebench/BESTBUY_2023_10K.pdf");
    // was "Gross profit as a % of revenue: (1); 21.4%; 22.5%; 22.4%": no column's head fitted
    expect(rowsOf(tenK[24]!)).toContain("Gross profit as a % of revenue: 2023 21.4%; 2022 22.5%; 2021 22.4%");
    expect(rowsOf(tenK[24]!)).toContain("SG&A as a % of revenue: 2023 17.2%; 2022 16.7%; 2021 16.8%");
    const tenQ = await pages("sec_financebench/BESTBUY_2024Q2_10Q.pdf");
    // a mark after the label and the mark opening the footnote under the table
    expect(rowsOf(tenQ[16]!)).toContain(
      "Comparable online sales % change: Three months ended July 29, 2023 (7.1)%; Three months ended July 30, 2022 (14.7)%; Six months ended July 29, 2023 (9.7)%; Six months ended July 30, 2022 (14.8)%",
    );
    // a figure that looks like a mark among figures like it stays a figure
    expect(rowsOf(tenQ[8]!)).toContain("Cash payments: (1); -; (1)");
  });

  it("answers whether a rate held with its row of percents and the points it moved, not the row of its sums", async () => {
    const tenK = await pages("sec_financebench/BESTBUY_2023_10K.pdf");
    const passages = passagesOf("BESTBUY_2023_10K.pdf", Object.fromEntries([25, 26, 27, 40].map((page) => [page, tenK[page - 1]!])));
    // what follows the question says how to answer it ("explain why"), not that it asks a reason
    const answer = answerOver(
      passages,
      "Are Best Buy's gross margins historically consistent? If gross margins are not a relevant metric for a company like this, then please state that and explain why.",
    );
    expect(quotes(answer)[0]).toMatch(
      /^Gross profit as a % of revenue: 2023 21\.[34]%; 2022 22\.[45]%; 2021 22\.[45]% \(from 2022 to 2023: down 1\.1 percentage points\)$/,
    );
  });

  it("answers a figure asked for a period with the row its label names, the period in its heads, not prose that repeats the period", async () => {
    const tenQ = await pages("sec_financebench/BESTBUY_2024Q2_10Q.pdf");
    const passages = passagesOf("BESTBUY_2024Q2_10Q.pdf", { 16: tenQ[15]!, 17: tenQ[16]!, 24: tenQ[23]! });
    // was "Online revenue of $2.8 billion and $5.5 billion in the second quarter and first six months of fiscal 2024 decreased..."
    expect(quotes(answerOver(passages, "What was revenue in the second quarter of fiscal 2024?"))[0]).toBe(
      "Revenue: Three months ended July 29, 2023 $9,583; Three months ended July 30, 2022 $10,329; Six months ended July 29, 2023 $19,050; Six months ended July 30, 2022 $20,976 (in millions)",
    );
    // a margin asked is the row of percents
    expect(quotes(answerOver(passages, "What was the gross margin in the second quarter?"))[0]).toMatch(
      /^Gross profit as a % of revenue: Three months ended July 29, 2023 23\.2%;/,
    );
  });

  it("finds the noun asked in a row's plural label ('inventory': 'Total inventories')", async () => {
    const threeM = await pages("sec_financebench/3M_2018_10K.pdf");
    const passages = passagesOf("3M_2018_10K.pdf", { 58: threeM[57]! });
    expect(quotes(answerOver(passages, "How much inventory did 3M have at year-end 2018?"))[0]).toBe(
      "Total inventories: 2018 4,366; 2017 4,034 (in millions)",
    );
  });

  it("never runs a short row's figures into the next row's label ('Total sales change 2.9% 4.4% Operating income')", async () => {
    const threeM = await pages("sec_financebench/3M_2018_10K.pdf");
    const rowsOf = (page: number) =>
      splitSentences(threeM[page - 1]!)
        .filter(isTableRow)
        .flatMap((piece) => labelledRows(piece));
    // a segment's table: its rows of two changes under three years were read into the label after them
    expect(rowsOf(35)).toContain("Operating income (millions): 2018 $1,799; 2017 $1,764; 2016 $1,731");
    expect(rowsOf(35)).toContain("Percent of sales: 2018 29.9%; 2017 30.1%; 2016 30.9%");
    // was "outstanding - 2018: 576,575,168 Shares outstanding - 2017: 594,884,237 Additional paid-in capital: ..."
    expect(rowsOf(58)).toContain("Additional paid-in capital: 2018 5,643; 2017 5,352");
    // an amount inside a label stays in it
    expect(rowsOf(58).some((row) => row.startsWith("Accounts receivable — net of allowances of $95 and"))).toBe(true);
  });

  it("works out the change asked from the quoted row's figures", async () => {
    const tenQ = await pages("sec_financebench/BESTBUY_2024Q2_10Q.pdf");
    // the balance sheet, and the page on buybacks after the quarter that led before ("Between the end of the second quarter...")
    const passages = passagesOf("BESTBUY_2024Q2_10Q.pdf", { 3: tenQ[2]!, 22: tenQ[21]! });
    const answer = answerOver(passages, "Was there any decline in cash and cash equivalents since the fiscal year end?");
    expect(quotes(answer)[0]).toBe(
      "Assets Current assets Cash and cash equivalents: July 29, 2023 $1,093; January 28, 2023 $1,874; July 30, 2022 $840 (in millions) (from January 28, 2023 to July 29, 2023: down $781, or 42%)",
    );
    // a question that asks no change gets the row as it stands
    const asked = answerOver(passages, "How much cash and cash equivalents did Best Buy hold at July 29, 2023?");
    expect(asked).not.toMatch(/\(from .* to .*: (down|up)/);
    expect(asked).toContain("Cash and cash equivalents: July 29, 2023 $1,093");
  });

  it("answers how a figure changed with its statement's row, the file's name counting little ('3M' of 3M_2018_10K.pdf)", async () => {
    const threeM = await pages("sec_financebench/3M_2018_10K.pdf");
    // the pages the product retrieved for the question
    const passages = passagesOf("3M_2018_10K.pdf", Object.fromEntries([56, 72, 27].map((page) => [page, threeM[page - 1]!])));
    // was "Net income attributable to 3M: ...", which holds "3M" where "Net sales" holds "sales"
    expect(quotes(answerOver(passages, "How did 3M's net sales change from 2017 to 2018?"))[0]).toBe(
      "Net sales: 2018 $32,765; 2017 $31,657; 2016 $30,109 (in millions) (from 2017 to 2018: up $1,108, or 3.5%)",
    );
  });

  it("quotes in support no table row whose label names only the period and the company (a 10-K's, a 10-Q's)", async () => {
    // the chunks the product retrieved first: the cash flow statement's, the store counts by year
    const tenK = await pages("sec_financebench/BESTBUY_2023_10K.pdf");
    const chunks = passagesOf("BESTBUY_2023_10K.pdf", { 42: tenK[41]!, 27: tenK[26]! }).filter((p) =>
      /Dividends paid|Stores Closed/.test(p.text),
    );
    const dividends = answerOver(chunks, "How much did Best Buy pay out in dividends in fiscal 2023?");
    expect(quotes(dividends)[0]).toMatch(/^Dividends paid: January 28, 2023 \(789\)/);
    // was "Stores Closed Total Stores at End of Fiscal Year Canada Best Buy: 131; -; (4); 127; ..."
    expect(dividends).not.toContain("Stores");
    const tenQ = await pages("sec_financebench/BESTBUY_2024Q2_10Q.pdf");
    const statements = passagesOf("BESTBUY_2024Q2_10Q.pdf", Object.fromEntries([4, 25].map((page) => [page, tenQ[page - 1]!])));
    const revenue = answerOver(
      statements.filter((p) => /Revenue \$|896,277/.test(p.text)),
      "What was Best Buy's revenue for the second quarter of fiscal 2024?",
    );
    expect(quotes(revenue)[0]).toMatch(/^Revenue: Three months ended July 29, 2023 \$9,583/);
    // was "Total fiscal 2024 second quarter: 896,277; $76.88; ..." of the share repurchases' table
    expect(revenue).not.toContain("896,277");
  });

  it("carries a table's column heads into the chunks that start inside it, never into running text", async () => {
    const tenQ = await pages("sec_financebench/BESTBUY_2024Q2_10Q.pdf");
    // the notes' cash table, as a chunk starting inside it would: after its three dates, or after the first of them
    const notes = normalisePageText(tenQ[7]!);
    const inside = (start: string) => {
      const at = notes.indexOf(start);
      return inheritedHeads(notes, headRuns(notes), at, notes.slice(at, at + 1000));
    };
    expect(inside("Cash and cash equivalents $ 1,093")).toBe("July 29, 2023 January 28, 2023 July 30, 2022");
    expect(inside("January 28, 2023 July 30, 2022 Cash and cash equivalents")).toBe("July 29, 2023");
    // a chunk starting in the running text after the table inherits nothing
    expect(inside("Amounts included in restricted cash")).toBeNull();
    // read with them, its rows name each figure by its date, and the change asked is worked out
    const passages = passagesOf("BESTBUY_2024Q2_10Q.pdf", { 8: tenQ[7]! });
    expect(quotes(answerOver(passages, "Did cash and cash equivalents drop between January 28, 2023 and July 29, 2023?"))[0]).toBe(
      "Cash and cash equivalents: July 29, 2023 $1,093; January 28, 2023 $1,874; July 30, 2022 $840 (in millions) (from January 28, 2023 to July 29, 2023: down $781, or 42%)",
    );
    // 3M's statement of income: its second chunk starts with the per-share rows, under the years its first chunk holds
    const income = chunkPage((await pages("sec_financebench/3M_2018_10K.pdf"))[55]!);
    expect(income[0]!.columnHeads).toBeUndefined();
    expect(income.slice(1).some((c) => c.columnHeads === "2018 2017 2016")).toBe(true);
    // a run of years too long to head a table (a hostile page) heads nothing
    expect(chunkPage("2018 2017 ".repeat(20_000) + "Revenue 1,234 2,345").filter((c) => c.columnHeads)).toEqual([]);
    // a page of running text inherits nothing
    const p17 = await pages("irs/p17.pdf");
    expect(
      p17
        .slice(20, 60)
        .flatMap((page) => chunkPage(page))
        .filter((c) => c.columnHeads),
    ).toEqual([]);
  });

  it("leads with one cited sentence, never a heading, in about 120 words", async () => {
    const p17 = await pages("irs/p17.pdf");
    const questions: [string, number[]][] = [
      ["How long do I need to keep my tax records?", [92, 93]],
      ["Who has to file a tax return in 2024?", [14, 15]],
      ["Can I deduct the cost of my commute to work?", [266, 267]],
    ];
    for (const [question, pageNumbers] of questions) {
      const passages = passagesOf("p17.pdf", Object.fromEntries(pageNumbers.map((n) => [n, p17[n - 1]!])));
      const answer = answerOver(passages, question);
      expect(answer.split("\n")[0]).toMatch(/\S.*[.!?)"”]?\s\[\d+\]$/);
      expect(answer.split(/\s+/).length).toBeLessThanOrEqual(130);
      for (const quote of quotes(answer)) {
        expect(isHeading(quote)).toBe(false);
        expect(isTableRow(quote)).toBe(false);
        expect(leadingHeading(quote)).toBeNull();
      }
    }
  });

  it("never ends a sentence between an abbreviation and its number ('see Pub. 505, Tax Withholding...', 'OMB No. 1545-0074')", async () => {
    const p17 = await pages("irs/p17.pdf");
    const f1040 = await pages("irs/f1040.pdf");
    const sentences = [...p17.slice(0, 60), f1040[0]!].flatMap((page) => chunkPage(page).flatMap((c) => splitSentences(c.text)));
    const cited = sentences.filter((s) => /\bPub\. \d/.test(s));
    expect(cited.length).toBeGreaterThan(20);
    // a chunk may end on "see Pub."; a sentence inside one never does
    const cut = sentences.filter((s, i) => /\b(Pub|No)\.$/.test(s) && /^\d/.test(sentences[i + 1] ?? ""));
    expect(cut).toEqual([]);
    expect(sentences.some((s) => s.includes("OMB No. 1545-0074"))).toBe(true);
  });
  it("finds headings run into the first sentence under them in Publication 17 and quotes that sentence without them", async () => {
    const p17 = await pages("irs/p17.pdf");
    const glued = p17
      .slice(0, 120)
      .flatMap((page) => chunkPage(page).flatMap((c) => splitSentences(c.text).flatMap((s) => leadingHeading(s) ?? [])));
    expect(glued.length).toBeGreaterThan(20);
    for (const { heading, sentence } of glued) {
      expect(heading.split(" ").length).toBeLessThanOrEqual(12);
      expect(sentence).toMatch(/^\p{Lu}\S* (?:\p{Lu}\S* )?\p{Ll}/u); // "You must...", "To avoid...", "The IRS doesn't..."
    }
  });

  it("never quotes Publication 17's phase-out tables read across as one sentence, and keeps running text", async () => {
    const p17 = await pages("irs/p17.pdf");
    const sentencesOf = (page: number) => chunkPage(p17[page - 1]!).flatMap((c) => splitSentences(c.text));
    // the IRA deduction tables: "... $230,000 or less a full deduction. more than $230,000 but less than ..."
    const phaseOut = [227, 228].flatMap(sentencesOf).filter((s) => /a full deduction\. more than/.test(s));
    expect(phaseOut.length).toBeGreaterThanOrEqual(3);
    for (const row of phaseOut) expect(runsTableCells(row)).toBe(true);

    const passages = passagesOf("p17.pdf", { 227: p17[226]!, 228: p17[227]! });
    for (const question of [
      "Can I deduct the cost of my work clothes?",
      "How much of my IRA contribution can I deduct if my wife has a retirement plan at work?",
    ]) {
      const answer = answerOver(passages, question);
      for (const quote of quotes(answer)) expect(runsTableCells(quote)).toBe(false);
    }

    // running text is kept: almost no sentence of the publication's first 100 pages is taken for table cells
    const opening = p17.slice(0, 100).flatMap((page) => chunkPage(page).flatMap((c) => splitSentences(c.text)));
    expect(opening.filter(runsTableCells).length).toBeLessThan(opening.length / 200);
    expect(runsTableCells("XYZ Corp. paid a cash dividend of 10 cents per share.")).toBe(false);
    expect(runsTableCells("Either of the following statements is true. a. You were a student.")).toBe(false);
  });
  it("never quotes Publication 17's index, and answers from the chapter it points to", async () => {
    const p17 = await pages("irs/p17.pdf");
    const sentencesOf = (page: number) => chunkPage(p17[page - 1]!).flatMap((c) => splitSentences(c.text));
    // "Modified AGI, effect on deduction if not covered by retirement plan at work (Table 9-2) Lived apart from spouse ..."
    const index = sentencesOf(387);
    expect(index.filter(isIndexEntry).length).toBeGreaterThanOrEqual(3);
    // "Aliens Nonresident (See Nonresident aliens) Resident (See Resident aliens) Alimony: ...": every passage of the index's pages
    const indexPassages = p17.slice(319, 397).flatMap((page) => chunkPage(page).map((c) => c.text));
    expect(indexPassages.filter(isIndexPassage).length).toBeGreaterThan(indexPassages.length * 0.9);
    const aliens = chunkPage(p17[321]!).find((c) => c.text.includes("(See Nonresident aliens)"));
    expect(isIndexPassage(aliens!.text)).toBe(true);

    const question = "If my wife has a retirement plan at work, can I still deduct my IRA contribution?";
    const passages = passagesOf("p17.pdf", { 387: p17[386]!, 230: p17[229]! });
    const answer = answerOver(passages, question);
    const cited = [...answer.matchAll(/\[(\d+)\]/g)].map((m) => passages[Number(m[1]) - 1]!.page);
    expect(cited[0]).toBe(230);
    for (const quote of quotes(answer)) expect(index.some((s) => s.includes(quote.slice(0, 40)))).toBe(false);

    // running text is kept: no sentence of the IRA chapter or the publication's first 100 pages is taken for an index entry
    const running = [...p17.slice(0, 100), ...p17.slice(219, 245)].flatMap((page) =>
      chunkPage(page).flatMap((c) => splitSentences(c.text)),
    );
    expect(running.filter(isIndexEntry)).toEqual([]);
    const chapters = p17.slice(0, 319).flatMap((page) => chunkPage(page).map((c) => c.text));
    expect(chapters.filter(isIndexPassage)).toEqual([]);
  });
  it("quotes a form's lines without their dot leaders", async () => {
    const w4 = await pages("irs/fw4.pdf");
    // the worksheet's lines run into dot leaders: "... if it pays monthly, enter 12, etc. . . . . . . 1b"
    expect(w4[2]).toMatch(/etc\.( \.){3,}/);
    const passages = passagesOf("fw4.pdf", { 3: w4[2]! });
    for (const question of [
      "I'm paid every other week. What do I enter for the number of pay periods on the multiple jobs worksheet?",
      "What amount goes on the deductions worksheet for a married couple filing jointly?",
    ]) {
      const answer = answerOver(passages, question);
      expect(quotes(answer).length).toBeGreaterThan(0);
      for (const quote of quotes(answer)) expect(quote).not.toMatch(/( \.){3}/);
    }
  });
  it("reads Form 1040's numbered lines as labelled lines ('Line 11: ...') and answers which line with one", async () => {
    const f1040 = await pages("irs/f1040.pdf");
    const lines = [f1040[0]!, f1040[1]!].flatMap((page) => chunkPage(page).flatMap((c) => formLines(c.text).lines));
    expect(lines).toContain("Line 11: Subtract line 10 from line 9. This is your adjusted gross income");
    expect(lines).toContain("Line 2b: Taxable interest");
    // a sub-line under a line that has none of its own carries that line's words
    expect(lines).toContain("Line 25a: Federal income tax withheld from: Form(s) W-2");
    // an article in running text is no sub-line ("...dispose of a digital asset ... 1a")
    expect(lines.every((l) => l.split(" ").length <= 40)).toBe(true);
    // a worksheet's lines, numbered "1." ... "1.", read the same way
    const instructions = await pages("irs/i1040gi.pdf");
    expect(chunkPage(instructions[36]!).flatMap((c) => formLines(c.text).lines)).toContain(
      "Line 1: Enter the total interest you paid in 2017 on qualified student loans (see the instructions for line 33). Don’t enter more than $2,500",
    );

    const passages = passagesOf("f1040.pdf", { 1: f1040[0]!, 2: f1040[1]! });
    expect(quotes(answerOver(passages, "Which line of the 1040 shows my AGI?"))[0]).toBe(
      "Line 11: Subtract line 10 from line 9. This is your adjusted gross income",
    );
    expect(quotes(answerOver(passages, "What line do I put the federal tax my employer held back on my W-2?"))[0]).toBe(
      "Line 25a: Federal income tax withheld from: Form(s) W-2",
    );
  });
  it("reads the text between a form's lines apart: no sentence runs across a line", async () => {
    const f1040 = await pages("irs/f1040.pdf");
    const stretches = chunkPage(f1040[1]!).flatMap((c) => formLines(c.text).stretches);
    const sentences = stretches.flatMap(splitSentences);
    // the margin beside line 35a and the designee's question after line 38 are two sentences, not one run
    const designee = sentences.find((s) => s.includes("allow another person to discuss this return"))!;
    expect(designee).toMatch(/^Third Party Designee Do you want/);
    expect(sentences.some((s) => s.includes("Direct deposit") && s.includes("Designee"))).toBe(false);
    // every stretch is text of the page, and none holds a line formLines quoted
    const page = normalisePageText(f1040[1]!);
    for (const stretch of stretches) expect(page).toContain(stretch.trim());
    expect(stretches.some((s) => /Estimated tax penalty/.test(s))).toBe(false);
  });
  it("answers what a box 12 code stands for with the code's own entry", async () => {
    const w2 = await pages("irs/fw2.pdf");
    const passages = passagesOf("fw2.pdf", { 7: w2[6]!, 9: w2[8]! });
    expect(quotes(answerOver(passages, "What does the letter W next to box 12 stand for?"))[0]).toMatch(
      /^W—Employer contributions .* health savings account\.$/,
    );
    expect(quotes(answerOver(passages, "My W-2 shows a D code in box 12. What is that?"))[0]).toMatch(
      /^D—Elective deferrals to a section 401\(k\)/,
    );
    // a letter that names no code ("Copy C") is not read as one
    expect(codeLetters("What goes on Copy C of the W-2?")).toEqual([]);
    expect(codeLetters("What is code C? And the letter I?")).toEqual(["c"]);
  });
  it("quotes a table of contents only to say where to look", async () => {
    const threeM = await pages("sec_financebench/3M_2018_10K.pdf");
    // "... Note 7. Supplemental Balance Sheet Information 81 Note 8. Supplemental Equity ... 82 ..."
    expect(chunkPage(threeM[2]!).every((c) => isContentsPassage(c.text))).toBe(true);
    // running text and statements are no contents: the 10-K's notes and Publication 17's chapters
    const p17 = await pages("irs/p17.pdf");
    const running = [...threeM.slice(55, 90), ...p17.slice(10, 40)].flatMap((page) => chunkPage(page).map((c) => c.text));
    expect(running.filter(isContentsPassage)).toEqual([]);

    const passages = passagesOf("3M_2018_10K.pdf", { 3: threeM[2]!, 81: threeM[80]! });
    const asked = answerOver(passages, "What is the year end FY2018 net PPNE for 3M, as shown in the balance sheet?");
    for (const quote of quotes(asked)) expect(quote).not.toMatch(/Information \d+ Note/);
    expect(answerOver(passages, "On which page of 3M's 10-K are the notes on income taxes?")).toMatch(/Income Taxes 84/);
  });
  it("keeps a title with the name after it, and never quotes a company's name from a list as a sentence", async () => {
    const bestBuy = await pages("sec_financebench/BESTBUY_2023_10K.pdf");
    // "Prior to Best Buy, Ms. Barry worked at Deloitte & Touche LLP." is one sentence
    const officers = chunkPage(bestBuy[19]!).flatMap((c) => splitSentences(c.text));
    expect(officers).toContain("Prior to Best Buy, Ms. Barry worked at Deloitte & Touche LLP.");
    expect(officers.some((s) => /\bMs\.$/.test(s))).toBe(false);
    // nor after "U.S." ("the most directly comparable U.S. GAAP financial measure")
    const amcor = await pages("sec_financebench/AMCOR_2023Q4_EARNINGS.pdf");
    const nonGaap = chunkPage(amcor[6]!).flatMap((c) => splitSentences(c.text));
    expect(nonGaap).toContain(
      "For each of these non-GAAP financial measures, a reconciliation to the most directly comparable U.S. GAAP financial measure has been provided herein.",
    );

    // the list of subsidiaries: "Netherlands 3M West Europe B.V." is a name, not a sentence
    const threeM = await pages("sec_financebench/3M_2018_10K.pdf");
    const subsidiaries = [151, 152].flatMap((i) => chunkPage(threeM[i]!).flatMap((c) => splitSentences(c.text)));
    const names = subsidiaries.filter((s) => /\b(Inc|Ltd|B\.V)\.$/.test(s) && s.split(" ").length < 12);
    expect(names.length).toBeGreaterThanOrEqual(5);
    for (const name of names) expect(isHeading(name)).toBe(true);
    const passages = passagesOf("3M_2018_10K.pdf", { 152: threeM[151]!, 153: threeM[152]! });
    const answer = answerOver(passages, "Which 3M subsidiaries are in the Netherlands?");
    for (const quote of quotes(answer)) expect(names).not.toContain(quote);
    // a sentence that ends with a company's name is still one
    expect(isHeading("3M’s stock ticker symbol is MMM and is listed on the New York Stock Exchange, Inc.")).toBe(false);

    // Best Buy's subsidiaries run together, however long, are names (no verb), not sentences
    const bestBuyNames = chunkPage(bestBuy[68]!).flatMap((c) => splitSentences(c.text));
    const runTogether = bestBuyNames.filter((s) => s.split(" ").length >= 12 && /\b(LLC|Inc\.|Limited|r\.l\.)/.test(s));
    expect(runTogether.length).toBeGreaterThanOrEqual(2);
    for (const names of runTogether) expect(isHeading(names)).toBe(true);
    // while the running text of its risk factors stays sentences
    const risks = chunkPage(bestBuy[16]!).flatMap((c) => splitSentences(c.text));
    expect(risks.filter((s) => !isHeading(s)).length).toBeGreaterThan(15);
    expect(isHeading("Prior to Best Buy, Ms. Barry worked at Deloitte & Touche LLP.")).toBe(false);
  });

  it("answers a question in the user's words from the form's own words ('mail' is 'send')", async () => {
    const w9 = await pages("irs/fw9.pdf");
    const form = passagesOf("fw9.pdf", { 1: w9[0]! });
    expect(form.map((p) => p.text).join(" ")).toMatch(/Do not send to the IRS\./);
    const answer = answerOver(form, "Do I have to mail my finished W-9 to the IRS as well?");
    expect(quotes(answer)[0]).toMatch(/Do not send to the IRS\.$/);
  });

  it("quotes a word broken at a line end whole, and a compound broken at its hyphen with it", async () => {
    // the 1040 instructions break words ("How- ever, neither spouse can deduct ... qualified expen- ses")
    const instructions = await pages("irs/i1040gi.pdf");
    const educator = passagesOf("i1040gi.pdf", { 31: instructions[30]! });
    expect(educator.map((p) => p.text).join(" ")).toMatch(/How- ever/);
    const teacher = answerOver(educator, "Can one spouse deduct more than $250 of qualified expenses?");
    expect(quotes(teacher)).toContain("However, neither spouse can deduct more than $250 of his or her qualified expenses on line 23.");
    // Pub 17 breaks lines only at a compound's own hyphen ("self- employment tax")
    const p17 = await pages("irs/p17.pdf");
    const selfEmployed = passagesOf("p17.pdf", { 114: p17[113]!, 116: p17[115]! });
    expect(selfEmployed.map((p) => p.text).join(" ")).toMatch(/self- employ/);
    const owed = answerOver(selfEmployed, "Am I self-employed if I work as a nanny in my home?");
    expect(owed).toMatch(/self-employ/);
    for (const quote of [...quotes(teacher), ...quotes(owed)]) expect(quote).not.toMatch(/selfemploy|\p{L}- (?!and |or )\p{Ll}/u);
  });

  it("makes a word whose last letter the PDF set apart whole again ('Balance Shee t'), and leaves a lone letter after another word", async () => {
    const filing = await pages("sec_financebench/3M_2018_10K.pdf");
    expect(filing[57]).toMatch(/Balance Shee t/);
    const sheet = passagesOf("3M_2018_10K.pdf", { 58: filing[57]!, 60: filing[59]! });
    const text = sheet.map((p) => p.text).join(" ");
    expect(text).toContain("Consolidated Balance Sheet At December 31");
    expect(text).toContain("Consolidated Statement of Cash Flows");
    expect(text).not.toMatch(/\b\p{Lu}\p{Ll}+ [b-hj-wyz]\b/u);
    // a box's or a column's letter and a checked box stay apart
    expect(normalisePageText("Enter box c of Form W-2 in column d. Yes x No")).toBe("Enter box c of Form W-2 in column d. Yes x No");
  });

  it("counts a concept once in a line that names it twice ('property, plant and equipment (PP&E)')", async () => {
    const filing = await pages("sec_financebench/3M_2018_10K.pdf");
    // the pages the product retrieved for the question
    const passages = passagesOf("3M_2018_10K.pdf", Object.fromEntries([46, 49, 58, 81, 127].map((page) => [page, filing[page - 1]!])));
    const answer = answerOver(passages, "What was net property, plant and equipment on the balance sheet at the end of 2018?");
    // was "Purchases of property, plant and equipment (PP&E): (1,577); ...", whose "PP&E" counted as one more term
    expect(quotes(answer)[0]).toMatch(/^Property, plant and equipment\W+net: 2018 8,738/);
  });

  it("reads a short sentence with a date and a form number as a sentence, not a table row, and answers a date with it", async () => {
    const instructions = await pages("irs/i1040gi.pdf");
    const dueDate = passagesOf("i1040gi.pdf", { 6: instructions[5]! });
    expect(splitSentences(dueDate.map((p) => p.text).join(" "))).toContain("File Form 1040 by April 17, 2018.");
    expect(isTableRow("File Form 1040 by April 17, 2018.")).toBe(false);
    const answer = answerOver(dueDate, "By what date did my 2017 Form 1040 have to be filed?");
    expect(quotes(answer)[0]).toBe("File Form 1040 by April 17, 2018.");
  });

  it("quotes the case of a listed sentence the question singles out, and the whole list when it singles out none", async () => {
    const p17 = await pages("irs/p17.pdf");
    // "Your base amount is: $25,000 if you are single, ...; $25,000 if you are married filing separately and lived
    // apart ...; $32,000 if you are married filing jointly; or $0 if you are married filing separately and lived with ..."
    const baseAmount = passagesOf("p17.pdf", { 165: p17[164]! });
    expect(quotes(answerOver(baseAmount, "What base amount applies to a married couple filing jointly?"))[0]).toBe(
      "Your base amount is: … $32,000 if you are married filing jointly.",
    );
    // married filing separately is in two cases (living apart, living together): the list answers whole
    expect(quotes(answerOver(baseAmount, "We're married and file separate returns. What base amount applies?"))[0]).toMatch(
      /^Your base amount is: \$25,000 if you are single.*\$0 if you are married filing separately and lived with your spouse/,
    );
    // two cases tie on the question's words: the list they are in answers, as close to the question as one of them
    // (it was "Half of your social security benefits plus your other gross income ... is more than $25,000 ...")
    const socialSecurity = passagesOf("p17.pdf", Object.fromEntries([14, 165, 99, 15, 166].map((page) => [page, p17[page - 1]!])));
    expect(
      quotes(
        answerOver(
          socialSecurity,
          "We are married, live together and file separate returns. What base amount applies to our social security?",
        ),
      )[0],
    ).toMatch(/^Your base amount is: \$25,000 if you are single.*\$0 if you are married filing separately and lived with your spouse/);
    // the IRA deduction is phased out between listed limits: the single filer's case is quoted with what it limits
    const phaseOut = passagesOf("p17.pdf", { 220: p17[219]! });
    expect(
      quotes(
        answerOver(
          phaseOut,
          "I'm single with a retirement plan at work. For 2024, above what modified AGI can I deduct nothing for a traditional IRA?",
        ),
      )[0],
    ).toMatch(
      /^For 2024, if you are covered by a retirement plan at work, .* modified AGI is: … More than \$77,000 but less than \$87,000 for a single individual or head of household\.$/,
    );
    // conditions that all hold ("a statement ... that: You can't see better than 20/200 ..., or Your field of vision ...") are no cases
    const blind = passagesOf("p17.pdf", { 252: p17[251]! });
    expect(quotes(answerOver(blind, "How poor must my vision be to get the higher standard deduction for blindness?"))[0]).toMatch(
      /that: You can.t see better than 20\/200 .*, or Your field of vision is/,
    );
  });

  it("reads a compound the question writes ('e-filing', 'Self-Select') as one term, not as its words alone", async () => {
    const instructions = await pages("irs/i1040gi.pdf");
    // the pages the product retrieved for such a question
    const passages = passagesOf("i1040gi.pdf", Object.fromEntries([76, 77, 93, 19, 14].map((page) => [page, instructions[page - 1]!])));
    const answer = answerOver(passages, "My 15-year-old is e-filing her first return ever, for 2017. Can she sign with a Self-Select PIN?");
    // was "If you are filing online using software, you must use a Self-Select PIN.", whose "filing" counted as a term of its own
    expect(quotes(answer)[0]).toBe(
      "You can't use the Self-Select PIN method if you are a first-time filer under age 16 at the end of 2017.",
    );
  });

  it("finds the document's word for the user's in its inflected forms ('ceiling' is 'limit': 'limited to')", async () => {
    const p17 = await pages("irs/p17.pdf");
    const passages = passagesOf("p17.pdf", { 192: p17[191]!, 266: p17[265]! });
    const answer = answerOver(passages, "Is there a ceiling on how much state income tax and property tax I can deduct?");
    // was "The difference between the state and local income tax you deducted and your local general sales tax was more than $400."
    expect(quotes(answer)[0]).toMatch(/^The deduction for state and local taxes is limited to \$10,000/);
  });
});
