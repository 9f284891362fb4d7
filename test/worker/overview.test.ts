// Proves a document's overview (issue 45 item 3) through the real Worker, Queue, D1 and
// Library: computed when the consumer indexes the PDF (a generated one with a heading per page:
// headings make its outline; the real IRS Pub 17, when ../shared/corpus exists: its own
// bookmarks), answered by GET /api/documents/:fileId/overview to its owner only, 409 while
// indexing, and computed on request from the Library's chunks for a document indexed before
// overviews. A model's summary is checked with a stand-in completion, not a real model.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DOCUMENT_MESSAGES as M } from "../../worker/contract/documents";
import { OVERVIEW_MESSAGES } from "../../worker/contract/overview";
import { getDb } from "../../worker/db/client";
import { documentOverviews } from "../../worker/db/schema";
import { splitSentences } from "../../worker/answer/passages/sentences";
import { buildOverview } from "../../worker/services/overviews";
import { call, newUser } from "../helpers/api";
import { corpus, corpusBytes } from "../helpers/corpus";
import { uploadAndIndex, waitUntilDone } from "../helpers/documents";
import { headedPdf } from "../helpers/pdfs";

const SECTIONS = [
  {
    heading: "Employee Handbook Overview",
    body: "This handbook explains the policies that apply to every employee of Northwind Traders. It describes how leave is earned and taken, how remote work is arranged, and how expenses are repaid. Managers use it to answer questions from their teams about everyday work.",
  },
  {
    heading: "Annual Leave Policy",
    body: "Full-time employees accrue twenty days of annual leave each calendar year. Leave requests are submitted through the staff portal at least two weeks in advance. Unused leave of up to five days carries over into the next year.",
  },
  {
    heading: "Remote Work Arrangements",
    body: "Employees may work from home up to three days each week with the approval of their manager. The company provides a laptop and a monitor for home offices. Remote staff attend the office in person for quarterly planning sessions.",
  },
  {
    heading: "Travel Expense Reports",
    body: "Travel expenses are repaid within thirty days once a report with receipts is filed. Economy fares are booked for flights shorter than six hours. Meals are covered up to the daily allowance published by the finance team.",
  },
];

const overview = (token: string, fileId: string) => call("GET", `/api/documents/${fileId}/overview`, { token });

describe("document overview", () => {
  it("gives the owner pages, a headings outline, a three-sentence summary and three questions; another user a 404", async () => {
    const owner = await newUser("overview");
    const { fileId } = await uploadAndIndex(owner.token, "Handbook.pdf", await headedPdf(SECTIONS));
    expect((await waitUntilDone(owner.token, fileId)).status).toBe("indexed");

    const res = await overview(owner.token, fileId);
    expect(res.status).toBe(200);
    expect(res.json.pages).toBe(4);
    expect(res.json.outline).toEqual(SECTIONS.map((s, i) => ({ title: s.heading, page: i + 1, level: 1 })));
    expect(splitSentences(res.json.summary)).toHaveLength(3);
    expect(res.json.summary).toContain("This handbook explains the policies");
    expect(res.json.summary).not.toMatch(/Overview This/); // no heading run into a sentence
    expect(res.json.questions).toHaveLength(3);
    expect(res.json.questions.join(" ")).toMatch(/Annual Leave Policy|Remote Work Arrangements|Travel Expense Reports/);
    for (const q of res.json.questions) expect(q).toMatch(/\?$/);

    const stranger = await newUser("overview-other");
    const other = await overview(stranger.token, fileId);
    expect(other.status).toBe(404);
    expect(other.json.message).toBe(M.fileNotFound);
    expect((await overview(owner.token, "no-such-file")).json.message).toBe(M.fileNotFound);
    expect((await call("GET", `/api/documents/${fileId}/overview`)).status).toBe(401);
  });

  it("computes the overview of a document indexed before overviews from its Library's chunks, once", async () => {
    const { token } = await newUser("overview-old");
    const { fileId } = await uploadAndIndex(token, "Old handbook.pdf", await headedPdf(SECTIONS));
    await waitUntilDone(token, fileId);
    const db = getDb(env);
    await db.delete(documentOverviews).where(eq(documentOverviews.documentId, fileId));

    const res = await overview(token, fileId);
    expect(res.status).toBe(200);
    expect(res.json.pages).toBe(4);
    expect(splitSentences(res.json.summary)).toHaveLength(3);
    expect(res.json.questions).toHaveLength(3);
    for (const entry of res.json.outline) expect(entry.page).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(documentOverviews).where(eq(documentOverviews.documentId, fileId)).get()).toBeTruthy();
  });

  it("answers 409 with a clear message while the document is still being indexed", async () => {
    const { token } = await newUser("overview-busy");
    const link = await call("GET", "/api/documents/uploadLink?fileName=later.pdf&contentType=application/pdf", { token });
    const row = await env.DB.prepare("SELECT id FROM documents WHERE r2_key = ?").bind(link.json.s3Key).first<{ id: string }>();
    const res = await overview(token, row!.id);
    expect(res.status).toBe(409);
    expect(res.json.message).toBe(OVERVIEW_MESSAGES.indexing);
  });

  it("takes a configured model's first three sentences, and the extractive summary when the model fails", async () => {
    const pages = SECTIONS.map((s) => `${s.heading}\n${s.body}`);
    const input = { fileName: "Handbook.pdf", pages, bookmarks: [] };
    const model = async () => "It is a handbook. It is for staff. It covers leave. It also covers travel.";
    expect((await buildOverview(model, input)).summary).toBe("It is a handbook. It is for staff. It covers leave.");
    const failing = async () => {
      throw new Error("model down");
    };
    expect((await buildOverview(failing, input)).summary).toBe((await buildOverview(null, input)).summary);
  });

  it("asks of no cover line and not of the document's own name (a filing, an HR handbook)", async () => {
    const filing = {
      fileName: "JOHNSON_JOHNSON_2023_8K.pdf",
      bookmarks: [],
      pages: [
        "Smaller reporting company\nThe registrant is not a shell company as defined in the rules of the Exchange Act.",
        "Johnson & Johnson\nThe company reported its results for the second quarter of the year today.",
        "Adjusted Operational Sales\nAdjusted operational sales grew by six percent in the quarter compared with last year.",
      ],
    };
    const { outline, questions } = await buildOverview(null, filing);
    expect(outline.map((e) => e.title)).not.toContain("Smaller reporting company");
    expect(questions[0]).toBe("What does JOHNSON_JOHNSON_2023_8K.pdf say about Adjusted Operational Sales?");
    expect(questions.join(" ")).not.toMatch(/Johnson & Johnson\?|reporting company/);
    const handbook = {
      fileName: "Employee Handbook 2025.pdf",
      bookmarks: [],
      pages: [
        "Employee Handbook\nThis handbook sets out the policies that apply to every member of staff.",
        "Remote Work\nStaff may work from home two days a week with the approval of their manager.",
      ],
    };
    const asked = (await buildOverview(null, handbook)).questions;
    expect(asked[0]).toBe("What does Employee Handbook 2025.pdf say about Remote Work?");
    expect(asked.join(" ")).not.toMatch(/about Employee Handbook\?/);
  });

  it("outlines no glossary, column heads, sentence run on from the line before or contact names (a filing, an HR handbook)", async () => {
    const glossary = (terms: string[]) => `Glossary of Defined Terms\n${terms.join("\n")}`;
    const filing = {
      fileName: "NORTHWIND_2023Q2_10Q.pdf",
      bookmarks: [],
      pages: [
        glossary([
          "JV joint venture",
          "LIBOR London Interbank Offered Rate",
          "PsA psoriatic arthritis",
          "QTD Quarter-to-date",
          "R&D research and development",
          "YTD Year-to-date",
          "EPS earnings per share",
          "LOE loss of exclusivity",
        ]),
        "CONDENSED STATEMENTS OF INCOME\n Three Months Ended Six Months Ended\nRevenues $ 12,734 $ 27,742\nCost of sales 3,101 6,220",
        "The company held its investor webinar today. The recording may be accessed on the Investors section of the\nCompany's website at webcasts & presentations.\nRevenue grew in every region during the quarter, led by the retail segment and its online sales.",
        "Press Contacts: Investor Contacts:\nJake Sargent Jessica Moore\nmedia-relations@northwind.example investor-relations@northwind.example",
        "Segment Results\nThe retail segment grew its sales by six percent over the prior year.",
      ],
    };
    const handbook = {
      fileName: "Employee Handbook 2025.pdf",
      bookmarks: [],
      pages: [
        glossary([
          "PTO paid time off",
          "HR human resources",
          "HRIS Human Resources Information System",
          "FTE full-time equivalent",
          "FMLA Family and Medical Leave Act",
          "WFH working from home",
          "EAP employee assistance program",
          "ADA Americans with Disabilities Act",
        ]),
        "STAFF BY SITE\n Full-time Staff Part-time Staff\nHead office 120 14\nWarehouse 48 30",
        "Signed forms are kept for six years by the\nHuman Resources Department.\nCopies can be asked for at any time.",
        "BENEFITS CONTACTS\nMaria Lopez Daniel Kim\nbenefits@northwind.example (555) 010-2233",
        "Remote Work\nStaff may work from home two days a week with the approval of their manager.",
      ],
    };
    for (const [document, section] of [
      [filing, "Segment Results"],
      [handbook, "Remote Work"],
    ] as const) {
      const { outline, questions } = await buildOverview(null, document);
      expect(outline.map((e) => e.title)).toEqual([section]);
      expect(questions[0]).toBe(`What does ${document.fileName} say about ${section}?`);
    }
  });

  it.skipIf(!corpus?.files.includes("irs/p17.pdf"))(
    "IRS Pub 17: its own bookmarks (two levels, with pages) make the outline",
    async () => {
      const { token } = await newUser("overview-p17");
      const { fileId } = await uploadAndIndex(token, "p17.pdf", await corpusBytes("irs/p17.pdf"));
      expect((await waitUntilDone(token, fileId, 170_000)).status).toBe("indexed");
      const res = await overview(token, fileId);
      expect(res.status).toBe(200);
      expect(res.json.pages).toBe(417);
      const { outline } = res.json as { outline: { title: string; page: number; level: number }[] };
      expect(outline.length).toBeGreaterThan(20);
      expect(outline.some((e) => e.level === 1) && outline.every((e) => e.level === 1 || e.level === 2)).toBe(true);
      for (const e of outline) (expect(e.page).toBeGreaterThanOrEqual(1), expect(e.page).toBeLessThanOrEqual(417));
      expect(outline.map((e) => e.title).join(" | ")).toMatch(/Filing Status/);
      expect(splitSentences(res.json.summary)).toHaveLength(3);
      expect(res.json.questions).toHaveLength(3);
      console.log(
        "p17 overview",
        JSON.stringify({ outline: outline.slice(0, 12), summary: res.json.summary, questions: res.json.questions }),
      );
    },
    180_000,
  );
});
