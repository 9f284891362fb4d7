// Proves the follow-up suggestions: the headings of cited passages become
// questions (on real text of the IRS Form W-9, extracted at test time; and on a
// generated handbook, tax guide and filing), in a sentence's case and never of a
// page's running head or a cut line, never what was just asked, at most three; a model's
// suggestions are cleaned (numbering, bullets, non-questions dropped) and a
// failing or silent model falls back to the headings; a turn stores them with the
// answer and sends them last, and an answer citing nothing gets none.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { followUpQuestions, headingSuggestions, isSectionHeading } from "../../worker/answer/suggestions";
import { extractPdfPages } from "../../worker/ingest/extract";
import { chunkPage } from "../../worker/library/chunker";
import type { Passage } from "../../worker/answer/ranking/retrieval";
import { corpus, corpusBytes } from "../helpers/corpus";
import { newUser } from "../helpers/api";
import { uploadAndIndex, waitUntilDone } from "../helpers/documents";
import { textPdf } from "../helpers/pdfs";
import { openSocket } from "../helpers/sockets";

const passage = (text: string, page = 1, fileName = "Handbook.pdf"): Passage => ({
  chunkId: `d:${page}:0`,
  documentId: "d",
  fileName,
  page,
  text,
  charStart: 0,
  charEnd: text.length,
});

const HANDBOOK =
  "Leave policy. Parental leave is sixteen weeks at full pay. Sick leave. Employees get ten sick days a year. " +
  "Remote work. Staff may work from home two days a week. You must tell your manager. 5. A list item.";

describe("headings as follow-up questions", () => {
  it("tells headings from sentences", () => {
    for (const heading of ["Sick leave.", "Exemption from FATCA reporting code.", "How to get a TIN.", "Misuse of TINs"])
      expect(isSectionHeading(heading), heading).toBe(true);
    for (const sentence of [
      "You must tell your manager.",
      "5. A list item.",
      "See Pub.",
      "G—A real estate investment trust.",
      "Form W-9 (Rev. 3-2024)",
      "Due date: Jan.",
    ])
      expect(isSectionHeading(sentence), sentence).toBe(false);
  });

  it("takes no cover line, blank or defined term for a heading (a 10-K's cover and glossary, a tax form's)", () => {
    for (const line of [
      "Smaller reporting company",
      "Title of each class",
      "For the transition period from _______ to _______",
      "Department of the Treasury",
      "JV joint venture",
      "MDL Multi-District Litigation",
      "Alexion Alexion Pharma International Operations Limited",
      // a 10-Q's glossary and an HR handbook's: the words' initials spell the abbreviation
      "LIBOR London Interbank Offered Rate",
      "PsA psoriatic arthritis",
      "ATTR-CM transthyretin amyloid cardiomyopathy",
      "IPR&D in-process research and development",
      "Biopharma Global Biopharmaceuticals Business",
      "PTO paid time off",
      "HRIS Human Resources Information System",
      // a statement's column heads read across, a filing's and a handbook's table
      "Three Months Ended Six Months Ended",
      "Six Months Ended",
      "Leased Locations Owned Locations",
      "Full-time Staff Part-time Staff",
      // a press release's headline is a sentence (an earnings release's, a merger's)
      "Northwind Announces Fourth Quarter",
      "Contoso Completes Merger With Fabrikam",
    ])
      expect(isSectionHeading(line), line).toBe(false);
    // an abbreviation that opens a heading and stands for no words after it
    for (const heading of [
      "MGM China",
      "Adjusted EPS",
      "Backup Withholding",
      "IRA contributions and deductions",
      "IRA Rollovers and Required Distributions",
      "EPS Guidance",
      "GAAP to Non-GAAP Reconciliation",
      "Tax Credits and Tax Deductions",
    ])
      expect(isSectionHeading(heading), heading).toBe(true);
  });

  it("asks nothing of a book's index: its entries name every subject, none the answer's (a tax guide's index, a handbook's)", () => {
    const guideIndex = passage(
      "Railroad retirement benefits, reporting on Reporting on Form 1040… Social security benefits, reporting on Reporting on Form 1040… " +
        "Foster-care providers Reporting taxable payments Kickbacks Kickbacks. Notary fees Notary public. Nonresident aliens Aliens.",
      346,
      "p17.pdf",
    );
    expect(headingSuggestions("What is a nonresident alien?", [guideIndex])).toEqual([]);
    const handbookIndex = passage(
      "Overtime, approval of Approving overtime… Parental leave, length of Leave policy… Remote work Working from home.",
      40,
    );
    expect(headingSuggestions("How long is parental leave?", [handbookIndex])).toEqual([]);
    // an entry before the title it links to, in a chunk of the index with no "…" left in it
    for (const entry of ["Notary fees Notary public", "Overtime pay Overtime policy"]) expect(isSectionHeading(entry), entry).toBe(false);
    // two titles joined in one heading
    for (const heading of ["Series EE and Series I bonds", "Overtime rates and overtime hours"])
      expect(isSectionHeading(heading), heading).toBe(true);
  });

  it("turns the cited passages' headings into at most three questions, leaving out what was asked", () => {
    expect(headingSuggestions("How long is sick leave?", [passage(HANDBOOK)])).toEqual([
      "What does Handbook.pdf say about leave policy?",
      "What does Handbook.pdf say about remote work?",
    ]);
    expect(headingSuggestions("Anything?", [passage(HANDBOOK), passage("Benefits overview. Dental plans. Vision plans.", 2)])).toHaveLength(
      3,
    );
  });

  it("asks a heading that tells what to do as a question a person would ask (a handbook, a tax form)", () => {
    const handbook = passage(
      "Keep the receipts for the finance team. Expenses are paid back within a month of the claim.",
      3,
      "Employee Handbook 2025.pdf",
    );
    expect(headingSuggestions("How are expenses paid back?", [handbook])).toEqual([
      "What does Employee Handbook 2025.pdf say about how to keep the receipts for the finance team?",
    ]);
    const form = passage("How to get a TIN. If you do not have a TIN, apply for one immediately.", 4, "fw9.pdf");
    expect(headingSuggestions("Who must give a TIN?", [form])).toEqual(["How do I get a TIN?"]);
  });

  it("asks nothing of page furniture or cut lines, and writes a heading in a sentence's case (a tax guide, a quarterly filing)", () => {
    const guide = passage(
      "When Do I Have To File? You have to file by April 15. See the separate instructions. Don’t send cash through the mail. " +
        "CAUTION Multiple jobs. If you have more than one job, file a new form. When to use the estimator. Use it if you have a job.",
      5,
      "p17.pdf",
    );
    expect(headingSuggestions("zzz?", [guide])).toEqual([
      "When do I have to file?",
      "What does p17.pdf say about multiple jobs?",
      "When should I use the estimator?",
    ]);
    const names = passage(
      "Note received for services. A note is income. Roth IRA conversions. You can convert a traditional IRA to a Roth IRA. " +
        "January payment. You can skip the payment due by January 15.",
      6,
      "p17.pdf",
    );
    expect(headingSuggestions("zzz?", [names])).toEqual([
      "What does p17.pdf say about note received for services?",
      "What does p17.pdf say about Roth IRA conversions?",
      "What does p17.pdf say about January payment?",
    ]);
    const filing = passage(
      "PFIZER INC. AND SUBSIDIARY COMPANIES Selected Financial Dat a. Table of Contents precious metals. " +
        "Legal Proceedings. The company is a defendant in several actions.",
      9,
      "Pfizer_2023Q2_10Q.pdf",
    );
    expect(headingSuggestions("zzz?", [filing])).toEqual(["What does Pfizer_2023Q2_10Q.pdf say about Legal Proceedings?"]);
  });

  it("asks no two headings run together, and asks a word broken at a line end whole (a tax guide, a handbook)", () => {
    const guide = passage(
      "Reminders No miscellaneous itemized deductions allowed. You can no longer claim them. " +
        "Social Security benefits received. Report your Social Security benefits on line 6a. " +
        "Nonresident aliens and dual-status ali- ens. Different rules apply to aliens.",
      200,
      "p17.pdf",
    );
    expect(headingSuggestions("zzz?", [guide])).toEqual([
      "What does p17.pdf say about Social Security benefits received?",
      "What does p17.pdf say about nonresident aliens and dual-status aliens?",
    ]);
    const handbook = passage(
      "Definitions and Special Rules Adopted child. An adopted child counts as your own. " +
        "Health Savings Account contributions. The company adds $500 to your Health Savings Account. " +
        "Leave Policy Parental leave. Parents get sixteen weeks.",
      12,
    );
    expect(headingSuggestions("zzz?", [handbook])).toEqual(["What does Handbook.pdf say about Health Savings Account contributions?"]);
  });

  it.skipIf(!corpus)("finds the W-9's section headings on its real page 4", async () => {
    const { pages } = await extractPdfPages(await corpusBytes("irs/fw9.pdf"), 100);
    const passages = chunkPage(pages[3]!).map((c) => ({ ...passage(c.text, 4, "fw9.pdf"), charStart: c.charStart, charEnd: c.charEnd }));
    const suggestions = headingSuggestions("Which payees are exempt from backup withholding?", passages);
    expect(suggestions).toContain("How do I get a TIN?");
    expect(suggestions).toContain("What does fw9.pdf say about exemption from FATCA reporting code?");
    expect(suggestions.every((s) => s.endsWith("?") && !/\d—/.test(s))).toBe(true);
  });
});

describe("a model's suggestions", () => {
  it("are cleaned, and a failing or silent model falls back to the headings", async () => {
    const cited = [passage(HANDBOOK)];
    const model = {
      complete: async () =>
        "1. Can I carry sick days over?\n- Is remote work allowed on Fridays?\nThanks for asking.\n\n3) What about vacation?\n4. One more?",
    };
    expect(await followUpQuestions(model, "How long is parental leave?", "Sixteen weeks [1].", cited)).toEqual([
      "Can I carry sick days over?",
      "Is remote work allowed on Fridays?",
      "What about vacation?",
    ]);
    const failing = {
      complete: async () => {
        throw new Error("model down");
      },
    };
    const fallback = await followUpQuestions(failing, "How long is parental leave?", "Sixteen weeks [1].", cited);
    expect(fallback).toEqual(headingSuggestions("How long is parental leave?", cited));
    expect(await followUpQuestions({ complete: async () => "" }, "q", "a", cited)).toEqual(
      fallback.length ? headingSuggestions("q", cited) : [],
    );
    expect(await followUpQuestions(model, "q", "Nothing found.", [])).toEqual([]);
  });
});

describe("a turn's suggestions", () => {
  it("are sent after the answer and kept with it", async () => {
    const u = await newUser("suggest");
    const doc = await uploadAndIndex(u.token, "Handbook.pdf", await textPdf([HANDBOOK]));
    await waitUntilDone(u.token, doc.fileId);
    const sessionId = `${u.email}-${crypto.randomUUID()}`;
    const socket = await openSocket(sessionId, u.token);
    socket.send({ action: "chat", query: "How long is parental leave?", session_id: sessionId, token: u.token });
    const end = await socket.next("end");
    const frame = await socket.next("suggestions");
    expect(frame).toEqual({
      type: "suggestions",
      session_id: sessionId,
      message_id: end.message.id,
      suggestions: expect.arrayContaining([
        "What does Handbook.pdf say about sick leave?",
        "What does Handbook.pdf say about remote work?",
      ]),
    });
    expect(socket.received.at(-1)).toEqual(frame);
    socket.send({ action: "get_full_chat", session_id: sessionId, token: u.token });
    const full = await socket.next("full_chat");
    expect(full.messages.at(-1)!.suggestions).toEqual(frame.suggestions);

    // nothing relevant found: no sources, no suggestions
    socket.send({ action: "chat", query: "quantum chromodynamics lattice", session_id: sessionId, token: u.token });
    const second = await socket.next("end", 1);
    expect(second.message.sources).toEqual([]);
    await socket.next("chat_list_update", 1);
    expect(socket.all("suggestions")).toHaveLength(1);
    void env;
  });
});
