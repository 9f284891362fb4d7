// Proves "What is X?" answered with the sentence that says what X is: the question is read as asking
// a meaning in the words people use ("What does Best Buy mean by...", "Define...", "...for tax
// purposes"); the defining sentence is found behind a heading run into it or named in brackets
// after what it is; a chunk holding it goes first among the candidates; and sentences that only use
// the term are not taken for its definition. On a tax guide, a tax form, a company's filings and an
// HR handbook (generated text).
import { describe, expect, it } from "vitest";
import { answer, lead, passage } from "../helpers/passages";
import { askedFactKind } from "../../worker/answer/question/fact-kind";
import { termAsked } from "../../worker/answer/question/definition";
import { askedPart, queryTerms } from "../../worker/answer/question/terms";
import { definingSentence } from "../../worker/answer/passages/defining-sentence";
import { bySentence } from "../../worker/answer/ranking/retrieval";

const defines = (question: string, sentence: string) => definingSentence(termAsked(askedPart(question))!).test(sentence);

describe("a meaning asked", () => {
  it("is read in the words people ask it with (a tax guide, a filing, a handbook)", () => {
    for (const question of [
      "What does Best Buy mean by comparable sales?",
      "What is meant by an eligible educator?",
      "How does 3M define free cash flow?",
      "Define fair market value.",
      "What does bartering mean for tax purposes?",
      "What's a hobby in the eyes of the IRS?",
      "What is gift card breakage at Best Buy?",
      "What does PTO mean in the handbook?",
    ])
      expect(askedFactKind(question), question).toBe("definition");
    // an amount or a rule asked stays one
    expect(askedFactKind("What is the standard deduction for a single filer?")).toBe("money");
    expect(askedFactKind("Can I deduct my hobby expenses?")).toBe("rule");
  });

  it("finds the sentence behind a heading run into it, numbered or quoted (a tax guide, an earnings release, a handbook)", () => {
    expect(defines("What does bartering mean?", "Bartering Bartering is an exchange of property or services.")).toBe(true);
    expect(defines("What is a recovery?", "Recoveries A recovery is a return of an amount you deducted in an earlier year.")).toBe(true);
    expect(
      defines("What is Adjusted EBITDAR?", '2."Adjusted EBITDAR" is earnings before interest, taxes, depreciation and amortization.'),
    ).toBe(true);
    expect(defines("What is overtime?", "Overtime Pay Overtime is work beyond 40 hours in a week, paid at one and a half times.")).toBe(
      true,
    );
    // a sentence opening with a clause uses the term; it does not say what it is
    expect(defines("What is a dependent?", "If your dependent is a nonresident alien, your dependent must apply for an ITIN.")).toBe(false);
    expect(defines("What is overtime?", "When overtime is approved, your manager records it.")).toBe(false);
    // "defined as", "computed as" say what it is (a 10-K's notes, a tax guide), as "the term ... means" does
    expect(
      defines(
        "What are unconditional purchase obligations?",
        "Unconditional purchase obligations are defined as agreements to purchase goods or services that are enforceable.",
      ),
    ).toBe(true);
    expect(
      defines("What is comprehensive income?", "Comprehensive income (loss) is computed as net earnings plus certain other items."),
    ).toBe(true);
    expect(
      defines(
        "What is a parent?",
        "For purposes of these tiebreaker rules, the term “parent” means a biological or adoptive parent of an individual.",
      ),
    ).toBe(true);
    // what is done with it, not what it is: a participle before a preposition or an adverb
    expect(defines("What is estimated tax?", "Estimated tax is paid in four equal installments.")).toBe(false);
    expect(defines("What is overtime?", "Overtime is paid monthly at one and a half times.")).toBe(false);
    expect(defines("What is flexible time off?", "Flexible time off is paid leave that employees schedule themselves.")).toBe(true);
    // a term in its singular or plural, not a longer word ("EBITDAR" for "EBITDA")
    expect(defines("What are disregarded entities?", "A disregarded entity is a business with a single owner.")).toBe(true);
    expect(defines("What is adjusted EBITDA?", '"Adjusted EBITDAR" is earnings before interest and taxes.')).toBe(false);
  });

  it("finds the term named in brackets after what it is, not the words an abbreviation stands for (a tax form, a 10-K)", () => {
    expect(
      defines(
        "What is a disregarded entity?",
        "In general, a business entity that has a single owner and is not a corporation is disregarded as an entity separate from its owner (a disregarded entity).",
      ),
    ).toBe(true);
    expect(
      defines(
        "What is gift card breakage?",
        "We also recognize revenue for the portion of gift card values that is not expected to be redeemed (“breakage”).",
      ),
    ).toBe(true);
    expect(
      defines("What does adjusted gross income mean?", "Married filing separately less than $10,000 Modified AGI (adjusted gross income)."),
    ).toBe(false);
    expect(defines("What is an HSA?", "Report contributions on Form 8889 (HSAs).")).toBe(false);
  });

  it("finds what an abbreviation stands for, spelled out before it in brackets (a tax form, a 10-K)", () => {
    expect(
      defines(
        "What does FATCA mean?",
        "The Foreign Account Tax Compliance Act (FATCA) requires a participating foreign financial institution to report all U.S. account holders.",
      ),
    ).toBe(true);
    expect(defines("What is SOFR?", "Borrowings bear interest at the Secured Overnight Financing Rate (SOFR) plus a margin.")).toBe(true);
    // words whose initials spell another abbreviation, or none
    expect(defines("What does ODC stand for?", "You may claim the credit for other dependents (ODC) for each dependent.")).toBe(false);
    expect(defines("What is SOFR?", "Interest on the notes is based on SOFR plus a margin.")).toBe(false);
  });

  it("finds no subject in the words asking a meaning (a tax guide, a 10-Q, a handbook)", () => {
    expect(askedFactKind("What does ESG stand for?")).toBe("definition");
    expect(queryTerms("What does ESG stand for?")).toEqual(["esg"]);
    expect(queryTerms("What does EIC stand for?")).toEqual(["eic"]);
    // "mean" is searched (documents write "X means") but a sentence holding only it answers nothing
    const guide = [passage(298, "ATIN means adoption taxpayer identification number. CTC means child tax credit.", "p17.pdf")];
    expect(answer("What does MAGI mean?", guide)).not.toContain("means");
    const handbook = [passage(5, "Overtime means hours worked beyond 40 in a week.", "Handbook.pdf")];
    expect(answer("What does PTO mean?", handbook)).not.toContain("Overtime");
    expect(lead("What does overtime mean?", handbook)).toBe("Overtime means hours worked beyond 40 in a week.");
  });
});

describe("a definition among the candidates", () => {
  const hit = (id: string, text: string) => ({ id, text, file_name: "doc.pdf" });

  it("goes first, ahead of chunks that use the term more (a tax guide, a handbook)", () => {
    const guide = [
      hit(
        "a",
        "A deemed IRA can be a Roth IRA. You can convert a traditional IRA to a Roth IRA. Roth IRA contributions aren't deductible.",
      ),
      hit("b", "Roth IRA distributions may be tax free. A Roth IRA can be opened at any time."),
      hit(
        "c",
        "Contributions not reported. What Is a Roth IRA? A Roth IRA is an individual retirement plan that is subject to the rules that apply to a traditional IRA.",
      ),
    ];
    expect(bySentence("What is a Roth IRA?", guide)[0]!.id).toBe("c");
    const handbook = [
      hit("a", "Overtime must be approved. Overtime hours are recorded weekly. Overtime is paid monthly with overtime rates."),
      hit("b", "Overtime rules for part-time staff differ."),
      hit("c", "Working hours. Overtime means hours worked beyond 40 in a week at the employer's request."),
    ];
    expect(bySentence("What does overtime mean?", handbook)[0]!.id).toBe("c");
    // an amount asked keeps the search's order
    expect(bySentence("How much is overtime paid?", handbook)[0]!.id).not.toBe("c");
  });

  it("is quoted without the question heading and running head before it (a form's instructions, a handbook)", () => {
    const instructions = [
      passage(
        12,
        "2017 Form 1040—Line 6c Is Your Qualifying Relative Your Dependent? A qualifying relative is a person who lived with you all year and whose income was under $4,050.",
        "i1040gi.pdf",
      ),
    ];
    expect(lead("What is a qualifying relative?", instructions)).toBe(
      "A qualifying relative is a person who lived with you all year and whose income was under $4,050.",
    );
    const handbook = [
      passage(
        4,
        "Handbook 2025—Section 4 What Is Remote Work? Remote work means doing your job from home for a whole working day.",
        "Handbook.pdf",
      ),
    ];
    expect(lead("What is remote work?", handbook)).toBe("Remote work means doing your job from home for a whole working day.");
    // a question in a sentence's case too (a tax form, a handbook)
    const form = [
      passage(
        2,
        "What is backup withholding? Persons making certain payments to you must withhold and pay to the IRS 24% of such payments.",
        "fw9.pdf",
      ),
    ];
    expect(lead("What is backup withholding?", form)).toBe(
      "Persons making certain payments to you must withhold and pay to the IRS 24% of such payments.",
    );
    const faq = [passage(7, "How do I book leave? Send the leave form to your manager two weeks ahead.", "Handbook.pdf")];
    expect(lead("How do I book leave?", faq)).toBe("Send the leave form to your manager two weeks ahead.");
  });

  it("leads the answer over a sentence that uses the term (a tax form, a filing)", () => {
    const form = [
      passage(3, "Enter the disregarded entity’s name on line 2. A disregarded entity should check the box of its owner.", "fw9.pdf"),
      passage(
        3,
        "In general, a business entity that has a single owner and is not a corporation is disregarded as an entity separate from its owner (a disregarded entity).",
        "fw9.pdf",
      ),
    ];
    expect(lead("What is a disregarded entity?", form)).toBe(
      "In general, a business entity that has a single owner and is not a corporation is disregarded as an entity separate from its owner (a disregarded entity).",
    );
    const filing = [
      passage(
        9,
        "A reconciliation of GAAP net income to Adjusted EBITDAR is included in the financial schedules in this release.",
        "MGM.pdf",
      ),
      passage(
        7,
        '2."Adjusted EBITDAR" is earnings before interest and other non-operating income, taxes, depreciation and amortization.',
        "MGM.pdf",
      ),
    ];
    expect(lead("What is Adjusted EBITDAR in MGM's earnings release?", filing)).toBe(
      '"Adjusted EBITDAR" is earnings before interest and other non-operating income, taxes, depreciation and amortization.',
    );
  });
});
