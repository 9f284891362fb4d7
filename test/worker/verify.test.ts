// An answer checked against the pages it cites (#43, first part): figures, quoted phrases and
// citations looked up on the cited pages, with the normalisations a reader would allow.
import { describe, expect, it } from "vitest";
import { verifyAnswer } from "../../worker/answer/verify";
import { citeAnswer } from "../../worker/answer/citations";
import { localAnswer } from "../../worker/answer/writer/local-writer";
import type { Passage } from "../../worker/providers/llm/types";

const PUB17 = "The standard deduction for a single filer is $14,600 for 2024. A filer who is 65 or older adds $1,950.";
const sources = (...texts: string[]) => new Map(texts.map((text, i) => [i + 1, [text]]));
const statusOf = (answer: string, ...texts: string[]) => verifyAnswer(answer, sources(...texts)).checks.map((c) => [c.status, c.missing]);

describe("checking an answer against its cited pages", () => {
  it("passes a faithful answer and marks a changed figure with what is missing", () => {
    const result = verifyAnswer(
      "The standard deduction for a single filer is $14,600 [1]. It rises to $99,999 for those over 65 [1].",
      sources(PUB17),
    );
    expect(result.checks).toEqual([
      { sentence: "The standard deduction for a single filer is $14,600 [1].", status: "supported", missing: [] },
      { sentence: "It rises to $99,999 for those over 65 [1].", status: "unsupported", missing: ["$99,999"] },
    ]);
    expect(result.verified).toEqual({ sentences: 2, unsupported: 1 });
  });

  it("marks a citation that names no source, and a figure stated without one", () => {
    expect(statusOf("The deduction is $14,600 [3].", PUB17)).toEqual([["unsupported", ["[3]", "$14,600"]]]);
    expect(statusOf("The deduction is $14,600 [1]. Seniors add $1,950 more.", PUB17)).toEqual([
      ["supported", []],
      ["unsupported", ["$1,950"]],
    ]);
  });

  it("reads figures as a reader would: currency, grouping, percent words, month abbreviations, number words", () => {
    const filing = "Net sales were 1,234.5 million. The rate is 7 percent. Payment is due January 31, 2025. Leave lasts 16 weeks.";
    expect(statusOf("Net sales were $1,234.5 million [1]. The rate is 7% [1].", filing)).toEqual([
      ["supported", []],
      ["supported", []],
    ]);
    expect(statusOf("It is due Jan. 31, 2025 [1]. Leave lasts sixteen weeks [1].", filing)).toEqual([
      ["supported", []],
      ["supported", []],
    ]);
    expect(statusOf("The deduction is 14600 dollars [1].", PUB17)).toEqual([["supported", []]]);
  });

  it("marks a changed scale, a swapped year or month, and a quote the page does not hold", () => {
    const release = "Revenue was $1.2 billion in fiscal 2023, due on March 15, 2024.";
    expect(statusOf("Revenue was $1.2 million [1].", release)).toEqual([["unsupported", ["$1.2 million"]]]);
    expect(statusOf("Revenue was $1.2 billion in fiscal 2022 [1].", release)).toEqual([["unsupported", ["2022"]]]);
    expect(statusOf("It is due on April 15, 2024 [1].", release)).toEqual([["unsupported", ["April 15"]]]);
    const [quoted] = verifyAnswer('The filing calls it "record revenue" [1].', sources(release)).checks;
    expect(quoted).toMatchObject({ status: "unsupported", missing: expect.arrayContaining(['"record revenue"']) });
    expect(statusOf('It says "Revenue was $1.2 billion" [1].', release)).toEqual([["supported", []]]);
  });

  it("accepts a change worked out from two of the page's figures, and no other", () => {
    const row = "Net income: 2023 $1,058; 2022 $815";
    expect(statusOf(`${row} (from 2022 to 2023: up $243, or 30%) [1]`, row)).toEqual([["supported", []]]);
    expect(statusOf(`${row} (from 2022 to 2023: up $300, or 30%) [1]`, row)).toEqual([["unsupported", ["$300"]]]);
    const margins = "Gross profit as a % of revenue: 2023 21.3%; 2022 22.4%";
    expect(statusOf(`${margins} (from 2022 to 2023: down 1.1 percentage points) [1]`, margins)).toEqual([["supported", []]]);
  });

  it("judges a sentence without figures by how many of its words its pages hold", () => {
    const handbook = "Employees must give two weeks' notice to their manager before any vacation.";
    expect(statusOf("Employees must give their manager notice before a vacation [1].", handbook)).toEqual([["supported", []]]);
    expect(statusOf("Contractors receive company laptops and parking permits [1].", handbook)[0]![0]).toBe("unsupported");
    // words alone, with no source, are no claim to look up
    expect(statusOf("Here is what I found.", handbook)).toEqual([["supported", []]]);
  });

  it("reads a count of time in its unit, a date with its year, a year with its month (a tax guide, a filing)", () => {
    const guide = "Keep Copy C of Form W-2 for at least 3 years after the due date. Returns are due April 15, 2025.";
    expect(statusOf("Keep Copy C for at least three years [1].", guide)).toEqual([["supported", []]]);
    expect(statusOf("Keep Copy C for at least 3 months [1].", guide)).toEqual([["unsupported", ["3"]]]);
    expect(statusOf("Returns are due Apr. 15, 2025 [1].", guide)).toEqual([["supported", []]]);
    expect(statusOf("Returns are due April 15, 2024 [1].", `${guide} Tax year 2024.`)).toEqual([["unsupported", ["April 15"]]]);
    const filing =
      "The contracts have terms of up to 12 months. As of July 29, 2023, cash was $1,093 million; at July 30, 2022 it was $840 million. In October 2017, 3M issued notes due 2018.";
    expect(statusOf("The contracts have terms of up to 12 years [1].", filing)).toEqual([["unsupported", ["12"]]]);
    expect(statusOf("Cash was $1,093 million as of July 29, 2022 [1].", filing)).toEqual([["unsupported", ["July 29"]]]);
    expect(statusOf("3M issued notes in October 2017 [1].", filing)).toEqual([["supported", []]]);
    expect(statusOf("3M issued notes in October 2018 [1].", filing)).toEqual([["unsupported", ["October 2018"]]]);
    expect(statusOf("The dividend rose six percent [1].", "The dividend of $1.44 per share is an increase of 6 percent.")).toEqual([
      ["supported", []],
    ]);
  });

  it("always passes the local writer's answers (a tax guide, a filing's table)", () => {
    const passage = (page: number, text: string, fileName: string): Passage => ({
      chunkId: `${fileName}:${page}`,
      documentId: fileName,
      fileName,
      page,
      text,
      charStart: 0,
      charEnd: text.length,
    });
    for (const [question, passages] of [
      [
        "What is the standard deduction for a single filer?",
        [passage(1, PUB17, "p17.pdf"), passage(2, "Married couples filing jointly get $29,200.", "p17.pdf")],
      ],
      [
        "How did net income change from 2022 to 2023?",
        [passage(40, "(Millions) 2023 2022 Net income $ 1,058 $ 815 Revenue $ 46,298 $ 51,761", "10K.pdf")],
      ],
    ] as const) {
      const { text, cited } = citeAnswer(localAnswer({ question, passages: [...passages], history: [], anonymous: false }), passages);
      expect(text).toMatch(/\[1\]/);
      expect(verifyAnswer(text, cited).verified.unsupported).toBe(0);
    }
  });
});
