import { describe, expect, it } from "vitest";
import { asksChange, isPartOf, rowChange } from "../../worker/answer/writer/row-change";
import { labelledRows } from "../../worker/answer/passages/labelled-rows";

describe("the change a table row's figures show", () => {
  it("hears a change asked in a user's words, and not in a question about one figure", () => {
    for (const q of [
      "Was there any drop in cash between FY2023 and Q2?",
      "How did revenue change from 2021 to 2023?",
      "Did SG&A increase or decrease?",
      "Net sales 2023 vs 2022?",
      "What was the year-over-year growth in operating income?",
      "Did the gross profit rate go down in fiscal 2023?",
      "Sales fell, by how much?",
      // whether it held asks how much it moved
      "Are gross margins historically consistent?",
      "Did the operating margin fluctuate much?",
    ])
      expect(asksChange(q), q).toBe(true);
    for (const q of ["What was net income in 2023?", "How much cash did we hold at year end?"]) expect(asksChange(q), q).toBe(false);
  });

  it("reads the change from the period compared with to the latest: amount and percent, by the row's own units", () => {
    const cash = "Cash and cash equivalents: July 29, 2023 $1,093; January 28, 2023 $1,874; July 30, 2022 $840";
    expect(rowChange(cash, "Any drop in cash?")).toBe(" (from January 28, 2023 to July 29, 2023: down $781, or 42%)");
    // years in ascending order: still the latest against the one before it
    expect(rowChange("Net sales: 2021 1,000.5; 2022 1,010.0; 2023 1,020.0", "Did sales grow?")).toBe(
      " (from 2022 to 2023: up 10.0, or 1%)",
    );
    expect(rowChange("Net sales: 2023 1,100; 2022 1,000; 2021 400", "Did sales grow?")).toBe(" (from 2022 to 2023: up 100, or 10%)");
    expect(rowChange("Units: 2023 969; 2022 982", "Any change?")).toBe(" (from 2022 to 2023: down 13, or 1.3%)");
  });

  it("reads between the two years, or the two dates, the question names", () => {
    const revenue = "Revenue: 2023 $3,504; 2022 $3,931; 2021 $3,969";
    expect(rowChange(revenue, "How did revenue change from 2021 to 2023?")).toBe(" (from 2021 to 2023: down $465, or 12%)");
    const cash = "Cash and cash equivalents: July 29, 2023 $1,093; January 28, 2023 $1,874; July 30, 2022 $840";
    expect(rowChange(cash, "Did cash drop between July 30, 2022 and July 29, 2023?")).toBe(
      " (from July 30, 2022 to July 29, 2023: up $253, or 30%)",
    );
  });

  it("changes a row of percents by points, gives no percent of nothing, and reads no change below nothing", () => {
    expect(rowChange("Gross profit as a % of revenue: 2023 23.0%; 2022 23.9%; 2021 21.5%", "Did the gross margin change?")).toBe(
      " (from 2022 to 2023: down 0.9 percentage points)",
    );
    expect(rowChange("Hires: 2023 12; 2022 0", "Any change?")).toBe(" (from 2022 to 2023: up 12)");
    // "up $1,291" of a decrease that shrank reads backwards
    expect(rowChange("Decrease in cash: July 29, 2023 $(762); July 30, 2022 $(2,053)", "Any decrease in cash?")).toBeNull();
    expect(rowChange("Other: 2023 5; 2022 5", "Any change?")).toBe(" (from 2022 to 2023: unchanged)");
  });

  it("reads no change from a row without column heads, with one figure, or with one period twice", () => {
    expect(rowChange("Revenue: $8,890; $9,569; $17,691; $19,463", "Any drop?")).toBeNull();
    expect(rowChange("Revenue: 2023 $8,890", "Any drop?")).toBeNull();
    expect(rowChange("Revenue: 2023 $8,890; 2023 $9,569", "Any drop?")).toBeNull();
    expect(rowChange("Revenue: 2023 —; 2022 $9,569", "Any drop?")).toBeNull();
  });

  it("tells a segment's row as a part of the company's: the same label and fiscal years, each figure as large or larger", () => {
    const company = "Revenue: January 28, 2023 $46,298; January 29, 2022 $51,761; January 30, 2021 $47,262";
    const domestic = "Revenue: 2023 $42,794; 2022 $47,830; 2021 $43,293";
    expect(isPartOf(domestic, company)).toBe(true);
    expect(isPartOf(company, domestic)).toBe(false);
    expect(isPartOf(company, company)).toBe(false);
    // another label, other years, opposite signs, percents: no part
    expect(isPartOf(domestic, company.replace("Revenue", "Gross profit"))).toBe(false);
    expect(isPartOf("Revenue: 2022 $42,794; 2021 $47,830; 2020 $43,293", company)).toBe(false);
    expect(isPartOf("Operating income: 2023 $(161); 2022 $244", "Operating income: 2023 $1,795; 2022 $3,039")).toBe(false);
    expect(isPartOf("Revenue mix: 2023 41%; 2022 42%", "Revenue mix: 2023 100%; 2022 100%")).toBe(false);
  });

  it("reads a change within one period's length where a table has several: the period the question names, else the first", () => {
    const revenues =
      "Revenues: Three months ended July 2, 2023 $12,734; Three months ended July 3, 2022 $27,742; Six months ended July 2, 2023 $31,015; Six months ended July 3, 2022 $53,402";
    expect(rowChange(revenues, "Did revenues fall?")).toBe(" (from Three months ended July 3, 2022 to July 2, 2023: down $15,008, or 54%)");
    expect(rowChange(revenues, "Did revenues drop in the first six months of 2023?")).toBe(
      " (from Six months ended July 3, 2022 to July 2, 2023: down $22,387, or 42%)",
    );
    expect(rowChange(revenues, "How did revenues change in the first half?")).toBe(
      " (from Six months ended July 3, 2022 to July 2, 2023: down $22,387, or 42%)",
    );
    // a quarter's row is not a part the half year's stands in for
    const quarter = "Revenues: Three months ended July 2, 2023 $12,734; Three months ended July 3, 2022 $27,742";
    expect(isPartOf(quarter, "Revenues: Six months ended July 2, 2023 $31,015; Six months ended July 3, 2022 $53,402")).toBe(false);
    expect(isPartOf(quarter, "Revenues: Three months ended July 2, 2023 $13,000; Three months ended July 3, 2022 $28,000")).toBe(true);

    // a retailer counts its periods in weeks: 13 is a quarter, 52 a year
    const sales =
      "Net sales: 13 weeks ended January 28, 2023 $3,226.8; 13 weeks ended January 29, 2022 $2,729.4; 52 weeks ended January 28, 2023 $10,208.6; 52 weeks ended January 29, 2022 $8,630.9";
    expect(rowChange(sales, "How did net sales change over the full year?")).toBe(
      " (from 52 weeks ended January 29, 2022 to January 28, 2023: up $1,577.7, or 18%)",
    );
    // the heads as a release writes them: month and day over the years, a dateline's date before them
    const release =
      "March 9, 2023 Ulta Beauty Announces Results 13 Weeks Ended 52 Weeks Ended January 28, January 29, January 28, January 29, (Dollars in millions) 2023 2022 2023 2022 Net sales $ 3,226.8 $ 2,729.4 $ 10,208.6 $ 8,630.9";
    expect(labelledRows(release)).toEqual([sales]);
    expect(rowChange(sales, "Did net sales grow in the fourth quarter?")).toBe(
      " (from 13 weeks ended January 29, 2022 to January 28, 2023: up $497.4, or 18%)",
    );
  });
});
