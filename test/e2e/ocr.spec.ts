// Scanned PDFs in a real browser (issue 17): a generated two-page scan whose
// text is known is uploaded on My Files -> "Needs text recognition" -> the
// browser recognises it page by page with progress -> Indexed -> a chat about
// it answers a question about a phrase only on page 2, citing page 2 as
// recognised text. The recognised text (as posted to the server) must match
// the known text to at least 95% of its characters.
import { expect, test, type Request } from "@playwright/test";
import type { OcrPagesRequest } from "../../worker/contract/documents";
import { signUp } from "./helpers";
import { characterAccuracy, makeScannedPdf, SCANNED_PAGES } from "./scanned-pdf";

const MIN_ACCURACY = 0.95;

test("a scanned PDF is recognised in the browser, indexed and cited as recognised text", async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, "ocr");
  await page.goto("/app/files");

  // every page's text the browser sends, as sent
  const sent: OcrPagesRequest["pages"] = [];
  const sentAt: number[] = [];
  page.on("request", (request: Request) => {
    if (request.method() === "POST" && request.url().endsWith("/ocr-pages")) {
      sent.push(...(request.postDataJSON() as OcrPagesRequest).pages);
      sentAt.push(Date.now());
    }
  });
  // the assets come from our own origin, never a CDN
  const assetHosts = new Set<string>();
  page.on("request", (request: Request) => {
    if (/tesseract|traineddata/.test(request.url())) assetHosts.add(new URL(request.url()).origin);
  });

  const name = `Scanned-${Date.now()}.pdf`;
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload file" }).click();
  await (await chooser).setFiles({ name, mimeType: "application/pdf", buffer: await makeScannedPdf(page) });

  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row.getByText("Needs text recognition")).toBeVisible({ timeout: 30_000 });
  // it starts by itself, with per-page progress
  const progress = row.getByRole("progressbar", { name: `Recognising the text of ${name}` });
  await expect(progress).toBeVisible();
  const started = Date.now();
  await expect(progress).toHaveAttribute("aria-valuetext", /Recognising page [12] of 2/);
  await expect(row.getByText("Indexed")).toBeVisible({ timeout: 120_000 });
  const seconds = (Date.now() - started) / 1000;

  expect(sent.map((p) => p.page).sort()).toEqual([1, 2]);
  const recognised = [1, 2].map((n) => sent.find((p) => p.page === n)!.text).join(" ");
  const accuracy = characterAccuracy(recognised, SCANNED_PAGES.join(" "));
  test
    .info()
    .annotations.push(
      { type: "character accuracy", description: accuracy.toFixed(4) },
      { type: "pages per second (engine load included)", description: (2 / seconds).toFixed(2) },
      { type: "seconds between the two pages", description: ((sentAt[1]! - sentAt[0]!) / 1000).toFixed(2) },
    );
  expect(accuracy).toBeGreaterThanOrEqual(MIN_ACCURACY);
  expect([...assetHosts]).toEqual([new URL(page.url()).origin]);

  // the list agrees after a reload: nothing waits any more
  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: name }).getByText("Indexed")).toBeVisible();
  await expect(page.getByRole("button", { name: "Recognise text" })).toHaveCount(0);

  // a chat about it finds the phrase that exists only in page 2's recognised text
  await page
    .getByRole("row")
    .filter({ hasText: name })
    .getByRole("button", { name: `Actions for ${name}` })
    .click();
  await page.getByRole("menuitem", { name: "Chat about this file" }).click();
  await expect(page).toHaveURL(/\/app\/chat$/);
  const box = page.getByPlaceholder("Ask me!");
  await box.fill("When is the lighthouse keeper pension paid?");
  await box.press("Enter");
  // page 1 shares none of the question's words: the passage found is page 2's recognised text
  const answer = page.locator(".chat-message.bot").last();
  await expect(answer.getByRole("link", { name: `[1] ${name}, p. 2 (recognised text)` })).toBeVisible({ timeout: 30_000 });
  await expect(answer.getByRole("link", { name: "[1]" }).first()).toHaveAttribute("title", `${name}, p. 2 (recognised text)`);
});
