// Proves that a statement's rows are found by their labels: each chunk keeps the labels of its
// table rows (never running text), a question names a label wholly or not (its period, "total"
// and the file's own name aside), and a short question for a statement's figure is answered by
// the statement's row through the Library's search and the local answer, on real 10-K text
// (../shared/corpus, extracted at test time; skipped when the corpus is not beside the project).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { corpus, corpusBytes } from "../helpers/corpus";
import { chunkPage } from "../../worker/library/chunker";
import { extractPdfPages } from "../../worker/ingest/extract";
import { library } from "../../worker/library/stub";
import { labelShares, rowQuestion } from "../../worker/answer/ranking/row-labels";
import { localAnswer } from "../../worker/answer/writer/local-writer";
import { retrievePassages } from "../../worker/answer/ranking/retrieval";

const named = (question: string, label: string, fileName = "BESTBUY_2023_10K.pdf") => labelShares(label, rowQuestion(question, [fileName]));

describe("a row's label named by a question", () => {
  it("names a label wholly, its period and 'total' aside", () => {
    expect(named("What was Best Buy's revenue in fiscal 2023?", "Revenue")).toEqual({ label: 1, question: 1 });
    expect(named("What were total assets at the end of fiscal 2023?", "Total assets")?.label).toBe(1);
    // half of "Total current assets" is asked: it counts, less
    expect(named("What were total assets at the end of fiscal 2023?", "Total current assets")?.label).toBe(0.5);
    expect(named("What were total assets at the end of fiscal 2023?", "Total deferred tax assets")).toBeNull();
    // a statement writes the noun asked in the plural
    expect(named("How much inventory did 3M have at year-end 2018?", "Total inventories", "3M_2018_10K.pdf")?.label).toBe(1);
    expect(named("What were total liability balances?", "Total liabilities")?.label).toBe(1);
    // but a short word's y stays ("FY")
    expect(named("What was revenue in FY2023?", "Fees")).toBeNull();
  });

  it("never names a label by the file's own name, nor a label's wrapped end", () => {
    // every page of BESTBUY_2023_10K.pdf is about Best Buy: its store table's "Canada Best Buy" row is no answer
    expect(named("How many stores did Best Buy have at the end of fiscal 2023?", "Canada Best Buy")).toBeNull();
    expect(named("What was Best Buy's revenue in fiscal 2023?", "of revenue")).toBeNull();
  });

  it("leaves a label the question names only in passing, and reads no verb's particle as asked of a label", () => {
    const wages = "Did Ulta Beauty's wages expense as a percent of net sales increase or decrease in FY2023?";
    expect(named(wages, "Net sales", "ULTABEAUTY_2023Q4_EARNINGS.pdf")).toBeNull();
    const capex =
      "What is the FY2018 capital expenditure amount (in USD millions) for 3M? Give a response to the question by relying on the details shown in the cash flow statement.";
    expect(named(capex, "Capital expenditures", "3M_2018_10K.pdf")).toBeNull();
    expect(named("How much did Best Buy pay out in dividends in fiscal 2023?", "Dividends paid")).toEqual({ label: 0.5, question: 0.5 });
  });

  it("reads what a row counts before whose share it is, and another phrasing of the question's concept whole", () => {
    const pfizer = "What was Pfizer's net income for the first half of 2023?";
    expect(named(pfizer, "Net income attributable to Pfizer Inc. common shareholders", "Pfizer_2023Q2_10Q.pdf")?.label).toBe(1);
    expect(named("How much did 3M spend on R&D in 2018?", "Research, development and related expenses", "3M_2018_10K.pdf")).not.toBeNull();
    expect(named("How much did 3M spend on R&D in 2018?", "U.S. research credit", "3M_2018_10K.pdf")).toBeNull();
    // a note opening a statement's first label is no word of it: Pfizer's balance sheet
    const cash = "How much cash and cash equivalents did Pfizer have at the end of Q2 2023?";
    expect(named(cash, "(Unaudited) Assets Cash and cash equivalents", "Pfizer_2023Q2_10Q.pdf")).toEqual({ label: 0.75, question: 1 });
  });
});

describe("the Library's search of row labels", () => {
  it("searches a Library with more labelled chunks than a statement binds parameters", async () => {
    // a Durable Object's SQLite binds at most 100 parameters: 150 chunks with a "Revenue" row once broke the search
    const userLibrary = library(env, `row-labels-many-${crypto.randomUUID()}`);
    await userLibrary.enqueue("tables", "Tables.pdf");
    const { runId } = (await userLibrary.begin("tables"))!;
    const pages = Array.from(
      { length: 150 },
      (_, i) => `Segment ${i} 2023 2022 Revenue $ ${i + 1},000 $ ${i + 2},000 Cost of sales 500 600`,
    );
    await userLibrary.addPages("tables", runId, 1, pages, false);
    await userLibrary.finish("tables", runId);
    const hits = await userLibrary.search("What was revenue in 2023?", ["tables"], 50);
    expect(hits).toHaveLength(50);
  });
});

describe.skipIf(!corpus)("a statement's rows on real 10-K text", () => {
  // read once, when a test asks (the describe's body runs even when its tests are skipped)
  let pagesRead: Promise<string[]> | null = null;
  const tenK = () =>
    (pagesRead ??= corpusBytes("sec_financebench/BESTBUY_2023_10K.pdf")
      .then((bytes) => extractPdfPages(bytes, 1000))
      .then((read) => read.pages));

  it("keeps the labels of a statement's rows with its chunks, and none for running text", async () => {
    const pages = await tenK();
    const cashFlows = chunkPage(pages[41]!).flatMap((c) => c.rowLabels?.split("\n") ?? []);
    expect(cashFlows).toEqual(expect.arrayContaining(["Total cash provided by operating activities", "Dividends paid"]));
    // Item 1A's risk factors are running text
    const risks = pages.findIndex((p) => p.includes("External Risks"));
    expect(risks).toBeGreaterThan(-1);
    expect(chunkPage(pages[risks]!).filter((c) => c.rowLabels)).toEqual([]);
  });

  it("answers a short question for a statement's figure with the statement's row", { timeout: 60_000 }, async () => {
    const pages = await tenK();
    const userId = `row-labels-${crypto.randomUUID()}`;
    const userLibrary = library(env, userId);
    const documentId = "bby-10k";
    await userLibrary.enqueue(documentId, "BESTBUY_2023_10K.pdf");
    const { runId } = (await userLibrary.begin(documentId))!;
    await userLibrary.addPages(documentId, runId, 1, pages, false);
    await userLibrary.finish(documentId, runId);

    const ask = async (question: string) => {
      const passages = await retrievePassages(env, { userId, documentIds: [documentId], question });
      const answer = localAnswer({ question, passages, history: [], anonymous: false });
      const [, lead, n] = answer.split("\n")[0]!.match(/^(.*) \[(\d+)\]$/)!;
      return { lead, page: passages[Number(n) - 1]!.page };
    };
    // the cash flow statement's rows; before, "During fiscal 2023, our International segment's operations
    // generated approximately 8% of our revenue." led, and a sentence on the dividend per share
    const cash = await ask("How much cash did operations generate in fiscal 2023?");
    expect(cash.lead).toBe(
      "Total cash provided by operating activities: January 28, 2023 1,824; January 29, 2022 3,252; January 30, 2021 4,927 (in millions)",
    );
    expect(cash.page).toBe(42);
    const dividends = await ask("How much did Best Buy pay in dividends in fiscal 2023?");
    // a chunk that starts inside the statement, below its note, states no unit: none is guessed
    expect(dividends).toEqual({ lead: "Dividends paid: January 28, 2023 (789); January 29, 2022 (688); January 30, 2021 (568)", page: 42 });
    // the company's revenue, not its Domestic segment's ("Revenue: 2023 $42,794; ...", quoted before)
    const revenue = await ask("What was Best Buy's revenue in fiscal 2023?");
    expect(revenue.lead).toBe("Revenue: January 28, 2023 $46,298; January 29, 2022 $51,761; January 30, 2021 $47,262 (in millions)");
    // the balance sheet's row; before, a store table's first row ("... Total Stores at End of Fiscal Year Canada Best Buy") led
    const assets = await ask("What were total assets at the end of fiscal 2023?");
    expect(assets).toEqual({ lead: "Total assets: January 28, 2023 $15,803; January 29, 2022 $17,504 (in millions)", page: 39 });
  });

  it("finds the row in the file a question names among several, in a chat searching all of them", { timeout: 90_000 }, async () => {
    const userId = `row-labels-${crypto.randomUUID()}`;
    const userLibrary = library(env, userId);
    const add = async (documentId: string, fileName: string, pages: string[]) => {
      await userLibrary.enqueue(documentId, fileName);
      const { runId } = (await userLibrary.begin(documentId))!;
      await userLibrary.addPages(documentId, runId, 1, pages, false);
      await userLibrary.finish(documentId, runId);
    };
    await add("bby-10k", "BESTBUY_2023_10K.pdf", await tenK());
    const ulta = await corpusBytes("sec_financebench/ULTABEAUTY_2023Q4_EARNINGS.pdf");
    await add("ulta", "ULTABEAUTY_2023Q4_EARNINGS.pdf", (await extractPdfPages(ulta, 1000)).pages);
    // no documents attached: the question names Best Buy's file, whose whole-text search ranked
    // the cash flow statement's rows below its prose about dividends
    const question = "How much did Best Buy pay out in dividends in fiscal 2023?";
    const passages = await retrievePassages(env, { userId, question });
    const answer = localAnswer({ question, passages, history: [], anonymous: false });
    const [, lead, n] = answer.split("\n")[0]!.match(/^(.*) \[(\d+)\]$/)!;
    expect(lead).toBe("Dividends paid: January 28, 2023 (789); January 29, 2022 (688); January 30, 2021 (568)");
    expect(passages[Number(n) - 1]).toMatchObject({ documentId: "bby-10k", page: 42 });
  });
});
