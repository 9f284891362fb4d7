// Proves retrieval and the answer providers: any user text is a safe query,
// BM25 order, user and document scoping, rank fusion (with an in-memory
// Vectorize double), the OpenAI-compatible provider against a loopback server
// speaking its SSE format, the Workers AI stream format, the local responder's
// honesty, and that answers only cite sources that exist.
import { env } from "cloudflare:workers";
import { describe, expect, inject, it, vi } from "vitest";
import { citeAnswer } from "../../worker/answer/citations";
import { indexDocument } from "../../worker/ingest/indexer";
import { library } from "../../worker/library/stub";
import { documentNames, namedDocuments } from "../../worker/answer/question/named-files";
import { chooseChatProvider } from "../../worker/providers/llm";
import { localAnswer } from "../../worker/answer/writer/local-writer";
import { localProvider } from "../../worker/providers/llm/local";
import { RERANK_MODEL } from "../../worker/answer/ranking/reranker";
import { askedFactKind } from "../../worker/answer/question/fact-kind";
import { conceptMatchExpression, ftsMatchExpression, queryTerms, questionMatchExpression, stem } from "../../worker/answer/question/terms";
import { isHeading, leadingHeading, splitSentences } from "../../worker/answer/passages/sentences";
import { isTableRow } from "../../worker/answer/passages/table-rows";
import { labelledRows } from "../../worker/answer/passages/labelled-rows";
import { openAiProvider } from "../../worker/providers/llm/openai";
import { SYSTEM_PROMPT, chatTitle } from "../../worker/providers/llm/prompt";
import { workersAiProvider } from "../../worker/providers/llm/workers-ai";
import { keywordSearch, onePerPage, retrievePassages, type Passage } from "../../worker/answer/ranking/retrieval";
import { fuseByRank } from "../../worker/answer/ranking/rank-fusion";
import { newUser } from "../helpers/api";
import { ftsPages, libraryRows } from "../helpers/library";
import { uploadAndIndex, waitUntilDone } from "../helpers/documents";
import { textPdf } from "../helpers/pdfs";
import { MemoryVectorize, fakeAi } from "../helpers/vectors";
import { STREAMED_PARTS } from "../helpers/scripted-model";

async function indexed(pages: string[], prefix = "ret") {
  const u = await newUser(prefix);
  const doc = await uploadAndIndex(u.token, `${prefix}.pdf`, await textPdf(pages));
  await waitUntilDone(u.token, doc.fileId);
  return { ...u, doc };
}

const passage = (n: number, text: string): Passage => ({
  chunkId: `d:${n}:0`,
  documentId: "d",
  fileName: "f.pdf",
  page: n,
  text,
  charStart: 0,
  charEnd: text.length,
});

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const parts: string[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe("keyword search", () => {
  it("never throws on hostile query text", async () => {
    const u = await indexed(["Payroll withholding applies to wages and tips."], "hostile");
    for (const q of [
      '"',
      'unmatched " quote',
      "AND OR NOT",
      "NEAR(payroll wages)",
      "payroll*",
      "col:payroll",
      "'; DROP TABLE chunks; --",
      "^payroll",
      "((()))",
      "🙂 émoji ünïcode",
      "x".repeat(5000),
      "",
      "   ",
    ]) {
      await expect(keywordSearch(env, { userId: u.user.id, question: q })).resolves.toBeInstanceOf(Array);
    }
    expect(ftsMatchExpression('payroll" OR "wages')).toBe('"payroll" OR "wages"');
    expect(ftsMatchExpression("the of and")).toBeNull();
  });

  it("drops the words of the asking and also searches the year of FY2023-style tokens", () => {
    expect(queryTerms("Give a response to the question: what was the FY2023 capex?")).toEqual(["fy2023", "fy", "2023", "capex"]);
    // the unit the answer is asked in is no topic: every table of a filing is "in millions"
    expect(queryTerms("What was the FY2023 capex (in USD millions)?")).toEqual(["fy2023", "fy", "2023", "capex"]);
  });

  it("drops the asker's own age ('I'm 67', 'my 15-year-old'), not an age the question asks about ('over 65')", () => {
    expect(queryTerms("I'm 67 and single. What's my standard deduction?")).toEqual(["single", "standard", "deduction"]);
    expect(queryTerms("My 15-year-old is e-filing her first return. Can she sign?")).not.toContain("15");
    expect(queryTerms("I am 45, can I take money out of my IRA?")).not.toContain("45");
    expect(queryTerms("Do people over 65 get a higher standard deduction?")).toContain("65");
    expect(queryTerms("What is the catch-up contribution at age 50 or older?")).toContain("50");
    expect(queryTerms("I'm 5 minutes late filing; is 30 days the grace period?")).toContain("30");
  });

  it("drops the words asking a change in a quantity ('how did net sales change'), not a change the reader makes", () => {
    expect(queryTerms("How did net sales change from 2017 to 2018?")).toEqual(["net", "sales", "2017", "2018"]);
    expect(queryTerms("Net sales 2023 compared with 2022")).toEqual(["net", "sales", "2023", "2022"]);
    expect(queryTerms("Any change in the number of stores?")).toEqual(["number", "stores"]);
    expect(queryTerms("Can I change my filing status after I file?")).toContain("change");
  });

  it("reads a form's name as one term ('W-2s' is the W-2, not '2s'), searched as a phrase", () => {
    expect(queryTerms("Where do I enter the total from all my W-2s and my 1099-K?")).toEqual(expect.arrayContaining(["w-2", "1099-k"]));
    expect(ftsMatchExpression("my W-2s")).toContain('"w 2"');
    // the W-2's line, not the 1099's, though the 1099's comes from the better-ranked source
    expect(
      localAnswer({
        question: "Which line is for the tax withheld on my W-2s?",
        passages: [
          passage(1, "25 Federal income tax withheld from: b Form(s) 1099 . . . . 25b"),
          passage(2, "25 Federal income tax withheld from: a Form(s) W-2 . . . . 25a"),
        ],
        history: [],
        anonymous: false,
      }).split("\n")[0],
    ).toBe("Line 25a: Federal income tax withheld from: Form(s) W-2 [2]");
  });

  it("also searches what the question names in the document's words, a phrase as one phrase (glossary)", async () => {
    const u = await indexed(
      [
        "Purchases of property, plant and equipment were $1,577 million in 2018.",
        "Capital allocation in 2018: cash returned to shareholders in 2018.",
        "The office kitchen is cleaned on Fridays.",
        "Payroll runs twice a month.",
      ],
      "glossary",
    );
    const hits = await keywordSearch(env, { userId: u.user.id, question: "What was capex in 2018?" });
    expect(hits.map((h) => h.page)).toEqual([1, 2]); // in the question's words alone, page 2 leads (2018 twice)
    expect(questionMatchExpression("What was capex in 2018?")).toBe(
      '"capex" OR "2018" OR "capital expenditure" OR "capital spending" OR "purchases of property plant and equipment" OR "additions to property and equipment"',
    );
    // a phrasing inside a longer one of another group is not used: "cash" in "cash flow statement" is no cash balance
    expect(questionMatchExpression("What does the cash flow statement say?")).not.toContain("cash and cash equivalents");
    expect(questionMatchExpression("How much cash do we hold?")).toContain('"cash and cash equivalents"');
    // a word only people use ("write off") is never searched for a question in the document's words
    expect(questionMatchExpression("Can I deduct it?")).toBe('"deduct"');
    expect(questionMatchExpression("Can I write off my car?")).toBe('"write" OR "off" OR "car" OR "deduct" OR "vehicle"');
    // a verb's phrasing naming a thing is not that verb: "your correct TIN" is no change, "any change in" no correction
    expect(questionMatchExpression("How do I correct my return?")).toContain('"change"');
    expect(questionMatchExpression("What if I don't give the requester my correct TIN?")).not.toContain('"change"');
    expect(questionMatchExpression("Was there any change in the number of stores?")).not.toContain('"correct"');
    expect(questionMatchExpression("Does that change what I can deduct?")).toContain('"correct"');
  });

  it("also searches the concept a question names alone, so its page leads among a long question's other words", async () => {
    const u = await indexed(
      [
        "Amounts for FY2018, in USD millions: the amount of cash from operations grew in 2018.",
        "Purchases of property, plant and equipment (PP&E) (1,577) (1,373) (1,420)",
        "The office kitchen is cleaned on Fridays.",
      ],
      "concept",
    );
    const question = "What is the FY2018 capital expenditure amount in USD millions?";
    // the question's own search alone ranks the page of generic words first
    expect((await ftsPages(u.user.id, questionMatchExpression(question)!))[0]).toBe(1);
    expect(conceptMatchExpression(question)).toContain('"purchases of property plant and equipment"');
    const hits = await keywordSearch(env, { userId: u.user.id, question });
    expect(hits.map((h) => h.page)).toEqual([2, 1]);
    expect(conceptMatchExpression("When is my tax return due?")).toBeNull();
  });

  it("reads the names a question calls a document by: a form's name or number, a company, capitalised words together", () => {
    expect(documentNames("What's the penalty for a wrong TIN on my W-9?")).toContain("w9");
    expect(documentNames("On the 1040, where do I enter my wages?")).toContain("1040");
    expect(documentNames("Are Best Buy's gross margins consistent?")).toEqual(expect.arrayContaining(["best", "buy", "bestbuy"]));
    expect(documentNames("What is 3M's FY2018 capex?")).toContain("3m");
    // amounts, years, the words of the asking and of a kind of document name no document
    expect(documentNames("I earned $2,000 in 2024 and 1040 hours. What does the Form say?")).toEqual([]);
  });

  it("picks the documents a question names by their file's name, unless it names all of them or there is only one", () => {
    const files = [
      { id: "w9", file_name: "fw9.pdf" },
      { id: "pub", file_name: "p17.pdf" },
      { id: "mmm", file_name: "3M_2018_10K.pdf" },
    ];
    expect(namedDocuments(documentNames("Which line of my W-9 gets my business name?"), files)).toEqual(["w9"]);
    expect(namedDocuments(documentNames("How much did 3M spend on capex?"), files)).toEqual(["mmm"]);
    expect(namedDocuments(documentNames("How much did we spend on capex?"), files)).toEqual([]);
    expect(namedDocuments(documentNames("Which line of my W-9 gets my business name?"), files.slice(0, 1))).toEqual([]);
  });

  it("of several documents a question names, picks those whose file names hold most of its names (a quarter's filing, a handbook's update)", () => {
    const filings = [
      { id: "10k", file_name: "BESTBUY_2023_10K.pdf" },
      { id: "10q", file_name: "BESTBUY_2024Q2_10Q.pdf" },
      { id: "ulta", file_name: "ULTABEAUTY_2023Q4_EARNINGS.pdf" },
      { id: "amcor", file_name: "AMCOR_2023Q4_EARNINGS.pdf" },
    ];
    expect(namedDocuments(documentNames("Which Best Buy category sold most in Q2 of FY2024?"), filings)).toEqual(["10q"]);
    expect(namedDocuments(documentNames("What was Best Buy's revenue in fiscal 2023?"), filings)).toEqual(["10k", "10q"]);
    // "Q4" is in three files' names; "Ulta Beauty" in one of them
    expect(namedDocuments(documentNames("How much stock did Ulta Beauty buy back in Q4?"), filings)).toEqual(["ulta"]);
    const handbooks = [
      { id: "book", file_name: "Employee Handbook.pdf" },
      { id: "update", file_name: "Employee Handbook Remote Work Update.pdf" },
      { id: "expenses", file_name: "Expense Policy.pdf" },
    ];
    expect(namedDocuments(documentNames("What does the Employee Handbook say about Remote Work now?"), handbooks)).toEqual(["update"]);
    expect(namedDocuments(documentNames("How many vacation days does the Employee Handbook give?"), handbooks)).toEqual(["book", "update"]);
  });

  it("searching all files, ranks the document the question names first", async () => {
    // the guide mentions the W-9 and its requester more often than the form itself
    const u = await indexed(["Give the requester your correct taxpayer identification number."], "named-form");
    const guide = await uploadAndIndex(
      u.token,
      "guide.pdf",
      await textPdf(["Send Form W-9 to the requester. The requester keeps the W-9; a W-9 is never filed with us by the requester."]),
    );
    await waitUntilDone(u.token, guide.fileId);
    const question = "What do I give the requester on my W-9?";
    const unnamed = await keywordSearch(env, { userId: u.user.id, question: "What do I give the requester on the form?" });
    expect(unnamed.map((h) => h.file_name)).toEqual(["guide.pdf", "named-form.pdf"]);
    const form = await uploadAndIndex(
      u.token,
      "Form W-9.pdf",
      await textPdf(["Give the requester your taxpayer identification number (TIN)."]),
    );
    await waitUntilDone(u.token, form.fileId);
    const hits = await keywordSearch(env, { userId: u.user.id, question });
    expect(hits[0]!.file_name).toBe("Form W-9.pdf");
    // a chat with one document attached searches it alone, as before
    const scoped = await keywordSearch(env, { userId: u.user.id, documentIds: [guide.fileId], question });
    expect(scoped.map((h) => h.file_name)).toEqual(["guide.pdf"]);
  });

  it("searching all files, looks first in the documents about the year the question names (tax instructions, annual reports)", async () => {
    // two editions of one guide: the later one states the rule more often, the question asks the earlier year
    const u = await indexed(
      [
        "2024 Instructions for Form 1040. Tax year 2024.",
        "Educators can deduct up to $300 of classroom expenses; $300 each if both spouses are educators. The $300 limit applies.",
      ],
      "guide-2024",
    );
    const older = await uploadAndIndex(
      u.token,
      "instructions.pdf",
      await textPdf([
        "2017 Instructions for Form 1040. Tax year 2017, filed in 2018 for 2017.",
        "Educators can deduct up to $250 of the expenses they paid for the school year.",
      ]),
    );
    await waitUntilDone(u.token, older.fileId);
    // the first chunk stating the rule, as the answer would quote it
    const rule = async (question: string) =>
      (await keywordSearch(env, { userId: u.user.id, question })).find((h) => h.text.includes("Educators"))!.file_name;
    expect(await rule("How much of my classroom expenses can educators deduct?")).toBe("guide-2024.pdf");
    expect(await rule("How much of my classroom expenses can educators deduct on my 2017 return?")).toBe("instructions.pdf");
    // two companies' annual reports: the year tells them apart as the name would
    const reports = await indexed(
      ["Annual report 2023. Fiscal 2023 ended January 28, 2023.", "Revenue was $46,298 million; revenue fell 10% on lower demand."],
      "report-2023",
    );
    const earlier = await uploadAndIndex(
      reports.token,
      "annual.pdf",
      await textPdf([
        "Annual report 2018. For the year ended December 31, 2018.",
        "The company reported revenue for the year of $32,765 million, up 3.5 percent on the year before.",
      ]),
    );
    await waitUntilDone(reports.token, earlier.fileId);
    const revenue = async (question: string) =>
      (await keywordSearch(env, { userId: reports.user.id, question })).find((h) => h.text.includes("$"))!.file_name;
    expect(await revenue("What was revenue?")).toBe("report-2023.pdf");
    expect(await revenue("What was revenue in 2018?")).toBe("annual.pdf");
  });

  it("finds the same chunks in the same order when it leaves out a word most of a large Library holds", async () => {
    // "payroll" on all 210 pages (BM25 gives it no weight), "tips" on 60 of them, each page a different length
    const pages = Array.from({ length: 210 }, (_, i) =>
      i % 7 < 2
        ? `Payroll tips are reported ${"every month ".repeat(1 + (i % 13))}page ${i + 1}.`
        : `Payroll section ${i + 1} covers ordinary wages.`,
    );
    const u = await indexed(pages, "common-word");
    const everyPhrase = await libraryRows<{ page: number }>(
      u.user.id,
      `SELECT c.page FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid WHERE chunks_fts MATCH '"payroll" OR "tips"' ORDER BY bm25(chunks_fts) LIMIT 50`,
    );
    const hits = await keywordSearch(env, { userId: u.user.id, question: "payroll tips", limit: 50 });
    expect(hits.map((h) => h.page)).toEqual(everyPhrase.map((r) => r.page));
    // fewer chunks with the rarer word than asked: the others follow, as a search for both ranks them
    const few = await keywordSearch(env, { userId: u.user.id, question: "payroll tips", limit: 70 });
    expect(few).toHaveLength(70);
    expect(few.slice(60).every((h) => !/tips/i.test(h.text))).toBe(true);
  }, 60_000);

  it("passes on at most one passage per page while other pages are left", () => {
    const hit = (id: string, page: number) => ({ id, document_id: "d", page });
    expect(onePerPage([hit("a", 1), hit("b", 1), hit("c", 2), hit("d", 3)], 3).map((h) => h.id)).toEqual(["a", "c", "d"]);
    expect(onePerPage([hit("a", 1), hit("b", 1), hit("c", 2)], 3).map((h) => h.id)).toEqual(["a", "c", "b"]);
  });

  it("ranks by bm25, best first", async () => {
    const u = await indexed(
      [
        "The office kitchen is cleaned on Fridays. Payroll questions go to HR.",
        "Payroll runs twice a month. Payroll corrections, payroll deductions and payroll tax filings are handled by the payroll team.",
      ],
      "bm25",
    );
    const hits = await keywordSearch(env, { userId: u.user.id, question: "payroll" });
    expect(hits.map((h) => h.page)).toEqual([2, 1]);
  });

  it("is scoped to the user and to the chat's documents", async () => {
    const a = await indexed(["Gardening leave lasts three months for directors."], "scope-a");
    const b = await newUser("scope-b");
    expect(await retrievePassages(env, { userId: b.user.id, question: "gardening leave directors" })).toEqual([]);

    const other = await uploadAndIndex(a.token, "other.pdf", await textPdf(["Gardening tools are stored in shed B."]));
    await waitUntilDone(a.token, other.fileId);
    const all = await retrievePassages(env, { userId: a.user.id, question: "gardening" });
    expect(new Set(all.map((p) => p.documentId))).toEqual(new Set([a.doc.fileId, other.fileId]));
    const scoped = await retrievePassages(env, { userId: a.user.id, documentIds: [other.fileId], question: "gardening" });
    expect(scoped.map((p) => p.documentId)).toEqual([other.fileId]);
    const both = await retrievePassages(env, { userId: a.user.id, documentIds: [other.fileId, a.doc.fileId], question: "gardening" });
    expect(new Set(both.map((p) => p.documentId))).toEqual(new Set([a.doc.fileId, other.fileId]));
    // another user's document id in the scope finds nothing of theirs
    expect(await retrievePassages(env, { userId: b.user.id, documentIds: [a.doc.fileId], question: "gardening" })).toEqual([]);
  });
});

describe("fusion", () => {
  it("puts items both lists agree on first, then keeps each list's order", () => {
    const a = { id: "a" };
    const b = { id: "b" };
    const c = { id: "c" };
    const d = { id: "d" };
    expect(
      fuseByRank([
        [a, b, c],
        [c, d],
      ]).map((x) => x.id),
    ).toEqual(["c", "a", "b", "d"]);
    expect(fuseByRank([[a, b]]).map((x) => x.id)).toEqual(["a", "b"]);
    // a list weighted down moves an item it ranks first only past items ranked low elsewhere
    expect(fuseByRank([[a, b, c], [c]], undefined, [1, 0.3]).map((x) => x.id)).toEqual(["c", "a", "b"]);
    expect(fuseByRank([[a, b, c], [c]], undefined, [1, 0.01]).map((x) => x.id)).toEqual(["a", "b", "c"]);
  });

  it("adds semantic hits from Vectorize when it is bound", async () => {
    const u = await indexed(["Remote employees get a monthly internet stipend.", "Annual leave requests need two weeks notice."], "fusion");
    const vectorize = new MemoryVectorize();
    const deps = {
      DB: env.DB,
      DOCUMENTS: env.DOCUMENTS,
      LIBRARY: env.LIBRARY,
      AI: fakeAi() as unknown as Ai,
      VECTORIZE: vectorize as unknown as VectorizeIndex,
    };
    await library(env, u.user.id).enqueue(u.doc.fileId, "fusion.pdf"); // index it again, with vectors
    await indexDocument(deps, u.doc.fileId);
    // "stipend" appears on page 1 only; the vector side also ranks page 1 first for these words
    const passages = await retrievePassages(deps, { userId: u.user.id, question: "internet stipend remote" });
    expect(passages[0]).toMatchObject({ documentId: u.doc.fileId, page: 1 });
    const other = await newUser("fusion-other");
    expect(await retrievePassages(deps, { userId: other.user.id, question: "internet stipend remote" })).toEqual([]);
  });
});

describe("re-ranking", () => {
  it("re-orders the best candidates with the Workers AI cross-encoder when AI is bound, and keeps the order when it fails", async () => {
    const u = await indexed(
      ["Leave policy. Leave requests are approved by the manager of the team.", "Leave carry-over. Unused vacation days expire in March."],
      "rerank",
    );
    const question = "do unused vacation days expire?";
    const plain = await retrievePassages(env, { userId: u.user.id, question: "leave" });
    expect(plain.map((p) => p.page)).toEqual([1, 2]);

    // a cross-encoder that prefers the passage about expiring vacation days
    const calls: unknown[] = [];
    const ai = {
      async run(model: string, input: { query: string; contexts: { text: string }[] }) {
        calls.push({ model, input });
        return { response: input.contexts.map((c, id) => ({ id, score: c.text.includes("expire") ? 0.9 : 0.1 })) };
      },
    } as unknown as Ai;
    const reranked = await retrievePassages({ LIBRARY: env.LIBRARY, AI: ai }, { userId: u.user.id, question: `leave ${question}` });
    expect(reranked[0]!.page).toBe(2);
    expect(calls[0]).toMatchObject({ model: RERANK_MODEL, input: { query: `leave ${question}` } });

    const broken = {
      async run() {
        throw new Error("model unavailable");
      },
    } as unknown as Ai;
    vi.spyOn(console, "error").mockImplementation(() => {});
    const fallback = await retrievePassages({ LIBRARY: env.LIBRARY, AI: broken }, { userId: u.user.id, question: "leave" });
    expect(fallback.map((p) => p.page)).toEqual(plain.map((p) => p.page));
  });
});

describe("providers", () => {
  /** The local answer's first line for a question over these passages, in a signed-in user's new chat. */
  const leadOver = (question: string, passages: Passage[]) =>
    localAnswer({ question, passages, history: [], anonymous: false }).split("\n")[0];

  const input = {
    question: "When are payroll taxes due?",
    passages: [passage(1, "Payroll taxes are due quarterly.")],
    history: [],
    anonymous: false,
  };

  it("streams from an OpenAI-compatible endpoint over SSE, with the grounded prompt", async () => {
    const baseUrl = inject("llmBaseUrl");
    const provider = openAiProvider({ baseUrl, apiKey: "test-key", model: "test-model" });
    expect(provider.mode).toBe("model");
    expect(await collect(provider.streamAnswer(input))).toEqual(STREAMED_PARTS);
    const sent = (await (await fetch(`${baseUrl}/last-request`)).json()) as {
      model: string;
      stream: boolean;
      max_tokens: number;
      messages: { role: string; content: string }[];
    };
    expect(sent).toMatchObject({ model: "test-model", stream: true });
    expect(sent.max_tokens).toBeGreaterThanOrEqual(1024);
    expect(sent.messages[0]).toEqual({ role: "system", content: SYSTEM_PROMPT });
    expect(sent.messages.at(-1)!.content).toContain("[1] f.pdf, page 1:\nPayroll taxes are due quarterly.");
    expect(await chatTitle(provider, "When are payroll taxes due?")).toBe("Quarterly Payroll Taxes");

    const wrongKey = openAiProvider({ baseUrl, apiKey: "nope", model: "m" });
    await expect(collect(wrongKey.streamAnswer(input))).rejects.toThrow("401");
  });

  it("reads the Workers AI stream format, even when events split across chunks", async () => {
    const sse = 'data: {"response":"Due "}\n\ndata: {"response":"quarterly [1]."}\n\ndata: {"response":"","usage":{}}\n\ndata: [DONE]\n\n';
    const calls: object[] = [];
    const ai = {
      async run(_model: string, body: object) {
        calls.push(body);
        const bytes = new TextEncoder().encode(sse);
        return new ReadableStream({
          start(controller) {
            for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
            controller.close();
          },
        });
      },
    } as unknown as Ai;
    expect((await collect(workersAiProvider(ai).streamAnswer(input))).join("")).toBe("Due quarterly [1].");
    expect(calls[0]).toMatchObject({ stream: true });
    expect((calls[0] as { max_tokens: number }).max_tokens).toBeGreaterThanOrEqual(1024);
  });

  it("chooses local without keys, Workers AI with the binding, the endpoint when configured", () => {
    expect(chooseChatProvider(env).mode).toBe("local");
    expect(chooseChatProvider({ ...env, AI: fakeAi() as unknown as Ai }).mode).toBe("model");
    expect(chooseChatProvider({ ...env, LLM_BASE_URL: "http://127.0.0.1:1/v1" } as Env).mode).toBe("model");
  });

  it("local responder: quotes the matching sentence with its citation, or says it found nothing", async () => {
    const answer = (await collect(localProvider(0).streamAnswer(input))).join("");
    expect(answer).toBe("Payroll taxes are due quarterly. [1]");
    expect(localAnswer({ ...input, passages: [] })).toContain("I could not find this in your documents");
    expect(localAnswer({ ...input, passages: [], documentNames: ["Travel.pdf"] })).toBe(
      "I could not find this in this chat's documents (Travel.pdf). Remove it from the chat to search all your files, or attach the document that covers it.",
    );
    expect(localAnswer({ ...input, passages: [passage(1, "Nothing here concerns the question at all, honestly.")] })).toContain(
      "I could not find a passage",
    );
  });

  it("local responder: leads with the sentence that states the asked fact, then at most two quotes", () => {
    const passages = [
      passage(1, "Payroll is run monthly by the finance team."),
      passage(2, "Payroll taxes are due quarterly to the tax office. Payroll taxes are filed online."),
      passage(3, "Payroll taxes are due by April 30 for the first quarter, per the payroll calendar."),
      ...[4, 5, 6, 7].map((n) => passage(n, `Payroll taxes note number ${n} for the records is kept here.`)),
    ];
    const answer = localAnswer({ question: "When are payroll taxes due?", passages, history: [], anonymous: false });
    // a date was asked: the sentence with the date leads
    expect(answer.split("\n")[0]).toBe("Payroll taxes are due by April 30 for the first quarter, per the payroll calendar. [3]");
    expect(citeAnswer(answer, passages).sources.length).toBeLessThanOrEqual(3);
    expect(answer.split(/\s+/).length).toBeLessThanOrEqual(130);
  });

  it("local responder: finds a question's word its PDF broke at a line end ('with- held' for 'withheld')", () => {
    const passages = [
      passage(1, "Social security tax is paid by employees and employers alike on wages up to a yearly limit."),
      passage(
        2,
        "You can take a credit on this line for the amount with- held in excess of $7,886. The employer should adjust the tax for you.",
      ),
      passage(3, "Claim any credit for social security tax on the line for other payments, as the form shows."),
    ];
    // (quoted with its hyphen: this passage alone cannot tell a broken word from a compound)
    expect(leadOver("Above what amount withheld can I claim social security tax back?", passages)).toBe(
      "You can take a credit on this line for the amount with-held in excess of $7,886. [2]",
    );
  });

  it("local responder: quotes the same row once, also when two pages write it apart only by signs", () => {
    const row = (dollar: string) => `Cash flows. 2018 2017 Purchases of equipment ${dollar}(1,577) ${dollar}(1,373) Net income 4,000 3,900`;
    const passages = [passage(1, row("$ ")), passage(2, row("")), passage(3, "Equipment purchases are reviewed by the board every year.")];
    const answer = localAnswer({ question: "How much were purchases of equipment in 2018?", passages, history: [], anonymous: false });
    expect(answer.match(/Purchases of equipment:/g)).toHaveLength(1);
  });

  it("splits sentences at a line reference but keeps a list number and a question with what follows", () => {
    expect(splitSentences("Enter the result on line 19. Also, enter the amount you repaid on the dotted line.")).toEqual([
      "Enter the result on line 19.",
      "Also, enter the amount you repaid on the dotted line.",
    ]);
    expect(splitSentences("By signing the form, you: 1. Certify that the number you are giving is correct.")).toEqual([
      "By signing the form, you: 1. Certify that the number you are giving is correct.",
    ]);
    expect(splitSentences("How Long Should Records Be Kept? Keep records for 3 years from the date you filed.")).toEqual([
      "How Long Should Records Be Kept? Keep records for 3 years from the date you filed.",
    ]);
    // nor a name's middle initial, while a part of a form named by a letter does
    expect(
      splitSentences("The report was signed by /s/ Nicholas C. Gangestad as Chief Financial Officer. Then file it with the annual report."),
    ).toEqual(["The report was signed by /s/ Nicholas C. Gangestad as Chief Financial Officer.", "Then file it with the annual report."]);
    expect(splitSentences("Enter the total deductions from Schedule A. If you did not itemize, enter the standard deduction.")).toEqual([
      "Enter the total deductions from Schedule A.",
      "If you did not itemize, enter the standard deduction.",
    ]);
    // a code's abbreviation ends no sentence
    expect(splitSentences("This is the certification of the officer pursuant to 18 U.S.C. Section 1350. It is filed herewith.")).toEqual([
      "This is the certification of the officer pursuant to 18 U.S.C. Section 1350.",
      "It is filed herewith.",
    ]);
  });

  it("local responder: never quotes table rows or headings as sentences", () => {
    expect(isTableRow("2018 2017 2018 2017 $ 17,360 $ 16,202 $ 3,245 $ 2,998")).toBe(true);
    expect(isTableRow("Net sales 32,765 31,657 30,109 and more")).toBe(true);
    expect(isTableRow("You must file by April 15, 2025, unless you live abroad.")).toBe(false);
    expect(isHeading("Filing Requirements")).toBe(true);
    expect(isHeading("CHAPTER 4. STANDARD DEDUCTION AND TAX COMPUTATION")).toBe(true);
    expect(isHeading("You can deduct up to $2,500 of student loan interest.")).toBe(false);
    const passages = [passage(1, "Net sales 2018 2017 $ 32,765 $ 31,657 $ 30,109. Total net sales grew by 3.5 percent in 2018 over 2017.")];
    expect(localAnswer({ question: "How much did net sales grow in 2018?", passages, history: [], anonymous: false })).toBe(
      "Total net sales grew by 3.5 percent in 2018 over 2017. [1]",
    );
  });

  it("local responder: a date asked is answered by a calendar date before a month or a period, and 'may' is no month", () => {
    const passages = [
      passage(1, "You may send the statement to your employer within a few weeks of the request."),
      passage(2, "Employers send the wage statement within 6 months of the year's end at the latest."),
      passage(3, "Employers must send the wage statement by January 31, 2025, to every employee."),
    ];
    expect(askedFactKind("When is my return due?")).toBe("date");
    expect(askedFactKind("Without asking for more time, when is my return due?")).toBe("date");
    expect(askedFactKind("By when must I send a new form?")).toBe("date");
    // "when" inside a clause does not ask a date
    expect(askedFactKind("What's the rate I can use when I drive my car for work?")).not.toBe("date");
    expect(leadOver("By what date must employers send the wage statement?", passages)).toBe(
      "Employers must send the wage statement by January 31, 2025, to every employee. [3]",
    );
  });

  it("local responder: a limit asked in other words ('the most I can', 'at what level', 'the biggest share') asks an amount", () => {
    expect(askedFactKind("What's the most student loan interest I can deduct?")).toBe("money");
    expect(askedFactKind("At what level of gross income am I required to file?")).toBe("money");
    expect(askedFactKind("I'm single with a 401(k). At what modified AGI can I no longer deduct my IRA contributions?")).toBe("money");
    // a share asked is an amount a percent states as well as a sum
    expect(askedFactKind("What's the biggest share of my benefits that could be taxed?")).toBe("figure");
    expect(askedFactKind("At what age must I start taking required distributions?")).toBe("number");
    // "most" that asks no limit
    expect(askedFactKind("Which filing status do most people use?")).not.toBe("money");
    expect(
      leadOver("At what level of gross income am I required to file?", [
        passage(1, "Whether you are required to file depends on your level of gross income, your filing status and your age."),
        passage(2, "If you are single and under 65, you must file when your gross income is at least $14,600."),
      ]),
    ).toBe("If you are single and under 65, you must file when your gross income is at least $14,600. [2]");
  });

  it("local responder: reads what a question asks, not how it asks to be answered; whether a figure held asks its figures", () => {
    // after the question: how to answer it, which asks no reason and no amount of its own
    expect(askedFactKind("Are gross margins historically consistent? If not, please explain why.")).toBe("figure");
    expect(askedFactKind("What drove the decline in margins? Answer in one sentence.")).toBe("reason");
    expect(askedFactKind("Did the margin fluctuate between 2021 and 2023?")).toBe("figure");
    expect(askedFactKind("Was revenue stable over the last three years?")).toBe("figure");
    // a margin is a share: its percent states it as well as a sum
    expect(askedFactKind("What was the gross margin in the second quarter?")).toBe("figure");
  });

  it("local responder: a file the question names is where it leads from, over a sentence of another file that scores a little better", () => {
    const w9 = (n: number, text: string): Passage => ({ ...passage(n, text), documentId: "w9", fileName: "Form W-9.pdf" });
    const passages = [
      passage(1, "Penalty for a wrong TIN on payroll forms: $60 per form."),
      w9(2, "If you give a requester a wrong TIN, you are subject to a penalty of $50 for each such failure."),
    ];
    expect(leadOver("What's the penalty for a wrong TIN?", passages)).toMatch(/\$60 per form\. \[1\]$/);
    expect(leadOver("What's the penalty on my W-9 for a wrong TIN?", passages)).toMatch(/penalty of \$50 .*\[2\]$/);
  });

  it("local responder: a sum asked ('how much did we spend') is answered by a sum before a percent; a percentage asked, by either", () => {
    const passages = [
      passage(1, "In 2018, 63% of our capital spending was within the United States, followed by Europe."),
      passage(2, "Our capital spending in 2018 came to $1,577 million, funded from operating cash flow and commercial paper."),
    ];
    expect(askedFactKind("How much did we spend on capital spending in 2018?")).toBe("money");
    expect(leadOver("How much did we spend on capital spending in 2018?", passages)).toMatch(/\$1,577 million.*\[2\]$/);
    expect(askedFactKind("What percentage of our capital spending was in the United States in 2018?")).toBe("figure");
    expect(leadOver("What percentage of our capital spending was in the United States in 2018?", passages)).toMatch(
      /^In 2018, 63%.*\[1\]$/,
    );
  });

  it("local responder: an amount named ('what's the standard deduction', 'what was our revenue') asks an amount", () => {
    expect(askedFactKind("What's the standard deduction for a single filer in 2024?")).toBe("money");
    expect(askedFactKind("What was our revenue in 2023?")).toBe("money");
    expect(askedFactKind("What deduction can I take for my home office?")).not.toBe("money");
    expect(
      leadOver("What's the standard deduction for a single filer in 2024?", [
        passage(
          1,
          "For 2024, the standard deduction amount has been increased for all filers. The amounts are: Single or Married filing separately—$14,600; Married filing jointly or Qualifying surviving spouse—$29,200; and Head of household—$21,900.",
        ),
      ]),
    ).toMatch(/^The amounts are: Single or Married filing separately—\$14,600/);
  });

  it("local responder: an amount asked by its size ('how big', 'how large', 'how high') asks an amount (a tax guide, an HR policy)", () => {
    const sized = [
      "How big is the 2024 standard deduction for head of household?",
      "How high can my IRA contribution be?",
      "How large is the relocation allowance?",
    ];
    expect(sized.map(askedFactKind)).toEqual(["money", "money", "money"]);
    expect(
      leadOver("How big is the 2024 standard deduction for head of household?", [
        passage(1, "The head of household filing status allows you to choose the standard deduction even if your spouse itemizes."),
        passage(
          2,
          "The amounts are: Single or Married filing separately—$14,600; Married filing jointly—$29,200; and Head of household—$21,900.",
        ),
      ]),
    ).toMatch(/^The amounts are: … Head of household—\$21,900\./);
    expect(
      leadOver("How large is the relocation allowance?", [
        passage(1, "The relocation allowance is available to employees who move for a new role."),
        passage(2, "The relocation allowance is $5,000, paid with the first salary."),
      ]),
    ).toMatch(/^The relocation allowance is \$5,000/);
  });

  it("local responder: more time asked in other words ('how much additional time') is a period asked", () => {
    expect(askedFactKind("How much additional time do I get to file and pay?")).toBe("duration");
    expect(askedFactKind("How much extra time can I get?")).toBe("duration");
    expect(
      leadOver("Living abroad, how much additional time do I get to file without asking?", [
        passage(1, "If you live abroad, you may have to file Form 2555, which costs $15 to mail additional copies of."),
        passage(2, "If you live abroad on the due date, you get an extra 2 months to file and pay the tax."),
      ]),
    ).toBe("If you live abroad on the due date, you get an extra 2 months to file and pay the tax. [2]");
  });

  it("local responder: 'who is' asks a name, answered by the sentence naming a person; 'who can' does not", () => {
    expect(askedFactKind("Who is the CEO?")).toBe("person");
    expect(askedFactKind("Who can claim the child as a dependent?")).not.toBe("person");
    expect(
      leadOver("Who is the chief executive officer?", [
        passage(
          1,
          "Based upon that evaluation, the Chief Executive Officer and Chief Financial Officer concluded that the controls are effective.",
        ),
        passage(2, "This report fairly presents the results of the Company. /s/ Michael F. Roman Chief Executive Officer February 7, 2019"),
      ]),
    ).toContain("Michael F. Roman Chief Executive Officer");
  });

  it("local responder: 'which line', 'which form' or 'where do I report' asks a place on the forms, answered by the sentence naming it", () => {
    expect(askedFactKind("Which line of my return does the Alaska dividend go on?")).toBe("reference");
    expect(askedFactKind("Which form should my bank send me?")).toBe("reference");
    expect(askedFactKind("Where do I report jury duty pay?")).toBe("reference");
    expect(askedFactKind("How many kids can I claim?")).toBe("number");
    expect(
      leadOver("I got the Alaska Permanent Fund dividend. Which line of my return does it go on?", [
        passage(1, "If you file a joint return, your spouse can also have $3 of the dividend go to the fund."),
        passage(2, "If you received an Alaska Permanent Fund dividend, report it as income on Schedule 1 (Form 1040), line 8g."),
      ]),
    ).toContain("line 8g");
    // a post office box is no box of a form
    expect(
      leadOver("Where do I report the check I got for jury duty on my return?", [
        passage(1, "Internal Revenue Service P.O. Box 2188 Parkersburg, WV 26106-2188 Or enclose your check with your return."),
        passage(2, "Jury duty pay you receive must be included in your income on Schedule 1 (Form 1040), line 8h."),
      ]),
    ).toContain("line 8h");
  });

  it("local responder: a question opening with the place it asks ('Which line tells me how much...') asks the place, not the amount", () => {
    expect(askedFactKind("Which line tells me how much I still have to pay?")).toBe("reference");
    expect(askedFactKind("Where on the form do I put my children?")).toBe("reference");
    expect(askedFactKind("How much do I still have to pay?")).toBe("money");
    // a form's numbered lines are quoted one by one, each with its number, and "still have to pay" is "the amount you owe"
    expect(
      leadOver("Which line tells me how much I still have to pay?", [
        passage(
          1,
          "Refund 34 If line 33 is more than line 24, subtract line 24 from line 33. This is the amount you overpaid . . . . 34 " +
            "35a Amount of line 34 you want refunded to you . . . . 35a 36 Amount of line 34 you want applied to your estimated tax . . . 36 " +
            "Amount You Owe 37 Subtract line 33 from line 24. This is the amount you owe. For details on how to pay, see instructions . . . . 37",
        ),
        passage(2, "1d Medicaid waiver payments not reported on Form(s) W-2 . . . . 1d 26 Estimated tax payments . . . . 26"),
      ]),
    ).toBe("Line 37: Subtract line 33 from line 24. This is the amount you owe. For details on how to pay, see instructions [1]");
  });

  it("local responder: 'two jobs' is 'more than one employer' and 'too much' is 'excess' (glossary)", () => {
    expect(
      leadOver("I worked two jobs and too much social security got withheld. Can I get it back?", [
        passage(1, "The social security tax withheld from your wages is shown in box 4 of your W-2."),
        passage(
          2,
          "If you had more than one employer in 2025 and more than $10,918.20 in social security and/or Tier 1 railroad retirement (RRTA) taxes were withheld, you may be able to claim a credit for the excess against your federal income tax.",
        ),
      ]),
    ).toMatch(/^If you had more than one employer in 2025 and more than \$10,918\.20/);
  });

  it("searches a plain word in the words a tax guide, a handbook and a filing write (the glossary written without the questions)", () => {
    expect(questionMatchExpression("I sold some crypto this year. Where do I report it?")).toContain('"digital asset"');
    expect(questionMatchExpression("How much PTO do new hires get?")).toContain('"paid time off"');
    expect(questionMatchExpression("How did same store sales do in the quarter?")).toContain('"comparable sales"');
  });

  it("local responder: a short heading run into its paragraph ('Due dates. By February 2...') is read with the sentence it heads, and quoted without it", () => {
    expect(
      splitSentences(
        "Due dates. By February 2, 2026, furnish Copies B, C, and 2 to each employee. E-filing. If you file 10 or more returns, you must file electronically.",
      ),
    ).toEqual([
      "Due dates. By February 2, 2026, furnish Copies B, C, and 2 to each employee.",
      "E-filing. If you file 10 or more returns, you must file electronically.",
    ]);
    expect(
      leadOver("What's the due date for giving my employees their W-2s?", [
        passage(
          1,
          "Workers without children could qualify for a smaller credit. Keep Copy C for 3 years after the due date for filing your return.",
        ),
        passage(2, "Due dates. By February 2, 2026, furnish Copies B, C, and 2 to each person who was your employee during 2025."),
      ]),
    ).toBe("By February 2, 2026, furnish Copies B, C, and 2 to each person who was your employee during 2025. [2]");
  });

  it("local responder: a change in a quantity asked ('any drop in', 'did it increase or decrease') is told by its figures", () => {
    expect(askedFactKind("Was there any drop in cash and cash equivalents between FY2023 and Q2 of FY2024?")).toBe("figure");
    expect(askedFactKind("Did wages as a percent of net sales increase or decrease in FY2023?")).toBe("figure");
    expect(askedFactKind("Was there any change in the number of stores between Q2 and year end?")).toBe("number");
    expect(askedFactKind("How did net earnings change from fiscal 2022 to fiscal 2023?")).toBe("figure");
    // a change asked of the reader is no quantity
    expect(askedFactKind("Can I change my filing status after I file?")).toBe("rule");
    expect(
      leadOver("Was there any drop in cash and cash equivalents between year end and the second quarter?", [
        passage(1, "Cash and cash equivalents are held mostly in money market funds and in bank deposits."),
        passage(2, "Balance sheets. July 29, 2023 January 28, 2023 Cash and cash equivalents $ 1,093 $ 1,874 Receivables, net 1,011 1,141"),
      ]),
    ).toBe(
      "Cash and cash equivalents: July 29, 2023 $1,093; January 28, 2023 $1,874 (from January 28, 2023 to July 29, 2023: down $781, or 42%) [2]",
    );
  });

  /** The local answer's first line for a question over one passage of `text`. */
  const leadOf = (question: string, text: string) => leadOver(question, [passage(1, text)]);

  it("local responder: a cause asked is answered by the sentence that gives one", () => {
    expect(askedFactKind("Why did inventories go up?")).toBe("reason");
    expect(askedFactKind("What drove the reduction in SG&A expense as a percent of net sales?")).toBe("reason");
    const report =
      "Merchandise inventories at the end of the year increased to $1.6 billion from $1.5 billion. " +
      "The increase in inventories was primarily due to new stores and new brand launches.";
    expect(leadOf("What drove the increase in merchandise inventories?", report)).toBe(
      "The increase in inventories was primarily due to new stores and new brand launches. [1]",
    );
  });

  it("local responder: a rule asked is answered by a rule also when the PDF writes its apostrophes curly (Don’t, isn’t)", () => {
    const guide = "Clothing costs appear on the household worksheet. Don’t include clothing bought for school, sports or work.";
    expect(leadOf("Do clothing costs count?", guide)).toBe("Don’t include clothing bought for school, sports or work. [1]");
  });

  it("local responder: an amount asked is answered by an amount, not by a form's blank with its line number ('$ 3')", () => {
    const form =
      "2c $ 3 Enter the number of pay periods per year for each child. Multiply the number of qualifying children under age 17 by $2,000.";
    expect(leadOf("How much per child do I enter?", form)).toBe("Multiply the number of qualifying children under age 17 by $2,000. [1]");
  });

  it("local responder: the sentence about the question leads, not a neighbour that only holds the kind of fact asked", () => {
    const handbook = "Leave policy. Parental leave is sixteen weeks at full pay. Remote work. Staff may work from home two days a week.";
    expect(leadOf("How long is parental leave?", handbook)).toBe("Parental leave is sixteen weeks at full pay. [1]");
  });

  it("local responder: quotes a sentence without the next list item's bullet and heading run into it, or its field number before it", () => {
    expect(
      leadOver("Which line do I put my business name on?", [
        passage(1, "Enter any business, trade, or DBA name on line 2. • Disregarded entity."),
      ]),
    ).toBe("Enter any business, trade, or DBA name on line 2. [1]");
    expect(
      leadOver("Which line do I put my business name on?", [
        passage(1, "3 You must show your individual name on line 1, and enter your business or DBA name, if any, on line 2."),
      ]),
    ).toBe("You must show your individual name on line 1, and enter your business or DBA name, if any, on line 2. [1]");
  });

  it("local responder: never quotes a form's header block (its title, agency and OMB number)", () => {
    const header =
      "Form 1040 U.S. Individual Income Tax Return 2024 Department of the Treasury—Internal Revenue Service OMB No. 1545-0074 IRS Use Only—Do not write or staple in this space.";
    const answer = localAnswer({
      question: "What goes in the IRS Use Only space of Form 1040?",
      passages: [passage(1, `${header} Attach Sch. B if required.`)],
      history: [],
      anonymous: false,
    });
    expect(answer).not.toContain("OMB No.");
  });

  it("local responder: quotes a heading run into a sentence without the heading, and the same sentence once", () => {
    expect(leadingHeading("Amount You Owe To avoid interest and penalties, pay your taxes in full by April 17.")).toEqual({
      heading: "Amount You Owe",
      sentence: "To avoid interest and penalties, pay your taxes in full by April 17.",
    });
    expect(leadingHeading("Social Security benefits are taxable in some cases.")).toBeNull();
    expect(leadingHeading("Form W-2 Wage and Tax Statement shows your wages.")).toBeNull();
    const same = "Educator Expenses You can deduct up to $300 of classroom supplies you paid for.";
    const answer = localAnswer({
      question: "How much can I deduct for classroom supplies?",
      passages: [passage(1, same), passage(2, same)],
      history: [],
      anonymous: false,
    });
    expect(answer).toBe("You can deduct up to $300 of classroom supplies you paid for. [1]\n\nSee also: [2]");
  });

  it("local responder: lists the other best-ranked pages about the question as 'See also', not pages about something else", () => {
    const passages = [
      passage(1, "The standard deduction for a single filer is $14,600 for 2024."),
      passage(2, "Mileage for business use of a car is 67 cents a mile."),
      passage(3, "Your standard deduction is higher if you are blind."),
      passage(4, "A married couple filing jointly has a standard deduction of $29,200."),
      passage(5, "Interest on a qualified student loan may be deductible."),
      passage(6, "Dependents have a limited standard deduction."),
    ];
    // asking no kind of fact (an amount asked also weighs the pages that state one: "See also" is then stricter)
    const answer = localAnswer({
      question: "Which standard deduction applies to a single filer?",
      passages,
      history: [],
      anonymous: false,
    });
    const lines = answer.split("\n");
    expect(lines[0]).toBe("The standard deduction for a single filer is $14,600 for 2024. [1]");
    // quoted pages are not listed again; page 2 and 5 are about something else; page 6 is past the best five
    const seeAlso = lines.at(-1)!;
    expect(seeAlso).toMatch(/^See also: (\[\d\] ?)+$/);
    const listed = [...seeAlso.matchAll(/\[(\d)\]/g)].map((m) => Number(m[1]));
    const quoted = [
      ...lines
        .slice(0, -1)
        .join("\n")
        .matchAll(/\[(\d)\]/g),
    ].map((m) => Number(m[1]));
    expect([...listed, ...quoted].sort()).toEqual([1, 3, 4]);
    expect(listed.some((n) => quoted.includes(n))).toBe(false);
    // the reader's sources are numbered in the order the answer first cites them
    expect(citeAnswer(answer, passages).sources.map((s) => s.page)).toEqual([...new Set([...quoted, ...listed])]);
  });

  it("local responder: a noun made from a verb finds the verb ('calculation' finds 'calculate')", () => {
    expect([stem("calculation"), stem("requirements"), stem("payment"), stem("taxes"), stem("bounces")]).toEqual([
      "calcul",
      "require",
      "payment",
      "tax",
      "bounc",
    ]);
    const passages = [
      passage(1, "The withholding tables are printed on page 4 of the form for every job."),
      passage(2, "If the box is checked, brackets are halved to calculate withholding for each job."),
    ];
    const answer = localAnswer({
      question: "What does the box do to the withholding calculation?",
      passages,
      history: [],
      anonymous: false,
    });
    expect(answer.split("\n")[0]).toBe("If the box is checked, brackets are halved to calculate withholding for each job. [2]");
  });

  it("local responder: a table row answers an amount as a compact labelled line, never a date", () => {
    const table =
      "(Millions) 2023 2022 Net income $ 1,058 $ 815 Purchases of equipment (maturities over 90 days) (526) (527) Other — net 12 —";
    expect(labelledRows(table)).toEqual([
      "Net income: 2023 $1,058; 2022 $815",
      "Purchases of equipment (maturities over 90 days): 2023 (526); 2022 (527)",
      "Other — net: 2023 12; 2022 —",
    ]);
    // an index line lists pages, not figures
    expect(labelledRows("Taxes withheld 72 Exemptions 15 Extension of time to file 7, 71")).toEqual([]);
    expect(labelledRows("Student loan interest deduction 37 T Tax and credits 38–52 Figured by the IRS 41, 57")).toEqual([]);
    const passages = [passage(1, `Cash flows. ${table}`), passage(2, "Net income is reported every quarter in the filing.")];
    const amount = localAnswer({ question: "What was net income in 2023?", passages, history: [], anonymous: false });
    expect(amount.split("\n")[0]).toBe("Net income: 2023 $1,058; 2022 $815 (in millions) [1]");
    const when = localAnswer({ question: "When is net income reported?", passages, history: [], anonymous: false });
    expect(when).toBe("Net income is reported every quarter in the filing. [2]");
  });
});
