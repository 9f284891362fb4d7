// Exporting a chat (#45 item 4) as a new user does it, with the IRS Form W-9 of ../shared/corpus:
// upload it on My Files, "Chat about this file", ask a question, then Export chat -> Markdown and
// Export chat -> PDF each download a file named after the chat; the Markdown holds the question and
// the answer's first source as "[1] fw9.pdf, p. N", the PDF starts with "%PDF-". Skipped without the corpus.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test, type Page } from "@playwright/test";
import { ask, signUp, uploadOnMyFiles } from "./helpers";

const CORPUS = fileURLToPath(new URL("../../../shared/corpus/", import.meta.url));
const W9 = `${CORPUS}irs/fw9.pdf`;
const QUESTION = "Who must give a Form W-9 to a requester?";

async function chatAbout(page: Page, name: string) {
  await page.getByRole("button", { name: `Actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: "Chat about this file" }).click();
  await expect(page).toHaveURL(/\/app\/chat$/);
  await expect(page.getByRole("list", { name: "Documents in this chat" }).getByText(name)).toBeVisible();
}

/** Chooses a format in the Export chat menu and returns the downloaded file's name and bytes. */
async function exportAs(page: Page, format: "Markdown" | "PDF") {
  await page.getByRole("button", { name: "Export chat" }).click();
  const download = page.waitForEvent("download");
  await page.getByRole("menu", { name: "Export chat" }).getByRole("menuitem", { name: format }).click();
  const file = await download;
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

test.skip(!existsSync(W9), "needs ../shared/corpus");

test("a chat about fw9.pdf exports as Markdown and as PDF", async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, "export");
  await uploadOnMyFiles(page, W9, "fw9.pdf");
  await chatAbout(page, "fw9.pdf");
  const answer = await ask(page, QUESTION);
  await expect(answer.getByRole("button", { name: "Copy" })).toBeVisible({ timeout: 30_000 });
  const firstSource = (await answer.locator(".chat-sources li").first().innerText()).trim();
  expect(firstSource).toMatch(/^\[1\] fw9\.pdf, p\. \d+/);

  const md = await exportAs(page, "Markdown");
  expect(md.name).toMatch(/\.md$/);
  const text = md.bytes.toString("utf8");
  expect(text).toContain(QUESTION);
  expect(text).toContain("[1] fw9.pdf, p.");
  expect(text).toContain(firstSource);

  const pdf = await exportAs(page, "PDF");
  expect(pdf.name).toBe(md.name.replace(/\.md$/, ".pdf"));
  expect(pdf.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  await expect(page.getByRole("alert")).toHaveCount(0);
});
