// An answer checked against the pages it cites (#43, first part): figures, quoted phrases and
// citations looked up on the cited pages, with the normalisations a reader would allow.
import { describe, expect, it } from "vitest";
import { verifyAnswer } from "../../worker/answer/verify";
import { checkReason, checkSummary } from "../../worker/contract/checks";
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
    expect(statusOf("Keep Copy C for at least 3 months [1].", guide)).toEqual([["unsupported", ["3 months"]]]);
    expect(statusOf("Returns are due Apr. 15, 2025 [1].", guide)).toEqual([["supported", []]]);
    expect(statusOf("Returns are due April 15, 2024 [1].", `${guide} Tax year 2024.`)).toEqual([["unsupported", ["April 15"]]]);
    const filing =
      "The contracts have terms of up to 12 months. As of July 29, 2023, cash was $1,093 million; at July 30, 2022 it was $840 million. In October 2017, 3M issued notes due 2018.";
    expect(statusOf("The contracts have terms of up to 12 years [1].", filing)).toEqual([["unsupported", ["12 years"]]]);
    expect(statusOf("Cash was $1,093 million as of July 29, 2022 [1].", filing)).toEqual([["unsupported", ["July 29"]]]);
    expect(statusOf("3M issued notes in October 2017 [1].", filing)).toEqual([["supported", []]]);
    expect(statusOf("3M issued notes in October 2018 [1].", filing)).toEqual([["unsupported", ["October 2018"]]]);
    expect(statusOf("The dividend rose six percent [1].", "The dividend of $1.44 per share is an increase of 6 percent.")).toEqual([
      ["supported", []],
    ]);
  });

  it("reads a date its page broke at a line end as the local writer quotes it, whole (a tax guide, a filing)", () => {
    // the writer joins "De- cember" in its quote (line-breaks.ts): the check reads the page's figures the same way
    const guide = "If you weren't totally blind as of De-\ncember 31, 2017, you must get a statement certified by your eye doctor.";
    expect(statusOf("If you weren't totally blind as of December 31, 2017, you must get a statement [1].", guide)).toEqual([
      ["supported", []],
    ]);
    expect(statusOf("If you weren't totally blind as of December 30, 2017, you must get a statement [1].", guide)).toEqual([
      ["unsupported", ["December 30"]],
    ]);
    const filing = "The notes mature on Septem- ber 15, 2028 and bear interest at 4.5%.";
    expect(statusOf("The notes mature on September 15, 2028 [1].", filing)).toEqual([["supported", []]]);
  });

  it("reads a column's date or year before a '% Change' head as such, not a percent (three issuers' tables)", () => {
    const pharma =
      "Three Months Ended July 2, 2023 July 3, 2022 % Change Research and development expenses 2,648 2,815 (6) " +
      "Acquired in-process research and development expenses 33 1 * Cost of sales as a % of revenues 25.4 % 31.2 %";
    expect(statusOf("Acquired in-process research and development expenses: July 2, 2023 33; July 3, 2022 1 [1]", pharma)).toEqual([
      ["supported", []],
    ]);
    expect(statusOf("Acquired in-process research and development expenses: July 2, 2023 33; July 3, 2022 7 [1]", pharma)).toEqual([
      ["unsupported", ["7"]],
    ]);
    // a percent the table writes with a space is still a percent
    expect(statusOf("Cost of sales was 31.2% of revenues [1].", pharma)).toEqual([["supported", []]]);
    expect(statusOf("Cost of sales was 31.2 of revenues [1].", pharma)).toEqual([["unsupported", ["31.2"]]]);
    const retailer = "Fiscal Year Ended January 28, 2023 January 29, 2022 % Change Revenue $ 46,298 $ 51,761 (10.6)";
    expect(statusOf("Revenue: January 28, 2023 $46,298; January 29, 2022 $51,761 [1]", retailer)).toEqual([["supported", []]]);
    // a column's year before it too ("2021 % Change")
    const release = "Three Months Ended December 31, 2022 2021 % Change Rooms revenue (In millions) $ 813 $ 557 46 %";
    expect(statusOf("Rooms revenue rose 46% to $813 million in 2022, from $557 million in 2021 [1].", release)).toEqual([
      ["supported", []],
    ]);
    expect(statusOf("Rooms revenue rose 46% to $813 million in 2022, from $557 million in 2020 [1].", release)).toEqual([
      ["unsupported", ["2020"]],
    ]);
  });

  it("marks a negation the page sentence it restates does not write, with or without figures (a tax guide, a filing)", () => {
    const guide =
      "You can deduct the part of your medical expenses that is more than 7.5% of your adjusted gross income. You can't deduct funeral expenses.";
    expect(statusOf("You cannot deduct medical expenses above 7.5% of your adjusted gross income [1].", guide)).toEqual([
      ["unsupported", ["cannot"]],
    ]);
    expect(statusOf("You cannot deduct funeral expenses [1].", guide)).toEqual([["supported", []]]);
    const release =
      "Movements in foreign exchange rates had a material impact on net sales for the quarter. Volumes were 3% lower than last year.";
    expect(statusOf("Foreign exchange movements had no material impact on net sales for the quarter [1].", release)).toEqual([
      ["unsupported", ["no"]],
    ]);
    expect(statusOf("Volumes were not 3% lower than last year [1].", release)).toEqual([["unsupported", ["not"]]]);
    // two sentences joined into one: the second's "not" is on the page
    const model = "The model used 9 currencies. This model does not purport to represent what actually will be experienced.";
    expect(statusOf("The model used 9 currencies; it does not purport to represent what actually will be experienced [1].", model)).toEqual(
      [["supported", []]],
    );
  });

  it("marks a figure put in the place of the one its page sentence writes, though the page writes it elsewhere (a tax guide, a filing)", () => {
    const w4 =
      "You had no federal income tax liability in 2024 if your total tax was zero. If you claim exemption, you may owe taxes and penalties when you file your 2025 tax return.";
    expect(statusOf("If you claim exemption, you may owe taxes and penalties when you file your 2024 tax return [1].", w4)).toEqual([
      ["unsupported", ["2024 (in place of 2025)"]],
    ]);
    expect(statusOf("Claiming exemption, you may owe penalties when you file your 2025 tax return [1].", w4)).toEqual([["supported", []]]);
    const tenK =
      "In the second quarter of 2018, 3M reached agreements in principle on a number of respiratory mask claims. Legal accruals rose in 2017 and 2018.";
    expect(statusOf("In the second quarter of 2017, 3M reached agreements in principle on respiratory mask claims [1].", tenK)).toEqual([
      ["unsupported", ["2017 (in place of 2018)"]],
    ]);
    // a table's rows are no sentence: a row's figures stand under its column heads, not in one line
    const sheet =
      "BALANCE SHEETS (MILLIONS) July 2, 2023 December 31, 2022 Assets Cash $ 2,632 $ 416 Inventories 10,310 8,981 Goodwill 51,572 51,375 Total current assets 73,347 51,259 Total assets $ 220,168 $ 197,205";
    expect(statusOf("Total assets: July 2, 2023 $220,168; December 31, 2022 $197,205 [1]", sheet)).toEqual([["supported", []]]);
  });

  it("finds a quoted phrase whose word the page broke at a line end (a tax form, a filing)", () => {
    const w9 = "You do not certify to the requester, as described in item 4 under “By signing the filled- out form” above.";
    expect(
      statusOf("You do not certify to the requester, as described in item 4 under “By signing the filled-out form” above [1].", w9),
    ).toEqual([["supported", []]]);
    const tenK = "The Company refers to these as “non- GAAP measures” in this report.";
    expect(statusOf("The Company refers to these as “non-GAAP measures” in this report [1].", tenK)).toEqual([["supported", []]]);
    expect(statusOf("The Company refers to these as “adjusted measures” in this report [1].", tenK)).toEqual([
      ["unsupported", ['"adjusted measures"']],
    ]);
  });

  it("reads a name's middle initial as no sentence end, and a sentence beside the long one around its words (a filing's signatures, a tax form's instructions)", () => {
    const tenK =
      "Signature Title Date /s/ Nicholas C. Gangestad Nicholas C. Gangestad Chief Financial Officer February 7, 2019 /s/ Theresa E. McLaughlin";
    expect(statusOf("Signed by Nicholas C. Gangestad Nicholas C. Gangestad Chief Financial Officer February 7, 2019 [1].", tenK)).toEqual([
      ["supported", []],
    ]);
    const instructions =
      "If you want us to directly deposit the amount shown on line 76a to your checking or savings account at a bank or other financial in- stitution: Complete lines 76b through 76d (if you want your refund deposited to only one account), or check the box on line 76a and attach Form 8888 if you want to split the direct deposit of your refund into more than one account. If you don’t want your refund direct- ly deposited to your account, don’t check the box on line 76a. Draw a line through the boxes on lines 76b and 76d.";
    expect(
      statusOf("If you don’t want your refund directly deposited to your account, don’t check the box on line 76a [1].", instructions),
    ).toEqual([["supported", []]]);
  });

  it("reads a form's number as its name, no figure put in another's place (a tax form's lines)", () => {
    const form1040 =
      "23 Other taxes, including self-employment tax, from Schedule 2, line 21 . . . . . . . . . 23 24 Add lines 22 and 23. This is your total tax . . . . . . . . . . . . . . . . . 24 Payments 25 Federal income tax withheld from: a Form(s) W-2 . . . . . . . . . . . . . . . . . . 25a b Form(s) 1099 . . . . . . . . . . . . . . . . . . 25b c Other forms (see instructions) . . . . . . . . . . . . . 25c";
    expect(statusOf("Line 25b: Federal income tax withheld from: Form(s) 1099 [1]", form1040)).toEqual([["supported", []]]);
  });

  it("reads an excerpt of a list by its parts, the item's number no figure (a tax guide, an HR handbook)", () => {
    const guide =
      "You may have to pay a penalty because: 1. You show negligence, 2. You substantially understate your income tax, 3. You fail to file.";
    expect(statusOf("You may have to pay a penalty because: … 2. You substantially understate your income tax [1].", guide)).toEqual([
      ["supported", []],
    ]);
    const handbook = "Leave is paid if: 1. You have worked here for 12 months; and 2. You give 30 days' notice.";
    expect(statusOf("Leave is paid if: … 2. You give 30 days' notice [1].", handbook)).toEqual([["supported", []]]);
    expect(statusOf("Leave is paid if: … 2. You give 60 days' notice [1].", handbook)).toEqual([["unsupported", ["60 days"]]]);
  });

  it("reads no figure in a file's name (a handbook, a filing)", () => {
    const names = { documentNames: ["Handbook 2025.pdf", "10-K 2023.pdf"] };
    const notFound = "I could not find this in this chat's documents (Handbook 2025.pdf, 10-K 2023.pdf).";
    expect(verifyAnswer(notFound, new Map(), names).verified).toEqual({ sentences: 1, unsupported: 0 });
    expect(verifyAnswer(notFound, new Map()).verified.unsupported).toBe(1);
    expect(verifyAnswer("10-K 2023.pdf reports net sales of $5,000 million.", new Map(), names).checks[0]!.missing).toEqual([
      "$5,000 million",
    ]);
  });

  it("needs most of a figureless sentence's words on its pages (CONTENT_SHARE, from the labelled set's tune half)", () => {
    const guide =
      "Persons making certain payments to you must withhold and pay to the IRS a part of such payments under certain conditions.";
    // 3 of 5 content words on the page: 0.6
    expect(statusOf("Persons making payments must report them quarterly [1].", guide)[0]![0]).toBe("unsupported");
    expect(statusOf("Persons making certain payments must withhold part of them [1].", guide)).toEqual([["supported", []]]);
    const filing = "Amcor evaluates performance on a comparable constant currency basis, assuming constant exchange rates.";
    expect(statusOf("Amcor evaluates segment profitability using adjusted margins [1].", filing)[0]![0]).toBe("unsupported");
    expect(statusOf("Amcor evaluates performance at constant currency [1].", filing)).toEqual([["supported", []]]);
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

describe("the reason a person reads beside a marked sentence", () => {
  const sources = [{ n: 1, fileId: "f", fileName: "p17.pdf", page: 3 }];
  const reasonOf = (sentence: string, missing: string[]) => checkReason({ sentence, status: "unsupported", missing }, sources);

  it("names the figure, the replaced figure, the added negation, the wrong citation and the page", () => {
    expect(reasonOf("It rises to $99,999 [1].", ["$99,999"])).toBe("$99,999 is not on p. 3 of p17.pdf");
    expect(reasonOf("Filed in 2024 [1].", ["2024 (in place of 2025)"])).toBe("P. 3 of p17.pdf says 2025, not 2024");
    expect(reasonOf("You cannot deduct it [1].", ["cannot"])).toBe('It adds "cannot", which p. 3 of p17.pdf does not say');
    expect(reasonOf("The rate is 7% [4].", ["[4]", "7%"])).toBe("[4] is not a source of this answer; 7% is stated without a cited page");
    expect(checkSummary([{ sentence: "Filed in 2024 [1].", status: "unsupported", missing: ["2024 (in place of 2025)"] }], sources)).toBe(
      "1 figure not found on the cited pages",
    );
  });
});
