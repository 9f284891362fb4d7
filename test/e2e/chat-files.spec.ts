// Chatting with one's own files, as a new user meets it, with the real PDFs of
// ../shared/corpus: upload the 417-page IRS Publication 17 and a 3M 10-K on My
// Files, pick Pub 17 in a new chat "From My Files", ask two questions (every
// cited source is Pub 17), reload (chips and messages stay), open "Chat about
// this file" for the 10-K; and upload the same Pub 17 again from the chat, which
// attaches the existing document instead of failing; a question asked right
// after uploading Pub 17 from the chat waits for its indexing and then answers,
// and so does one asked in a new chat (no file attached) right after uploading
// it on My Files. Form 1040 answers which line with the form's own line. A question
// naming the company, in a chat over all the files, answers from its 10-K. A change
// asked of a 10-Q's figure is worked out from the balance sheet's row, and one over
// its half year from the statement of earnings' six-month figures; a 10-K's
// figure asked in a few words is answered by its statement's row, the company's and
// not a segment's, also in a new chat over it and the 10-Q.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { ask, signUp, uploadOnMyFiles } from "./helpers";

const CORPUS = fileURLToPath(new URL("../../../shared/corpus/", import.meta.url));
const P17 = `${CORPUS}irs/p17.pdf`;
const TEN_K = `${CORPUS}sec_financebench/3M_2018_10K.pdf`;
const F1040 = `${CORPUS}irs/f1040.pdf`;
const TEN_Q = `${CORPUS}sec_financebench/BESTBUY_2024Q2_10Q.pdf`;
const BBY_TEN_K = `${CORPUS}sec_financebench/BESTBUY_2023_10K.pdf`;

test.skip(![P17, TEN_K, F1040, TEN_Q, BBY_TEN_K].every((file) => existsSync(file)), "needs ../shared/corpus beside the project");
test.setTimeout(180_000);

/** The file names of every source listed under the chat's answers. */
async function citedFiles(page: Page): Promise<string[]> {
  const entries = await page.locator(".chat-sources li").allTextContents();
  return entries.map((text) => text.replace(/^\[\d+\]\s*/, "").replace(/, p\. \d+$/, ""));
}

function chips(page: Page) {
  return page.getByRole("list", { name: "Documents in this chat" });
}

test("a chat about one file from My Files cites only that file, and keeps it after a reload", async ({ page }) => {
  await signUp(page, "files-chat");
  await uploadOnMyFiles(page, P17, "p17.pdf");
  await uploadOnMyFiles(page, TEN_K, "3M_2018_10K.pdf");

  await page.getByRole("button", { name: "New Chat" }).click();
  await expect(page.getByText("Searching all your files")).toBeVisible();
  await page.getByRole("button", { name: "Attach a file" }).click();
  await page.getByRole("menuitem", { name: "From My Files" }).click();
  const dialog = page.getByRole("dialog", { name: "Attach from My Files" });
  await dialog.getByRole("searchbox", { name: "Search your files" }).fill("p17");
  await dialog.getByRole("checkbox", { name: /p17\.pdf/ }).check();
  await dialog.getByRole("button", { name: "Attach 1 file" }).click();
  await expect(chips(page).getByText("p17.pdf")).toBeVisible();
  await expect(page.getByText("Searching all your files")).toBeHidden();

  await ask(page, "How much can I give to charity in cash and still deduct it?");
  await ask(page, "Can I deduct the sales taxes I paid instead of income taxes?");
  const cited = await citedFiles(page);
  expect(cited.length).toBeGreaterThan(1);
  expect(new Set(cited)).toEqual(new Set(["p17.pdf"]));

  await page.reload();
  await expect(chips(page).getByText("p17.pdf")).toBeVisible();
  await expect(page.getByText("How much can I give to charity in cash and still deduct it?")).toBeVisible();
  await expect(page.locator(".chat-message.bot")).toHaveCount(2);

  // My Files: "Chat about this file" opens a new chat with the 10-K attached
  await page.goto("/app/files");
  await page.getByRole("button", { name: "Actions for 3M_2018_10K.pdf" }).click();
  await page.getByRole("menuitem", { name: "Chat about this file" }).click();
  await expect(page).toHaveURL(/\/app\/chat$/);
  await expect(chips(page).getByText("3M_2018_10K.pdf")).toBeVisible();
  await expect(page.locator(".chat-message")).toHaveCount(0);
  await ask(page, "What were the net sales?");
  expect(new Set(await citedFiles(page))).toEqual(new Set(["3M_2018_10K.pdf"]));

  // a new chat searches all the files; a question naming the company answers from its 10-K, not from
  // Pub 17's rules on dependents and health insurance
  await page.getByRole("button", { name: "New Chat" }).click();
  await expect(page.getByText("Searching all your files")).toBeVisible();
  const answer = await ask(page, "What are 3M's rules on dependents and health insurance?");
  await expect(answer.locator(".chat-sources li").first()).toContainText("3M_2018_10K.pdf");
});

test("uploading from the chat a PDF already in My Files attaches the existing document", async ({ page }) => {
  await signUp(page, "files-dup");
  await uploadOnMyFiles(page, P17, "p17.pdf");

  await page.getByRole("button", { name: "New Chat" }).click();
  await page.getByRole("button", { name: "Attach a file" }).click();
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("menuitem", { name: "Upload file" }).click();
  await (await chooser).setFiles(P17);
  // the chip of the attached document (the upload's own chip has no remove button)
  await expect(chips(page).getByRole("button", { name: "Remove p17.pdf" })).toBeVisible({ timeout: 30_000 });

  const answer = await ask(page, "When is my tax return due if I live abroad?");
  await expect(answer).not.toContainText("not found");
  expect(new Set(await citedFiles(page))).toEqual(new Set(["p17.pdf"]));

  // still one p17.pdf on My Files
  await page.goto("/app/files");
  await expect(page.getByRole("row").filter({ hasText: "p17.pdf" })).toHaveCount(1);
});

// The chip and the placeholder show "Indexing p17.pdf… n/417 pages" while the
// question waits (asserted in the client and worker tests); here only the outcome
// is asserted, because locally one thread runs both the indexer and the chat, so
// how much of the progress reaches the page depends on the machine.
test("a question asked right after uploading a long PDF from the chat waits for it, then answers from it", async ({ page }) => {
  await signUp(page, "files-progress");
  await page.getByRole("button", { name: "New Chat" }).click();
  await page.getByRole("button", { name: "Attach a file" }).click();
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("menuitem", { name: "Upload file" }).click();
  await (await chooser).setFiles(P17);
  const chip = chips(page)
    .getByRole("listitem")
    .filter({ has: page.getByRole("button", { name: "Remove p17.pdf" }) });
  await expect(chip).toBeVisible({ timeout: 30_000 });

  const box = page.getByPlaceholder("Ask me!");
  await box.fill("How long should I keep my tax records?");
  await box.press("Enter");
  await expect(page.locator(".chat-message.bot .chat-sources")).toBeVisible({ timeout: 90_000 });
  expect(new Set(await citedFiles(page))).toEqual(new Set(["p17.pdf"]));
  await expect(chip).not.toContainText("Indexing");
});

test("a question in a new chat right after uploading a long PDF on My Files waits for it, then answers from it", async ({ page }) => {
  await signUp(page, "files-all");
  await page.goto("/app/files");
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload file" }).click();
  await (await chooser).setFiles(P17);
  await expect(page.getByRole("row").filter({ hasText: "p17.pdf" })).toBeVisible({ timeout: 30_000 });

  // no file attached: the question searches all the user's files, and Pub 17 is still being read
  await page.getByRole("button", { name: "New Chat" }).click();
  await expect(page.getByText("Searching all your files")).toBeVisible();
  const answer = await ask(page, "I won't make the April deadline, how much more time can I get?");
  await expect(answer).not.toContainText("I could not find");
  await expect(answer).toContainText(/extension/i);
  expect(new Set(await citedFiles(page))).toEqual(new Set(["p17.pdf"]));
});

test("a question about Form 1040 is answered with the form's line, its number and its words", async ({ page }) => {
  await signUp(page, "files-form");
  await uploadOnMyFiles(page, F1040, "f1040.pdf");
  await page.getByRole("button", { name: "New Chat" }).click();
  const answer = await ask(page, "Which line of Form 1040 has my adjusted gross income?");
  const lead = /^Line 11: Subtract line 10 from line 9\. This is your adjusted gross income \[(\d+)\]/;
  await expect(answer).toContainText(lead);
  // the lead's citation is the form's first page
  const n = Number(lead.exec((await answer.textContent())!)![1]);
  await expect(answer.locator(".chat-sources li").nth(n - 1)).toHaveText(`[${n}] f1040.pdf, p. 1`);
});

test("a change asked of a quarterly report's figure is worked out from its balance sheet row, cited to its page", async ({ page }) => {
  await signUp(page, "files-change");
  await uploadOnMyFiles(page, TEN_Q, "BESTBUY_2024Q2_10Q.pdf");
  await page.getByRole("button", { name: "Actions for BESTBUY_2024Q2_10Q.pdf" }).click();
  await page.getByRole("menuitem", { name: "Chat about this file" }).click();
  const answer = await ask(page, "Did cash and cash equivalents drop between January 28, 2023 and July 29, 2023?");
  const row =
    /Cash and cash equivalents: July 29, 2023 \$1,093; January 28, 2023 \$1,874; July 30, 2022 \$840 \(in millions\) \(from January 28, 2023 to July 29, 2023: down \$781, or 42%\) \[(\d+)\]/;
  await expect(answer).toContainText(row);
  // cited to a page that holds the row (the balance sheet, p. 3; the same figures in the notes, p. 8, and on p. 20)
  const n = Number(row.exec((await answer.textContent())!)![1]);
  await expect(answer.locator(".chat-sources li").nth(n - 1)).toHaveText(
    new RegExp(`^\\[${n}\\] BESTBUY_2024Q2_10Q\\.pdf, p\\. (3|8|20)$`),
  );

  // the statement of earnings heads its figures with their periods, and the change asked is the half year's
  const earnings = await ask(page, "Did net earnings drop in the first six months of fiscal 2024?");
  await expect(earnings).toContainText(
    /Net earnings: Three months ended July 29, 2023 \$274; Three months ended July 30, 2022 \$306; Six months ended July 29, 2023 \$518; Six months ended July 30, 2022 \$647(?: \(in millions\))? \(from Six months ended July 30, 2022 to July 29, 2023: down \$129, or 20%\)/,
  );

  // a figure asked for a period: the statement's row (the company's, not a segment's), its heads naming the period
  const revenue = await ask(page, "What was revenue in the second quarter of fiscal 2024?");
  await expect(revenue).toContainText(
    "Revenue: Three months ended July 29, 2023 $9,583; Three months ended July 30, 2022 $10,329; Six months ended July 29, 2023 $19,050; Six months ended July 30, 2022 $20,976 (in millions)",
  );
});

test("a 10-K's figure asked in a few words is answered by its statement's row, the company's, cited to its page", async ({ page }) => {
  await signUp(page, "files-rows");
  await uploadOnMyFiles(page, BBY_TEN_K, "BESTBUY_2023_10K.pdf");
  await page.getByRole("button", { name: "Actions for BESTBUY_2023_10K.pdf" }).click();
  await page.getByRole("menuitem", { name: "Chat about this file" }).click();
  const citedPage = async (answer: Locator, lead: RegExp) => {
    const n = Number(lead.exec((await answer.textContent())!)![1]);
    return (await answer
      .locator(".chat-sources li")
      .nth(n - 1)
      .textContent())!.replace(`[${n}] `, "");
  };

  // the cash flow statement's row, where the dividend per share was quoted
  const dividends = await ask(page, "How much did Best Buy pay in dividends in fiscal 2023?");
  const paid =
    /Dividends paid: January 28, 2023 \(789\); January 29, 2022 \(688\); January 30, 2021 \(568\)(?: \(in millions\))? \[(\d+)\]/;
  await expect(dividends).toContainText(paid);
  expect(await citedPage(dividends, paid)).toBe("BESTBUY_2023_10K.pdf, p. 42");

  // the statement of earnings' revenue, not the Domestic segment's ($42,794)
  const revenue = await ask(page, "What was Best Buy's revenue in fiscal 2023?");
  const total = /Revenue: January 28, 2023 \$46,298; January 29, 2022 \$51,761; January 30, 2021 \$47,262 \(in millions\) \[(\d+)\]/;
  await expect(revenue).toContainText(total);
  await expect(revenue).not.toContainText("42,794");
  expect(await citedPage(revenue, total)).toBe("BESTBUY_2023_10K.pdf, p. 40");

  // whether a rate held: its row of percents, and the points it moved
  const margins = await ask(
    page,
    "Are Best Buy's gross margins historically consistent? If gross margins are not relevant for a retailer, explain why.",
  );
  await expect(margins).toContainText(
    /Gross profit as a % of revenue: 2023 21\.[34]%; 2022 22\.[45]%; 2021 22\.[45]% \(from 2022 to 2023: down 1\.1 percentage points\)/,
  );

  // with its 10-Q on My Files too, a new chat searches both: the question names the company, whose
  // files' statement rows are found as in a chat about one of them
  await uploadOnMyFiles(page, TEN_Q, "BESTBUY_2024Q2_10Q.pdf");
  await page.getByRole("button", { name: "New Chat" }).click();
  await expect(page.getByText("Searching all your files")).toBeVisible();
  const overBoth = await ask(page, "What was Best Buy's revenue in fiscal 2023?");
  await expect(overBoth).toContainText(total);
  await expect(overBoth).not.toContainText("42,794");
  expect(await citedPage(overBoth, total)).toBe("BESTBUY_2023_10K.pdf, p. 40");
});
