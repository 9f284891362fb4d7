// The lead states the answer (#42): it is a whole sentence or a labelled row with its column heads,
// never a fragment of a chunk cut inside a sentence, table cells without their heads, a calculation,
// a heading glued to its sentence, a dateline or a worked example where the rule stands beside it.
// Each rule on two documents of different kinds (a tax guide or form, a filing, an HR handbook).
import { describe, expect, it } from "vitest";
import { answer, lead, passage } from "../helpers/passages";
import type { Passage } from "../../worker/providers/llm/types";
import { citeAnswer } from "../../worker/answer/citations";
import { leadingHeading, namesWhatFollows, readsWhole, splitSentences } from "../../worker/answer/passages/sentences";
import { ageBracketRows } from "../../worker/answer/passages/age-rows";
import { isTableRow } from "../../worker/answer/passages/table-rows";
import { askedFactKind } from "../../worker/answer/question/fact-kind";

describe("the lead", () => {
  it("is never a fragment of a chunk cut inside a sentence (a tax guide, an HR handbook)", () => {
    const tax = [
      passage(
        213,
        "your employer because your employer continued to pay you while you served jury duty, include the amount you gave your employer as an income adjustment on Schedule 1 (Form 1040), line 24a. Jury duty pay you receive must be included in your income on Schedule 1 (Form 1040), line 8h.",
      ),
    ];
    expect(lead("Where do I report jury duty pay I gave my employer?", tax)).toBe(
      "Jury duty pay you receive must be included in your income on Schedule 1 (Form 1040), line 8h.",
    );
    const handbook = [
      passage(1, "accrue 20 vacation days per year and the days are credited monthly. Questions go to HR."),
      passage(2, "Full-time employees accrue vacation days from their first month of work."),
    ];
    expect(lead("How many vacation days do full-time employees accrue?", handbook)).toBe(
      "Full-time employees accrue vacation days from their first month of work.",
    );
    expect(readsWhole("and the IRS issues you an ITIN as a result of the")).toBe(false);
    expect(readsWhole("31, 2024, or other tax year beginning , 2024, ending , 20 See separate instructions.")).toBe(false);
    expect(readsWhole("Revenue: 2023 $46,298; 2022 $51,761", true)).toBe(true);
    expect(readsWhole("file a return if your gross income was at least... Single under: 65; $14,600", true)).toBe(false);
  });

  it("answers whether something is taxable by what is included in income (a tax guide, a benefits handbook)", () => {
    const guide = [
      passage(1, "Income that’s taxable must be reported on your tax return and is subject to tax."),
      passage(2, "You must include in income all unemployment compensation you receive."),
      passage(3, "Unemployment compensation is paid by your state."),
    ];
    expect(lead("Is my unemployment taxable?", guide)).toBe("You must include in income all unemployment compensation you receive.");
    const handbook = [
      passage(1, "Tuition reimbursement requests must be approved by your manager before the course starts."),
      passage(2, "Tuition reimbursement over $5,250 a year is included in your income and shown on your Form W-2."),
    ];
    expect(lead("Is tuition reimbursement taxable?", handbook)).toBe(
      "Tuition reimbursement over $5,250 a year is included in your income and shown on your Form W-2.",
    );
  });

  it("is never a sentence cut at an abbreviation's stop where its page or chunk ended (a tax form's footer, a filing's address)", () => {
    const form = [
      passage(
        1,
        "Purpose of Form An individual or entity (Form W-9 requester) who is required to file an information return with the IRS is giving you this form because they Cat.",
        "fw9.pdf",
      ),
      passage(2, "To establish to the withholding agent that you are a U.S. person, or resident alien, sign Form W-9.", "fw9.pdf"),
    ];
    expect(lead("Who has to give a requester Form W-9?", form)).toBe(
      "To establish to the withholding agent that you are a U.S. person, or resident alien, sign Form W-9.",
    );
    const filing = [
      passage(3, "Shareholders may write to the Company's investor relations department at P.O.", "10k.pdf"),
      passage(4, "Shareholders may write to investor relations at the Company's headquarters in Richfield, Minnesota.", "10k.pdf"),
    ];
    expect(lead("Where can shareholders write to investor relations?", filing)).toBe(
      "Shareholders may write to investor relations at the Company's headquarters in Richfield, Minnesota.",
    );
    expect(readsWhole("See Pub. 501.")).toBe(true);
    // nor one that opens with the number of a name cut off before it ("Pub." 515, "Note" 12)
    expect(readsWhole("515 for more information on providing a Form W-9 or a certification of non-foreign status.")).toBe(false);
    expect(readsWhole("12 for the terms of the revolving credit facility.")).toBe(false);
    expect(readsWhole("2024 was a record year for the Company.")).toBe(true);
  });

  it("is a table row only with the heads that name its figures (an earnings release, an HR table)", () => {
    const release = [
      passage(12, "Adjusted EBITDA 2,117 2,018 Adjusted EBIT 1,624 1,577 Adjusted net income 1,271 1,282"),
      passage(3, "Adjusted EBITDA for fiscal 2023 was $2,117 million, up 5% on the prior year."),
    ];
    expect(lead("What was adjusted EBITDA for fiscal 2023?", release)).toBe(
      "Adjusted EBITDA for fiscal 2023 was $2,117 million, up 5% on the prior year.",
    );
    const hr = [
      passage(4, "Vacation days granted 20 25 30 Sick days granted 10 10 12"),
      passage(5, "Staff with five years of service are granted 25 vacation days a year."),
    ];
    expect(lead("How many vacation days are granted after five years?", hr)).toBe(
      "Staff with five years of service are granted 25 vacation days a year.",
    );
  });

  it("is the row of a table of age brackets with its bracket, each bracket before its amount or all before them (a tax guide, a form's instructions)", () => {
    // Publication 17 (2024) sets each bracket before its amount, under a decision table's "THEN" head
    const guide =
      "IF your filing status is... AND at the end of 2024 you were...* THEN file a return if your gross income was at least...** " +
      "Single under 65 $14,600 65 or older $16,550 Married filing jointly*** under 65 (both spouses) $29,200 65 or older (one spouse) $30,750 " +
      "65 or older (both spouses) $32,300 Married filing separately any age $5";
    expect(ageBracketRows(guide).rows).toEqual([
      "Single, under 65: file a return if your gross income was at least $14,600",
      "Single, 65 or older: file a return if your gross income was at least $16,550",
      "Married filing jointly, under 65 (both spouses): file a return if your gross income was at least $29,200",
      "Married filing jointly, 65 or older (one spouse): file a return if your gross income was at least $30,750",
      "Married filing jointly, 65 or older (both spouses): file a return if your gross income was at least $32,300",
      "Married filing separately, any age: file a return if your gross income was at least $5",
    ]);
    expect(lead("I'm single and under 65. At what level of gross income am I required to file?", [passage(15, guide, "p17.pdf")])).toBe(
      "Single, under 65: file a return if your gross income was at least $14,600",
    );
    // the 1040 instructions (2017) set a status's brackets first, then their amounts
    const instructions =
      "Single (see the instructions for line 1) under 65 65 or older $10,400 11,950 Married filing jointly*** (see the instructions for line 2) " +
      "under 65 (both spouses) 65 or older (one spouse) 65 or older (both spouses) $20,800 22,050 23,300 Married filing separately " +
      "(see the instructions for line 3) any age $4,050 Head of household (see the instructions for line 4) under 65 65 or older $13,400 14,950 " +
      "Qualifying widow(er) (see the instructions for line 5) under 65 65 or older $16,750 18,000";
    const rows = ageBracketRows(instructions).rows;
    expect(rows).toHaveLength(10);
    expect(rows).toContain("Married filing jointly, 65 or older (one spouse): $22,050");
    expect(rows).toContain("Qualifying widow(er), 65 or older: $18,000");
    expect(
      lead("I file as head of household and I'm under 65. How much gross income before I must file?", [
        passage(8, instructions, "i1040gi.pdf"),
      ]),
    ).toBe("Head of household, under 65: $13,400");
    // ages in running text are no table of brackets
    expect(ageBracketRows("Employees under 65 get 20 days; those 65 or older get 25 days of leave, or $5,000 in lieu.").rows).toEqual([]);
  });

  it("quotes a numbered list's item with the list's lead-in (a tax guide, an HR handbook)", () => {
    const guide = [
      passage(
        294,
        "When the IRS cannot figure your tax. The IRS can’t figure your tax for you if any of the following apply. 1. You want your refund " +
          "directly deposited into your checking or savings account. 2. You want any part of your refund applied to your 2025 estimated tax. " +
          "3. Your taxable income is $100,000 or more. 4. You itemize deductions.",
      ),
      passage(166, "Your benefits aren’t taxable for 2024 because your income isn’t more than your base amount ($25,000) for single."),
    ];
    expect(lead("My taxable income is about $120,000. Can the IRS figure my tax for me?", guide)).toBe(
      "The IRS can’t figure your tax for you if any of the following apply: … 3. Your taxable income is $100,000 or more.",
    );
    const handbook = [
      passage(
        7,
        "Carry-over. You may carry over unused vacation days into the next year if all of these conditions are met: 1. You have worked here " +
          "for at least a year. 2. Your manager approves the carry-over in writing. 3. You carry over no more than 5 days.",
      ),
    ];
    expect(lead("How many unused vacation days can I carry over?", handbook)).toBe(
      "You may carry over unused vacation days into the next year if all of these conditions are met: … 3. You carry over no more than 5 days.",
    );
    // numbers that do not follow on from a lead-in are no list's items
    expect(lead("What is line 4 for?", [passage(1, "Report your wages here. 4. Enter the total of your wages on this line.")])).toBe(
      "4. Enter the total of your wages on this line.",
    );
  });

  it("reads a list run into one sentence item by item, never ending a quote on the next item's number (a tax guide, an HR handbook)", () => {
    const guide =
      "You may have to pay an accuracy-related penalty if you underpay your tax because: 1. You show negligence or disregard of the rules " +
      "or regulations, 2. You substantially understate your income tax, 3. You claim tax benefits for a transaction that lacks economic " +
      "substance, or 4. You fail to disclose a foreign financial asset.";
    expect(splitSentences(guide)).toEqual([
      "You may have to pay an accuracy-related penalty if you underpay your tax because: 1. You show negligence or disregard of the rules or regulations.",
      "2. You substantially understate your income tax.",
      "3. You claim tax benefits for a transaction that lacks economic substance.",
      "4. You fail to disclose a foreign financial asset.",
    ]);
    expect(lead("Do I pay a penalty if I substantially understate my income tax?", [passage(43, guide)])).toBe(
      "You may have to pay an accuracy-related penalty if you underpay your tax because: … 2. You substantially understate your income tax.",
    );
    // a passage cut after the next item's number ends with the item
    const handbook =
      "You may work from home if: 1. Your manager agrees to it in writing; and 2. You keep core hours from 10 a.m. to 3 p.m. on those days; and 3.";
    expect(splitSentences(handbook).at(-1)).toBe("2. You keep core hours from 10 a.m. to 3 p.m. on those days.");
    expect(lead("What hours must I keep when I work from home?", [passage(4, handbook)])).toBe(
      "You may work from home if: … 2. You keep core hours from 10 a.m. to 3 p.m. on those days.",
    );
    // a series of names is no list of items, nor is a publication's number
    expect(splitSentences("If your name is incorrect, correct Copies B, C, and 2. Ask your employer to correct your record.")).toHaveLength(
      2,
    );
    expect(splitSentences("For details, see When To File and Pay in Pub. 54. Individuals serving in a combat zone get more time.")).toEqual(
      ["For details, see When To File and Pay in Pub. 54.", "Individuals serving in a combat zone get more time."],
    );
  });

  it("never quotes a heading set before its paragraph, whose words it gives the sentence under it (a tax guide, an HR handbook)", () => {
    const guide = [
      passage(
        44,
        "Substantial understatement of income tax. You understate your tax if the tax shown on your return is less than the correct tax. " +
          "The understatement is substantial if it is more than the larger of 10% of the correct tax or $5,000.",
      ),
      passage(43, "You may have to pay a penalty if you substantially understate your income tax."),
    ];
    const taxAnswer = answer("When does an understatement of my income tax count as substantial?", guide);
    expect(taxAnswer).not.toContain("Substantial understatement of income tax.");
    expect(taxAnswer).toContain("The understatement is substantial if it is more than the larger of 10% of the correct tax or $5,000.");
    const handbook = [
      passage(
        9,
        "Home office equipment. Staff who work from home receive a laptop and one monitor. Parental leave. " +
          "Parents receive 16 weeks of paid leave after a birth or an adoption.",
      ),
    ];
    const hrAnswer = answer("What home office equipment do I get?", handbook);
    expect(hrAnswer).not.toMatch(/Home office equipment\./);
    expect(lead("What home office equipment do I get?", handbook)).toBe("Staff who work from home receive a laptop and one monitor.");
    // a heading may say what is not so; a sentence has a verb or a pronoun
    expect(namesWhatFollows("Persons not eligible for the standard deduction.", "Your standard deduction is zero.")).toBe(true);
    expect(namesWhatFollows("Employees on leave.", "They keep their benefits.")).toBe(true);
    expect(namesWhatFollows("You can't deduct a loss.", "A gain is taxable.")).toBe(false);
    expect(namesWhatFollows("Benefits not taxable.", "12 of them")).toBe(false);
    // a short sentence with a verb is no heading
    expect(lead("Who do I give the form to?", [passage(3, "Give Form W-4 to your employer. Keep a copy for your records.")])).toBe(
      "Give Form W-4 to your employer.",
    );
  });

  it("quotes no heading the next sentence restates, nor any piece under five words (a tax guide, an HR handbook)", () => {
    const guide = [
      passage(
        37,
        "You can take this deduction only if you paid interest on a loan. Qualified student loan. A qualified student loan is any loan " +
          "you took out to pay the qualified higher education expenses for an eligible student. You must have been legally obligated to pay the interest.",
      ),
    ];
    expect(answer("Can I deduct student loan interest?", guide)).toBe(
      "You can take this deduction only if you paid interest on a loan. [1]",
    );
    // "Qualified" reads like a verb; the sentence opening on the heading's words shows it names a thing
    expect(namesWhatFollows("Qualified student loan.", "A qualified student loan is any loan you took out.")).toBe(true);
    expect(namesWhatFollows("Relocated employee.", "A relocated employee is one who moves.")).toBe(true);
    expect(namesWhatFollows("A welfare fund.", "A state sickness or disability fund.")).toBe(false);
    const handbook = [
      passage(
        4,
        "Vacation accrues monthly. Unused vacation days. Up to five days carry over into the next year. Managers approve requests.",
        "Handbook.pdf",
      ),
    ];
    expect(answer("What happens to unused vacation days?", handbook)).toBe("Up to five days carry over into the next year. [1]");
  });

  it("never leads with a passage's last sentence cut after an abbreviation (a tax guide, a filing)", () => {
    const guide = [
      passage(
        251,
        "You are considered a dual-status alien if you were both a nonresident and resident alien during the year. " +
          "If you are a nonresident alien who is married to a U.S.",
      ),
    ];
    expect(lead("What is a nonresident alien married to a U.S. citizen?", guide)).toBe(
      "You are considered a dual-status alien if you were both a nonresident and resident alien during the year.",
    );
    const filing = [
      passage(
        33,
        "The lawsuit seeks damages for alleged delays in generic entry. In February 2020, a putative class action lawsuit was filed in the U.S.",
        "Pfizer_10Q.pdf",
      ),
    ];
    expect(lead("When was the class action lawsuit filed?", filing)).toBe("The lawsuit seeks damages for alleged delays in generic entry.");
  });

  it("comes from the file retrieval ranks first over a file it ranks last (a tax guide, an HR handbook)", () => {
    const taxFiles = [
      passage(
        3,
        "For 2024, the standard deduction for a single filer is $14,600, and $29,200 for a married couple filing jointly.",
        "p17.pdf",
      ),
      passage(4, "You can itemize deductions instead of taking the standard deduction.", "p17.pdf"),
      passage(5, "Married taxpayers who file separately must both itemize or both take the standard deduction.", "p17.pdf"),
      passage(6, "The standard deduction is higher for a filer who is 65 or older or blind.", "p17.pdf"),
      passage(1, "The standard deduction for a single filer: $6,350.", "notes-2017.pdf"),
    ];
    expect(lead("What is the standard deduction for a single filer?", taxFiles)).toBe(
      "For 2024, the standard deduction for a single filer is $14,600, and $29,200 for a married couple filing jointly.",
    );
    const hrFiles = [
      passage(12, "Employees receive 16 weeks of paid parental leave after the birth or adoption of a child.", "handbook.pdf"),
      passage(13, "Leave must be taken within the first year.", "handbook.pdf"),
      passage(4, "Parental leave weeks: 12 weeks.", "old-faq.pdf"),
    ];
    expect(lead("How many weeks of parental leave do I get?", hrFiles)).toBe(
      "Employees receive 16 weeks of paid parental leave after the birth or adoption of a child.",
    );
    // within one file, rank only breaks ties
    const oneFile = hrFiles.map((p) => ({ ...p, documentId: "handbook.pdf", fileName: "handbook.pdf" }));
    expect(lead("How many weeks of parental leave do I get?", oneFile)).toBe("Parental leave weeks: 12 weeks.");
  });

  it("puts the rule before a worked example told of a couple by name, and quotes it without its question heading (a tax guide, an HR handbook)", () => {
    const guide = [
      passage(
        262,
        "They will enter this amount on Schedule A. Reese and Quin Brown bought a new home on May 3, 2024. Their real property tax year is " +
          "the calendar year. The taxes became due on May 31, 2024, and October 31, 2024.",
      ),
      passage(
        23,
        "When Do I Have To File? April 15, 2025, is the due date for filing your 2024 income tax return if you use the calendar year.",
      ),
    ];
    expect(lead("When is my 2024 tax return due?", guide)).toBe(
      "April 15, 2025, is the due date for filing your 2024 income tax return if you use the calendar year.",
    );
    const handbook = [
      passage(
        8,
        "Jordan and Casey Lee had a baby on March 3, 2024. Their leave began the same week. The leave had to end on March 3, 2025.",
      ),
      passage(7, "How Long Is Parental Leave? Parental leave must end within 12 months of the birth or adoption."),
    ];
    expect(lead("When does my parental leave have to end?", handbook)).toBe(
      "Parental leave must end within 12 months of the birth or adoption.",
    );
  });

  it("is about what is asked, not a figure that happens to be the asker's age (a tax guide, an HR handbook)", () => {
    const cases: [question: string, texts: string[], expected: string][] = [
      [
        "I'm 67 and single. What's my standard deduction?",
        [
          "The 2024 standard mileage rate for business use of a vehicle is 67 cents a mile.",
          "The amounts are: Single or Married filing separately—$14,600; Married filing jointly—$29,200; Head of household—$21,900.",
        ],
        "The amounts are: Single or Married filing separately—$14,600.",
      ],
      [
        "I'm 30 and full-time. How many vacation days do I get?",
        ["Full-time employees may work remotely for up to 30 days a year.", "Full-time employees accrue 20 vacation days per year."],
        "Full-time employees accrue 20 vacation days per year.",
      ],
    ];
    for (const [question, texts, expected] of cases)
      expect(
        lead(
          question,
          texts.map((text, i) => passage(i + 1, text)),
        ),
      ).toBe(expected);
  });

  it("is never a table's date cells read across as a sentence (a tax guide's installment table, an HR pay calendar)", () => {
    const guide =
      "If you first have income on which you must pay estimated tax: Make installments by:* Make later installments by:* Before April 1 April 15 June 15 Sept.";
    const payroll = "Pay dates for 2025: January 15 February 14 March 14 April 15.";
    expect(isTableRow(guide)).toBe(true);
    expect(isTableRow(payroll)).toBe(true);
    // running text sets dates apart with commas and words
    expect(isTableRow("You must pay estimated tax by April 15, June 17, September 16, and January 15.")).toBe(false);
    expect(
      lead("When are estimated tax payments due?", [
        passage(100, `${guide} You must pay estimated tax by April 15, June 17, September 16, and January 15.`),
      ]),
    ).toBe("You must pay estimated tax by April 15, June 17, September 16, and January 15.");
    expect(lead("When are salaries paid?", [passage(2, `${payroll} Salaries are paid on the 15th of each month.`)])).toBe(
      "Salaries are paid on the 15th of each month.",
    );
  });

  it("is no calculation of figures and signs (a tax guide's worked sum, a payroll note)", () => {
    const tax = [
      passage(152, "They can exclude $1,516.15 ($3,052 × ($4,000 ÷ $8,052)) of interest in 2024."),
      passage(160, "You can exclude interest on qualified savings bonds in 2024 up to your qualified higher education expenses."),
    ];
    expect(lead("How much interest can I exclude in 2024?", tax)).toBe(
      "You can exclude interest on qualified savings bonds in 2024 up to your qualified higher education expenses.",
    );
    const payroll = [
      passage(2, "Overtime pay is $412.50 ($27.50 × 1.5 × 10)."),
      passage(3, "Overtime pay for any week is one and a half times the hourly rate of the employee for each hour over forty."),
    ];
    expect(lead("What is overtime pay?", payroll)).toBe(
      "Overtime pay for any week is one and a half times the hourly rate of the employee for each hour over forty.",
    );
  });

  it("shows no heading glued to its sentence: a numbered part's title is left out (a tax form, an HR handbook)", () => {
    expect(leadingHeading("Section 3: Leave Policy Full-time employees accrue 20 vacation days per year.")).toEqual({
      heading: "Section 3: Leave Policy",
      sentence: "Full-time employees accrue 20 vacation days per year.",
    });
    expect(
      leadingHeading("Step 3: Claim Dependent and Other Credits If your total income will be $200,000 or less, multiply the number.")
        ?.heading,
    ).toBe("Step 3: Claim Dependent and Other Credits");
    const handbook = [
      passage(1, "Section 3: Leave Policy Full-time employees accrue 20 vacation days per year.", "Employee Handbook 2025.pdf"),
    ];
    expect(lead("How many vacation days do full-time employees get?", handbook)).toBe(
      "Full-time employees accrue 20 vacation days per year.",
    );
    const form = [
      passage(
        1,
        "Step 3: Claim Dependent and Other Credits If your total income will be $200,000 or less ($400,000 or less if married filing jointly), multiply the number of qualifying children under age 17 by $2,000.",
        "fw4.pdf",
      ),
    ];
    expect(lead("How much do I enter per child under 17 in step 3?", form)).toMatch(/^If your total income will be \$200,000 or less/);
    // a heading before a sentence opening with a name ("The CTC", "The HR team")
    expect(leadingHeading("Introduction The CTC is a credit that may reduce your tax by as much as $2,000 for each child.")).toEqual({
      heading: "Introduction",
      sentence: "The CTC is a credit that may reduce your tax by as much as $2,000 for each child.",
    });
    expect(leadingHeading("Relocation The HR team pays up to $5,000 of moving costs.")?.heading).toBe("Relocation");
    expect(leadingHeading("The IRS Free File program is open to all.")).toBeNull();
  });

  it("leaves out a note's title numbered alone ('13. Contingencies and Commitments'), not a numbered item (a 10-K, an HR handbook)", () => {
    const filing = [
      passage(
        62,
        "13. Contingencies and Commitments We are involved in a number of legal proceedings. Where appropriate, we have made accruals with respect to these matters.",
        "BESTBUY_2023_10K.pdf",
      ),
    ];
    expect(lead("Is the company involved in any legal proceedings?", filing)).toBe("We are involved in a number of legal proceedings.");
    expect(leadingHeading("4. Parental Leave Employees may take up to 16 weeks of paid parental leave.")).toEqual({
      heading: "4. Parental Leave",
      sentence: "Employees may take up to 16 weeks of paid parental leave.",
    });
    // a list's numbered item is a sentence, not a title
    expect(leadingHeading("2. You are claiming the interest exclusion under the Education Savings Bond Program.")).toBeNull();
  });

  it("starts without a filing's running page head, 'Table of Contents' (a 10-K, a 10-Q)", () => {
    const annual = [
      passage(
        75,
        "Table of Contents In September 2016, 3M acquired all of the outstanding shares of Semfinder, headquartered in Kreuzlingen, Switzerland.",
      ),
    ];
    expect(lead("Where is Semfinder headquartered?", annual)).toBe(
      "In September 2016, 3M acquired all of the outstanding shares of Semfinder, headquartered in Kreuzlingen, Switzerland.",
    );
    const quarterly = [
      passage(12, "Table of Contents We repurchased 1.1 million shares of our common stock at a cost of $76 million in the quarter."),
    ];
    expect(lead("How many shares were repurchased in the quarter?", quarterly)).toBe(
      "We repurchased 1.1 million shares of our common stock at a cost of $76 million in the quarter.",
    );
  });

  it("starts at the sentence, without a release's dateline or a sentence's parentheses (a filing, a tax guide)", () => {
    const releases = [
      passage(
        1,
        "(August 30, 2023) – Johnson & Johnson today announced updated 2023 guidance reflecting the exit of its Consumer Health business.",
        "JNJ_8K.pdf",
      ),
    ];
    expect(lead("What did Johnson & Johnson announce about its Consumer Health business?", releases)).toBe(
      "Johnson & Johnson today announced updated 2023 guidance reflecting the exit of its Consumer Health business.",
    );
    expect(splitSentences("You paid $200 of points. (The buyers add the $215 to their cost of the home.) The rest is deductible.")).toEqual(
      ["You paid $200 of points.", "(The buyers add the $215 to their cost of the home.)", "The rest is deductible."],
    );
    const guide = [passage(31, "Points are paid by the seller. (The buyers add the $215 to their cost of the home.)")];
    expect(lead("What do the buyers add to their cost of the home?", guide)).toBe("The buyers add the $215 to their cost of the home.");
  });

  it("ends a list item as a sentence (an earnings release's bullets, an HR policy's list)", () => {
    const release = [
      passage(
        4,
        "MGM China • Net revenues of $674 million in the current year compared to $1.2 billion in the prior year, a decrease of 44%;",
        "MGM_release.pdf",
      ),
    ];
    expect(lead("How much did MGM China's net revenues decrease?", release)).toBe(
      "MGM China • Net revenues of $674 million in the current year compared to $1.2 billion in the prior year, a decrease of 44%.",
    );
    const policy = [passage(2, "Leave is granted as follows: part-time staff receive 10 vacation days a year; and", "policy.pdf")];
    expect(lead("How many vacation days do part-time staff receive?", policy)).toMatch(/10 vacation days a year\.$/);
  });

  it("states the rule before the worked example that illustrates it (a tax guide, an HR handbook)", () => {
    const guide = [
      passage(28, "Example. Jury duty pay of $300 must be included in income."),
      passage(29, "In general, you must include all jury duty pay in your gross income for the year, on Schedule 1 (Form 1040), line 8h."),
    ];
    expect(lead("Must jury duty pay be included in income?", guide)).toMatch(/^In general, you must include all jury duty pay/);
    const handbook = [
      passage(7, "For example, Maria must give two weeks' notice before a vacation."),
      passage(8, "As a rule, all employees must give two weeks' notice to their manager before any vacation of three days or more."),
    ];
    expect(lead("How much notice must employees give before a vacation?", handbook)).toMatch(/^As a rule, all employees must give/);
  });

  it("states the rule before a sentence that works one case's figures out (a tax guide, an HR handbook)", () => {
    const guide = [
      passage(252, "The amounts are: Single or Married filing separately—$14,600."),
      passage(
        253,
        "of $600 and $1,300) on line 5. Your standard deduction, on line 7a, is $1,300 (the smaller of $1,300 and $14,600). Example 2. You are a student.",
      ),
    ];
    expect(lead("What is the standard deduction for a single person?", guide)).toBe(
      "The amounts are: Single or Married filing separately—$14,600.",
    );
    const handbook = [
      passage(4, "Your overtime pay for a week of 45 hours is $150 (5 × $30), paid with your salary.", "handbook.pdf"),
      passage(3, "Overtime pay is one and a half times your hourly pay for each hour over forty in a week.", "handbook.pdf"),
    ];
    expect(lead("How is overtime pay worked out for a week?", handbook)).toMatch(/^Overtime pay is one and a half times/);
  });

  it("reads a filing's signature as who signed (a 10-K, a 10-Q)", () => {
    const tenK = [
      passage(120, "This report fairly presents the results of the Company. /s/ Michael F. Roman Chief Executive Officer February 7, 2019"),
    ];
    expect(lead("Who is the chief executive officer?", tenK)).toBe("Signed by Michael F. Roman Chief Executive Officer February 7, 2019.");
    const tenQ = [
      passage(29, "Pursuant to the requirements of the Exchange Act, the report is signed. /s/ Corie S. Barry Chief Executive Officer"),
    ];
    expect(lead("Who signed the report as chief executive officer?", tenQ)).toBe("Signed by Corie S. Barry Chief Executive Officer.");
  });

  it("lists each page once: a page quoted is one source, and not under See also", () => {
    const passages = [
      passage(1, "The standard deduction for a single filer is $14,600 for 2024.", "p17.pdf", 0),
      passage(1, "The standard deduction is higher for a single filer who is blind.", "p17.pdf", 900),
      passage(2, "A single filer with dependents may file as head of household.", "p17.pdf"),
      passage(3, "The standard deduction for a single filer is adjusted for inflation every year.", "p17.pdf"),
      passage(3, "A single filer who is 65 or older adds $1,950 to the standard deduction.", "p17.pdf", 900),
    ];
    const { text, sources } = citeAnswer(answer("Which standard deduction applies to a single filer?", passages), passages);
    // two passages of one page quoted share its number: one source per page
    expect(sources.map((s) => s.page)).toEqual([...new Set(sources.map((s) => s.page))]);
    const [quoted, seeAlso = ""] = text.split("See also:");
    const quotedNumbers = new Set([...quoted!.matchAll(/\[(\d)\]/g)].map((m) => m[1]));
    for (const [, n] of seeAlso.matchAll(/\[(\d)\]/g)) expect(quotedNumbers.has(n)).toBe(false);
  });

  it("over several files, lists another file's best page under See also wherever it ranks (a tax guide and a form, a 10-K and an HR handbook)", () => {
    const guide = (page: number, text: string) => passage(page, text, "p17.pdf");
    const seeAlsoPages = (question: string, passages: Passage[]) => {
      const { text, sources } = citeAnswer(answer(question, passages), passages);
      const numbers = [...(text.split("See also:")[1] ?? "").matchAll(/\[(\d)\]/g)].map((m) => Number(m[1]));
      return numbers.map((n) => `${sources[n - 1]!.fileName} p${sources[n - 1]!.page}`);
    };
    const tax = [
      guide(40, "Backup withholding applies to interest at a rate of 24% when you don't give your TIN to the payer."),
      guide(41, "Backup withholding also applies to dividends when the payer was told your TIN is incorrect."),
      guide(42, "Report backup withholding shown on Form 1099 as federal income tax withheld."),
      guide(43, "The payer must stop backup withholding once you give your correct TIN."),
      guide(44, "Backup withholding can apply to payment card and third party network transactions."),
      guide(45, "Backup withholding on gambling winnings is covered in chapter 8."),
      passage(2, "Payers must withhold 24% of certain payments as backup withholding if you do not give them your TIN.", "fw9.pdf"),
      passage(3, "Sign and date the form before you give it to the requester.", "fw9.pdf"),
    ];
    // the form's page ranks seventh, below the guide's pages: listed, as the only page of its file
    expect(seeAlsoPages("At what rate is backup withholding taken if I don't give my TIN?", tax)).toContain("fw9.pdf p2");
    const filing = (page: number, text: string) => passage(page, text, "10K.pdf");
    const hr = [
      filing(12, "Employees may carry over up to five unused vacation days into the next year."),
      filing(13, "Unused vacation days are paid out when employment ends."),
      filing(14, "Vacation days are requested through the HR portal."),
      filing(15, "Vacation days accrue from the first day of employment."),
      filing(16, "Part-time employees accrue vacation days in proportion to their hours."),
      filing(17, "The Company had 9,500 employees at year end."),
      passage(
        4,
        "Vacation days that employees carry over are shown on the pay slip for January, together with the days taken in the year before and the balance left.",
        "handbook.pdf",
      ),
      passage(9, "The office is closed on public holidays.", "handbook.pdf"),
    ];
    const listed = seeAlsoPages("How many vacation days can employees carry over?", hr);
    expect(listed).toContain("handbook.pdf p4");
    expect(listed).not.toContain("handbook.pdf p9");
    // one file: See also stays within the best-ranked pages
    const oneFile = tax.slice(0, 6).concat(guide(46, "Backup withholding at 24% is credited against your tax."));
    expect(seeAlsoPages("At what rate is backup withholding taken if I don't give my TIN?", oneFile)).not.toContain("p17.pdf p46");
  });

  it("answers what to write on a form with the words to write, quoted (a form's instructions, an HR handbook)", () => {
    expect(askedFactKind("I haven't got my EIN yet. What do I put in the TIN box?")).toBe("entry");
    expect(askedFactKind("What exactly should I write in the signature space?")).toBe("entry");
    expect(askedFactKind("What code am I supposed to enter at the top of the statement?")).toBe("entry");
    expect(askedFactKind("What goes in box 2?")).toBe("entry");
    expect(askedFactKind("My address changed. How do I show that on the form?")).toBe("entry");
    // where something goes, or how much, is no entry asked
    expect(askedFactKind("Where do I enter my wages?")).toBe("reference");
    expect(askedFactKind("What do I pay if I file late?")).not.toBe("entry");
    const w9 = [
      passage(
        3,
        "Enter your TIN in the appropriate box. The TIN provided must match the name given on line 1 to avoid backup withholding.",
      ),
      passage(
        4,
        "How to get a TIN. If you do not have a TIN, apply for one immediately. If you are asked to complete Form W-9 but do not have a TIN, apply for a TIN and write “Applied For” in the space for the TIN, sign and date the form, and give it to the requester.",
      ),
    ];
    expect(lead("I've applied for an EIN but haven't received it yet. What do I put in the TIN box?", w9)).toMatch(/“Applied For”/);
    const handbook = [
      passage(6, "A public holiday you did not work is shown on your timesheet and paid at your normal rate.", "handbook.pdf"),
      passage(7, "Holiday codes. For a public holiday, write “PH” in the hours column.", "handbook.pdf"),
    ];
    expect(lead("What do I write on my timesheet for a public holiday I did not work?", handbook)).toMatch(/“PH”/);
  });

  it("answers where to reach someone with a phone number or an address (a tax guide, an HR handbook)", () => {
    expect(askedFactKind("I lost my railroad retirement 1099. What number do I call to get a replacement?")).toBe("phone");
    expect(askedFactKind("What's the phone number for the benefits team?")).toBe("phone");
    expect(askedFactKind("What address do I send my check to?")).toBe("address");
    expect(askedFactKind("What is the address of the principal executive offices?")).toBe("address");
    expect(askedFactKind("Where should I mail my return?")).toBe("address");
    // a number asked that is no phone number
    expect(askedFactKind("What number goes at the top of the statement?")).not.toBe("phone");
    const guide = [
      passage(28, "A lost Form RRB-1099 can be replaced by the Railroad Retirement Board, which mails a replacement form on request."),
      passage(29, "If you need a replacement Form RRB-1099, call the Railroad Retirement Board at 1-877-772-5772 or go to www.rrb.gov."),
    ];
    expect(lead("I lost my Form RRB-1099. What number do I call to get a replacement?", guide)).toMatch(/1-877-772-5772/);
    const handbook = [
      passage(3, "Every workplace injury must be reported the day it happens, and the injury report kept on file."),
      passage(4, "To report a workplace injury after hours, call the safety line at 800-555-0199."),
    ];
    expect(lead("What number do I call to report a workplace injury?", handbook)).toMatch(/800-555-0199/);
    const gift = [
      passage(35, "You can send a gift to reduce the debt held by the public with a check made out to the Bureau of the Fiscal Service."),
      passage(36, "Send your check to: Bureau of the Fiscal Service ATTN: Department G P.O. Box 2188 Parkersburg, WV 26106-2188."),
    ];
    expect(lead("I'd like to send a check to reduce the public debt. What address do I send it to?", gift)).toMatch(/P\.O\. Box 2188/);
    const expenses = [
      passage(9, "Expense receipts must be mailed within 30 days of the expense, with the expense report signed."),
      passage(10, "Mail expense receipts to the Finance Office, 200 Main Street, Springfield, IL 62701."),
    ];
    expect(lead("Where do I mail my expense receipts?", expenses)).toMatch(/IL 62701/);
  });

  it("reads an abbreviation before its number or name as no sentence end (a tax guide's citations, a mailing address)", () => {
    expect(
      splitSentences(
        "However, if you were the beneficiary of a Canadian registered retirement plan, see Rev. Proc. 2014-55, 2014-44 I.R.B. 753, available at IRS.gov. Report it on line 16.",
      ),
    ).toEqual([
      "However, if you were the beneficiary of a Canadian registered retirement plan, see Rev. Proc. 2014-55, 2014-44 I.R.B. 753, available at IRS.gov.",
      "Report it on line 16.",
    ]);
    expect(
      splitSentences("Send it to Department G P.O. Box 2188 Parkersburg, WV 26106-2188. Don't send cash payments through the mail."),
    ).toEqual(["Send it to Department G P.O. Box 2188 Parkersburg, WV 26106-2188.", "Don't send cash payments through the mail."]);
    expect(
      splitSentences("Mail claims to the Benefits Office, P.O. Box 77 Springfield, IL 62701. Call us with any question about your order."),
    ).toEqual(["Mail claims to the Benefits Office, P.O. Box 77 Springfield, IL 62701.", "Call us with any question about your order."]);
  });

  it("quotes a second sentence of the lead's page when it scores nearly as well (a tax guide, an HR handbook)", () => {
    const guide = [
      passage(
        66,
        "Revocation of release of claim to an exemption. The custodial parent can revoke a release of claim to an exemption. For the revocation to be effective for 2024, the custodial parent must have given (or made reasonable efforts to give) written notice of the revocation to the noncustodial parent in 2023 or earlier.",
      ),
      passage(71, "A noncustodial parent who claims the child must attach the release signed by the custodial parent."),
    ];
    const tax = answer(
      "I'm the custodial parent and want to take back the release that lets my ex claim our son. For the revocation to count for 2024, by when did I have to give my ex written notice?",
      guide,
    );
    expect(tax).toMatch(/^The custodial parent can revoke a release of claim to an exemption\. \[1\]/);
    expect(tax).toContain("\n- For the revocation to be effective for 2024, the custodial parent must have given");
    const handbook = [
      passage(
        4,
        "New employees can enrol in the health benefits plan. To be covered from their first day, new employees must have enrolled in the health benefits plan before their first pay date or earlier. Dental cover is separate.",
      ),
      passage(5, "The health benefits plan covers employees and their families."),
    ];
    const benefits = answer("I'm a new employee. By when do I have to enrol in the health benefits plan?", handbook);
    expect(benefits).toMatch(/^New employees can enrol in the health benefits plan\. \[1\]/);
    expect(benefits).toContain(
      "\n- To be covered from their first day, new employees must have enrolled in the health benefits plan before",
    );
    // a sentence of the page that scores far less is not quoted
    expect(benefits).not.toContain("Dental");
  });
  it("reads an age table's amounts with the head that ends the sentence before it, and asks an income level as an amount (the 1040 instructions, an HR policy)", () => {
    expect(askedFactKind("For 2017, what gross income level required a single person under 65 to file?")).toBe("money");
    expect(askedFactKind("Which salary level makes a manager exempt from overtime?")).toBe("money");
    expect(askedFactKind("What level of education is required for the role?")).not.toBe("money");
    const instructions =
      "IF your filing status is... AND at the end of 2017 you were...* THEN file a return if your gross income** was at least . . . " +
      "Single (see the instructions for line 1) under 65 65 or older $10,400 11,950 Head of household (see the instructions for line 4) " +
      "under 65 65 or older $13,400 14,950";
    expect(
      lead("For 2017, what gross income level required a single person under 65 to file?", [passage(8, instructions, "i1040gi.pdf")]),
    ).toBe("Single, under 65: file a return if your gross income was at least $10,400");
    const policy =
      "Wellness stipends are paid each January. IF you work... AND you are... THEN the yearly wellness stipend is at least . . . " +
      "Full-time staff under 50 50 or older $1,000 1,500 Part-time staff under 50 50 or older $500 750";
    expect(lead("What stipend level do part-time staff under 50 get?", [passage(3, policy, "handbook.pdf")])).toBe(
      "Part-time staff, under 50: the yearly wellness stipend is at least $500",
    );
  });

  it("quotes the sentence a lead points back to ('This exclusion', 'These include') with it (a tax guide, an HR handbook)", () => {
    const guide = [
      passage(
        151,
        "Education Savings Bond Program. You may be able to exclude from income all or part of the interest you receive on the redemption of qualified U.S. savings bonds during the year. This exclusion is known as the Education Savings Bond Program.",
      ),
    ];
    expect(lead("What is the education savings bond exclusion called?", guide)).toBe(
      "You may be able to exclude from income all or part of the interest you receive on the redemption of qualified U.S. savings bonds during the year. This exclusion is known as the Education Savings Bond Program.",
    );
    const handbook = [
      passage(
        4,
        "Benefits. The company pays for some costs of working from home. These include a monthly internet allowance of $40 and a one-time desk allowance of $300.",
      ),
    ];
    expect(lead("What does the monthly internet allowance include?", handbook)).toBe(
      "The company pays for some costs of working from home. These include a monthly internet allowance of $40 and a one-time desk allowance of $300.",
    );
    // "This publication" points at the document, not back
    const overview = [passage(2, "Thanks for reading. This publication covers the general rules for filing a federal income tax return.")];
    expect(lead("What does this publication cover?", overview)).toBe(
      "This publication covers the general rules for filing a federal income tax return.",
    );
  });

  it("answers 'What is X?' with the sentence that says what X is, not one that uses the term (a tax guide, an HR handbook)", () => {
    const guide = [
      passage(140, "You reported qualified dividends on Form 1040, line 3a. Enter them on the worksheet."),
      passage(
        141,
        "Qualified dividends are eligible for a lower tax rate than other ordinary income. They are shown in box 1b of Form 1099-DIV.",
      ),
    ];
    expect(lead("What are qualified dividends?", guide)).toBe(
      "Qualified dividends are eligible for a lower tax rate than other ordinary income.",
    );
    const handbook = [
      passage(3, "Ask your manager before you book any flexible time off for the holidays."),
      passage(
        9,
        "Flexible time off (FTO) is paid leave that employees schedule themselves, up to 15 days a year. The flexible time off policy is treated as part of your pay.",
      ),
    ];
    expect(lead("What is flexible time off?", handbook)).toBe(
      "Flexible time off (FTO) is paid leave that employees schedule themselves, up to 15 days a year.",
    );
    // what is done with the term ("is treated as") says not what it is
    expect(askedFactKind("What is flexible time off?")).toBe("definition");
    expect(askedFactKind("What is the standard deduction for a single filer?")).toBe("money");
  });

  it("reads a question heading run into the sentence that answers it ('What Is a Roth IRA? A Roth IRA is...') as a definition (a tax guide, an HR handbook)", () => {
    const guide = [
      passage(
        242,
        "A deemed IRA can be a Roth IRA. What Is a Roth IRA? A Roth IRA is an individual retirement plan that, except as explained in this chapter, is subject to the rules that apply to a traditional IRA.",
      ),
    ];
    expect(lead("What is a Roth IRA?", guide)).toBe(
      "A Roth IRA is an individual retirement plan that, except as explained in this chapter, is subject to the rules that apply to a traditional IRA.",
    );
    const handbook = [
      passage(
        6,
        "A sick day can be a remote work day. Leave not recorded. You don't log remote work hours separately. " +
          "What Is Remote Work? Remote work means doing your job from home or another approved place for a whole working day.",
        "Handbook.pdf",
      ),
    ];
    expect(lead("What is remote work?", handbook)).toBe(
      "Remote work means doing your job from home or another approved place for a whole working day.",
    );
  });
});
