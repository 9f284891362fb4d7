// Folders on My Files and a chat about a folder (issue 45), with the real IRS PDFs
// of ../shared/corpus: upload Publication 17, Form W-4 and Form W-9, make a folder
// "Tax" with New folder, move p17 and fw4 into it (the folder bar counts 2), open
// "Chat about this folder" (the chips name the folder with its count) and ask a
// question one of them answers; then move fw9 into the folder on My Files, go
// back to the same chat, and a question only fw9 answers cites fw9. A new chat
// scoped to the folder from "From My Files" shows the folder's three files.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test, type Page } from "@playwright/test";
import { ask, signUp, uploadOnMyFiles } from "./helpers";

const CORPUS = fileURLToPath(new URL("../../../shared/corpus/irs/", import.meta.url));
const P17 = `${CORPUS}p17.pdf`;
const FW4 = `${CORPUS}fw4.pdf`;
const FW9 = `${CORPUS}fw9.pdf`;

test.skip(![P17, FW4, FW9].every((file) => existsSync(file)), "needs ../shared/corpus beside the project");
test.setTimeout(300_000);

/** The file names of the sources listed under one answer. */
async function sourceFiles(answer: ReturnType<Page["locator"]>): Promise<string[]> {
  const entries = await answer.locator(".chat-sources li").allTextContents();
  return entries.map((text) => text.replace(/^\[\d+\]\s*/, "").replace(/, p\. \d+$/, ""));
}

/** "Move to folder" from the file's row menu, into the named folder. */
async function moveToFolder(page: Page, fileName: string, folder: string) {
  await page.getByRole("button", { name: `Actions for ${fileName}` }).click();
  await page.getByRole("menuitem", { name: "Move to folder" }).click();
  const dialog = page.getByRole("dialog", { name: "Move to folder" });
  await dialog.getByRole("button", { name: folder, exact: true }).click();
  await expect(dialog).toBeHidden();
}

test("a chat about a folder cites its files, and follows a file moved into it later", async ({ page }) => {
  await signUp(page, "folders");
  await uploadOnMyFiles(page, P17, "p17.pdf");
  await uploadOnMyFiles(page, FW4, "fw4.pdf");
  await uploadOnMyFiles(page, FW9, "fw9.pdf");

  await page.getByRole("button", { name: "New folder" }).click();
  const create = page.getByRole("dialog", { name: "New folder" });
  await create.getByLabel("Folder name").fill("Tax");
  await create.getByRole("button", { name: "Create" }).click();
  await expect(create).toBeHidden();
  const bar = page.getByRole("navigation", { name: "Folders" });
  await expect(bar.getByRole("button", { name: "Tax (0)" })).toBeVisible();

  await moveToFolder(page, "p17.pdf", "Tax");
  await moveToFolder(page, "fw4.pdf", "Tax");
  await expect(bar.getByRole("button", { name: "Tax (2)" })).toBeVisible();

  await bar.getByRole("button", { name: "Actions for Tax" }).click();
  await page.getByRole("menuitem", { name: "Chat about this folder" }).click();
  await expect(page).toHaveURL(/\/app\/chat/);
  const chips = page.getByRole("list", { name: "Documents in this chat" });
  await expect(chips.getByText("Folder Tax (2 files)")).toBeVisible();
  await expect(chips.getByText("p17.pdf")).toBeVisible();
  await expect(chips.getByText("fw4.pdf")).toBeVisible();
  await expect(chips.getByText("fw9.pdf")).toHaveCount(0);

  const first = await ask(page, "How do I figure my withholding on Form W-4 when I have multiple jobs?");
  const firstSources = await sourceFiles(first);
  expect(firstSources.length).toBeGreaterThan(0);
  expect(firstSources.some((name) => name === "p17.pdf" || name === "fw4.pdf")).toBe(true);
  expect(firstSources).not.toContain("fw9.pdf");

  // fw9 moves into the folder on My Files; the same chat then searches it too
  await page.getByRole("button", { name: "Files", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/files/);
  await moveToFolder(page, "fw9.pdf", "Tax");
  await expect(bar.getByRole("button", { name: "Tax (3)" })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/app\/chat/);
  await expect(page.locator(".chat-message.bot .chat-sources").first()).toBeVisible();
  await expect(chips.getByText("Folder Tax (3 files)")).toBeVisible();
  await expect(chips.getByText("fw9.pdf")).toBeVisible();

  const second = await ask(page, "What is Form W-9 used for to certify a taxpayer identification number?");
  expect(await sourceFiles(second)).toContain("fw9.pdf");

  // From My Files offers the folder: choosing it scopes a new chat to it
  await page.getByRole("button", { name: "New Chat" }).click();
  await page.getByRole("button", { name: "Attach a file" }).click();
  await page.getByRole("menuitem", { name: "From My Files" }).click();
  const picker = page.getByRole("dialog", { name: "Attach from My Files" });
  await picker.getByRole("list", { name: "Your folders" }).getByRole("button", { name: "Folder Tax (3 files)" }).click();
  await expect(picker).toBeHidden();
  await expect(chips.getByText("Folder Tax (3 files)")).toBeVisible();
  for (const name of ["p17.pdf", "fw4.pdf", "fw9.pdf"]) await expect(chips.getByText(name)).toBeVisible();
});
