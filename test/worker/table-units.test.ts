// A financial table's rows are quoted with the unit its note states once above it: two issuers'
// statements (a 3M-style "(Millions, except per share amounts)" and a Best Buy-style note printed
// without parentheses), a note in thousands, and the rows the note excepts.
import { describe, expect, it } from "vitest";
import { rowFiguresText } from "../../worker/answer/passages/labelled-rows";
import { quotableSentences } from "../../worker/answer/passages/quotable";
import { unitNote } from "../../worker/answer/passages/table-units";

const rows = (text: string) =>
  quotableSentences(text)
    .filter((s) => s.row)
    .map((s) => s.quote);

describe("a table's unit", () => {
  it("follows the amounts of an annual report's income statement, not its per-share rows", () => {
    const statement =
      "Consolidated Statement of Income Years ended December 31 (Millions, except per share amounts) 2018 2017 2016 " +
      "Net sales $ 32,765 $ 31,657 $ 30,109 Operating income 7,207 7,692 6,966 " +
      "Earnings per share attributable to 3M common shareholders diluted $ 8.89 $ 7.93 $ 8.16";
    expect(rows(statement)).toEqual([
      "Net sales: 2018 $32,765; 2017 $31,657; 2016 $30,109 (in millions)",
      "Operating income: 2018 7,207; 2017 7,692; 2016 6,966 (in millions)",
      "Earnings per share attributable to 3M common shareholders diluted: 2018 $8.89; 2017 $7.93; 2016 $8.16",
    ]);
  });

  it("reads a note printed without its parentheses, and keeps share counts it scales apart", () => {
    const statement =
      "Consolidated Statements of Earnings $ and shares in millions, except per share amounts Fiscal Years Ended " +
      "January 28, 2023 January 29, 2022 Revenue $ 46,298 $ 51,761 Gross profit 9,912 11,640 " +
      "Diluted earnings per share $ 6.29 $ 9.84";
    expect(rows(statement)).toEqual([
      "Revenue: January 28, 2023 $46,298; January 29, 2022 $51,761 (in millions)",
      "Gross profit: January 28, 2023 9,912; January 29, 2022 11,640 (in millions)",
      "Diluted earnings per share: January 28, 2023 $6.29; January 29, 2022 $9.84",
    ]);
  });

  it("is in thousands where the note says so, and absent where no note is", () => {
    expect(
      rows("(In thousands, except per share data) 2023 2022 Net sales $ 10,208,580 $ 8,630,889 Gross profit 4,003,000 3,400,127"),
    ).toEqual([
      "Net sales: 2023 $10,208,580; 2022 $8,630,889 (in thousands)",
      "Gross profit: 2023 4,003,000; 2022 3,400,127 (in thousands)",
    ]);
    // a row of percents is no count of thousands, a fall in brackets too (an earnings release, an HR survey)
    expect(rows("(In thousands) 2023 2022 2021 Comparable sales 15.6% 21.4% (4.8%) Net sales $ 10,208 $ 8,630 $ 6,152")).toEqual([
      "Comparable sales: 2023 15.6%; 2022 21.4%; 2021 (4.8%)",
      "Net sales: 2023 $10,208; 2022 $8,630; 2021 $6,152 (in thousands)",
    ]);
    expect(rows("(In thousands) 2024 2023 Staff turnover (2.5%) 11.0% Payroll $ 4,210 $ 3,980")[0]).toBe(
      "Staff turnover: 2024 (2.5%); 2023 11.0%",
    );
    expect(rows("2023 2022 Stores opened 25 40 Stores closed 3 5")).toEqual([
      "Stores opened: 2023 25; 2022 40",
      "Stores closed: 2023 3; 2022 5",
    ]);
  });

  it("is no figure of the row: the row's figures read without it", () => {
    expect(rowFiguresText("Net sales: 2018 $32,765; 2017 $31,657 (in millions)")).toBe("2018 $32,765; 2017 $31,657");
  });

  it("is only a note of amounts: share and option counts, and running text, state none", () => {
    expect(unitNote("(Shares in thousands)")).toBeNull();
    expect(unitNote("(options and shares in thousands)")).toBeNull();
    expect(unitNote("Sales grew in most markets.")).toBeNull();
    expect(unitNote("($ in Billions, except EPS; Shares in Millions)")?.unit).toBe("billions");
    expect(unitNote("(Dollars in Millions Except Per Share Data)")?.except?.test("Diluted earnings per share")).toBe(true);
  });
});
