// An answer's citations as a new user meets them (issue #42), with real PDFs of
// ../shared/corpus: upload the IRS Form W-9 (and, in a second test, the 417-page
// Publication 17) on My Files, "Chat about this file", ask questions whose answers
// quote several pages and list more under "See also". For each answer: the [n]
// markers, in reading order, first use 1, 2, 3, ... with no gap, and each is a
// link to a listed source; the Sources list has one entry per file and page, as
// many as the highest number; the "See also" line names only sources not quoted
// above it. Opening the first citation shows its page in the viewer with the
// quoted passage marked; stepping through every source, each page is shown with
// a passage marked, every passage quoted under that number is marked, and no
// "could not be marked" note appears. A question a table answers (the tax table, the filing
// requirements) leads with the table's row, labelled, and its citation opens the table's page.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { ask, signUp, uploadOnMyFiles } from "./helpers";

const CORPUS = fileURLToPath(new URL("../../../shared/corpus/", import.meta.url));
const W9 = `${CORPUS}irs/fw9.pdf`;
const P17 = `${CORPUS}irs/p17.pdf`;

const CITATION = /\[(\d+)\]/g;
const SEE_ALSO = /^See also:\s*((?:\[\d+\]\s*)+)$/m;
const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

async function chatAbout(page: Page, name: string) {
  await page.getByRole("button", { name: `Actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: "Chat about this file" }).click();
  await expect(page).toHaveURL(/\/app\/chat$/);
  await expect(page.getByRole("list", { name: "Documents in this chat" }).getByText(name)).toBeVisible();
}

/** Asks a question and waits for the whole answer (its Copy button shows once it has stopped streaming). */
async function askWhole(page: Page, question: string): Promise<Locator> {
  const answer = await ask(page, question);
  await expect(answer.getByRole("button", { name: "Copy" })).toBeVisible({ timeout: 30_000 });
  return answer;
}

interface Source {
  n: number;
  file: string;
  page: number;
}

interface Checked {
  sources: Source[];
  /** the quoted text before each [n] above the "See also" line, by n */
  quotes: Map<number, string[]>;
}

/** The answer's citations and sources, checked for numbering, one source per page and "See also". */
async function checkCitations(answer: Locator, file: string): Promise<Checked> {
  const text = (await answer.locator(".rich-text").innerText()).trim();
  const entries = await answer.locator(".chat-sources li").allTextContents();
  const report = `answer:\n${text}\nsources: ${JSON.stringify(entries)}`;

  // citation numbers in reading order, from the text and from the links the reader clicks
  const markers = [...text.matchAll(CITATION)].map((m) => Number(m[1]));
  const links = (await answer.locator(".rich-text a.citation").allTextContents()).map((t) => Number(/^\[(\d+)\]$/.exec(t.trim())?.[1]));
  expect(links, `every [n] of the answer is a citation link\n${report}`).toEqual(markers);
  const firstUses = [...new Set(markers)];
  expect(firstUses.length, `the answer cites several sources\n${report}`).toBeGreaterThan(2);
  expect(firstUses, `first uses are 1, 2, 3, ... with no gap\n${report}`).toEqual(firstUses.map((_, i) => i + 1));

  // the source list: [n] file, p. N in order; one entry per file and page; as many as the highest [n]
  const sources = entries.map((entry, i) => {
    const m = /^\[(\d+)\] (.+), p\. (\d+)$/.exec(entry.trim());
    expect(m, `source entry "${entry}" reads "[n] file, p. N"\n${report}`).not.toBeNull();
    expect(Number(m![1]), `source entries are numbered in order\n${report}`).toBe(i + 1);
    return { n: Number(m![1]), file: m![2]!, page: Number(m![3]) };
  });
  expect(new Set(sources.map((s) => s.file)), `every source is the chat's file\n${report}`).toEqual(new Set([file]));
  const pages = sources.map((s) => `${s.file}:${s.page}`);
  expect(new Set(pages).size, `no file and page is listed twice\n${report}`).toBe(pages.length);
  expect(sources.length, `as many sources as the highest citation\n${report}`).toBe(Math.max(...markers));

  // "See also": only sources not quoted above it
  const seeAlso = SEE_ALSO.exec(text);
  expect(seeAlso, `the answer has a "See also" line\n${report}`).not.toBeNull();
  expect(text, `the answer has supporting quotes\n${report}`).toContain("Also in your documents:");
  const above = text.slice(0, seeAlso!.index);
  const quoted = new Set([...above.matchAll(CITATION)].map((m) => Number(m[1])));
  const also = [...seeAlso![1]!.matchAll(CITATION)].map((m) => Number(m[1]));
  expect(also.length, `the "See also" line names sources\n${report}`).toBeGreaterThan(0);
  for (const n of also) expect(quoted.has(n), `See also's [${n}] was not quoted above it\n${report}`).toBe(false);
  expect(new Set(also).size, `See also names each source once\n${report}`).toBe(also.length);

  // what is quoted under each number: the text of a line before its [n]
  const quotes = new Map<number, string[]>();
  for (const line of above.split("\n")) {
    let from = 0;
    for (const m of line.matchAll(CITATION)) {
      const quote = line.slice(from, m.index).trim();
      from = m.index! + m[0].length;
      if (quote) quotes.set(Number(m[1]), [...(quotes.get(Number(m[1])) ?? []), quote]);
    }
  }
  expect(quotes.get(1)?.length, `the lead quotes a passage under [1]\n${report}`).toBeGreaterThan(0);
  return { sources, quotes };
}

/** The viewer shows source `s`'s page, with a passage marked, each quote under its number marked, and no note. */
async function checkViewerShows(viewer: Locator, s: Source, total: number, quotes: readonly string[]) {
  await expect(viewer.locator(".doc-viewer-title strong")).toHaveText(`[${s.n}] ${s.file}`);
  await expect(viewer.getByText(`p. ${s.page}`, { exact: true })).toBeVisible();
  await expect(viewer.getByText(`${s.n} / ${total}`)).toBeVisible();
  const shown = viewer.locator(`.pdf-page[data-page="${s.page}"]`);
  await expect(shown.locator("canvas")).toBeVisible({ timeout: 30_000 });
  await expect(viewer.locator(".pdf-page-wrap")).toHaveAttribute("aria-busy", "false");
  const marks = shown.locator("mark.cited-passage");
  await expect(marks.first(), `[${s.n}] ${s.file}, p. ${s.page} has a marked passage`).toBeVisible();
  await expect(viewer.getByText("could not be marked")).toHaveCount(0);
  await expect(viewer.locator(".viewer-error")).toHaveCount(0);
  const marked = new Set(words((await marks.allTextContents()).join(" ")));
  for (const quote of quotes) {
    const quoteWords = words(quote).filter((w) => w.length > 3);
    const overlap = quoteWords.filter((w) => marked.has(w)).length / Math.max(1, quoteWords.length);
    expect(overlap, `the passage quoted under [${s.n}] is marked on p. ${s.page}: "${quote}"`).toBeGreaterThan(0.8);
  }
}

/** Opens the answer's first citation, then steps through every source with "Next citation"; closes the viewer. */
async function checkViewer(page: Page, answer: Locator, { sources, quotes }: Checked) {
  await answer.locator(".rich-text a.citation").first().click();
  const viewer = page.getByRole("complementary", { name: "Document viewer" });
  await expect(viewer).toBeVisible();
  for (const [i, s] of sources.entries()) {
    if (i > 0) await viewer.getByRole("button", { name: "Next citation" }).click();
    await checkViewerShows(viewer, s, sources.length, quotes.get(s.n) ?? []);
  }
  await expect(viewer.getByRole("button", { name: "Next citation" })).toBeDisabled();
  await page.keyboard.press("Escape");
  await expect(viewer).toBeHidden();

  // a source opened from the Sources list shows the same page, marked
  const last = sources[sources.length - 1]!;
  await answer.locator(".chat-sources a").last().click();
  await checkViewerShows(viewer, last, sources.length, quotes.get(last.n) ?? []);
  await page.keyboard.press("Escape");
  await expect(viewer).toBeHidden();
}

async function checkQuestions(page: Page, file: string, questions: readonly string[]) {
  for (const question of questions) {
    await test.step(question, async () => {
      const answer = await askWhole(page, question);
      const checked = await checkCitations(answer, file);
      await checkViewer(page, answer, checked);
    });
  }
}

test.describe("citations", () => {
  test.setTimeout(180_000);

  test("a W-9 answer's citations are numbered in order of use, one per page, and open marked in the viewer", async ({ page }) => {
    test.skip(!existsSync(W9), "needs ../shared/corpus beside the project");
    await signUp(page, "citations");
    await uploadOnMyFiles(page, W9, "fw9.pdf");
    await chatAbout(page, "fw9.pdf");
    await checkQuestions(page, "fw9.pdf", [
      "Who must give a TIN and what happens if I don't?",
      "When is backup withholding required?",
      "How do I certify my TIN?",
    ]);
  });

  test("a long publication's answer cites its pages the same way", async ({ page }) => {
    test.skip(!existsSync(P17), "needs ../shared/corpus beside the project");
    await signUp(page, "citations-p17");
    await uploadOnMyFiles(page, P17, "p17.pdf");
    await chatAbout(page, "p17.pdf");
    await checkQuestions(page, "p17.pdf", ["When is my tax return due if I live abroad?", "How long should I keep my tax records?"]);
    // a table's answer is its row, labelled, and its citation opens the table's page marked
    const tables: [string, string, number][] = [
      [
        "I'm single and my taxable income came out to $35,220. What does the tax table say I owe?",
        "Taxable income at least 35,200 but less than 35,250: Single 4,007;",
        405,
      ],
      [
        "I'm single and under 65. At what level of gross income do I have to file?",
        "Single, under 65: file a return if your gross income was at least $14,600",
        15,
      ],
    ];
    for (const [question, row, tablePage] of tables) {
      await test.step(question, async () => {
        const answer = await askWhole(page, question);
        const lead = (await answer.locator(".rich-text").innerText()).trim().split("\n")[0]!;
        expect(lead.startsWith(row), `the answer leads with the row: ${lead}`).toBe(true);
        await answer.locator(".rich-text a.citation").first().click();
        const viewer = page.getByRole("complementary", { name: "Document viewer" });
        await expect(viewer.getByText(`p. ${tablePage}`, { exact: true })).toBeVisible();
        await expect(viewer.locator(`.pdf-page[data-page="${tablePage}"] mark.cited-passage`).first()).toBeVisible({ timeout: 30_000 });
        await page.keyboard.press("Escape");
        await expect(viewer).toBeHidden();
      });
    }
    // where to reach someone is answered by the number or the address itself; a due date by the rule,
    // not a worked example's dates (the Browns' real estate taxes "became due on May 31, 2024")
    const reach: [string, string][] = [
      ["What number can I call to report an IRS employee's misconduct confidentially?", "800-366-4484"],
      ["I'd like to mail a check to help pay down the national debt. What address do I send it to?", "P.O. Box 2188"],
      ["When is my 2024 tax return due?", "April 15, 2025"],
    ];
    for (const [question, stated] of reach) {
      await test.step(question, async () => {
        const answer = await askWhole(page, question);
        const lead = (await answer.locator(".rich-text").innerText()).trim().split("\n")[0]!;
        expect(lead, "the lead states the number, the address or the date").toContain(stated);
      });
    }
  });
});
