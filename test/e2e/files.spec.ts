// My Files in a real browser against the real local pipeline (R2, Queue, unpdf):
// upload a generated PDF -> Indexed -> View opens it -> delete through the modal
// (a chat about it open in another tab loses its chip at once); a renamed text
// file is refused with a clear message.
import { expect, test, type Page } from "@playwright/test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { signUp } from "./helpers";

async function makePdf(lines: string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const line of lines) pdf.addPage([612, 792]).drawText(line, { x: 50, y: 700, size: 12, font });
  return Buffer.from(await pdf.save());
}

test("upload, index, view and delete a PDF on My Files", async ({ page, context }) => {
  await signUp(page, "files");
  await page.goto("/app/files");
  await expect(page.getByRole("heading", { name: "My Files" })).toBeVisible();

  const name = `Benefits-${Date.now()}.pdf`;
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload file" }).click();
  await (
    await chooser
  ).setFiles({
    name,
    mimeType: "application/pdf",
    buffer: await makePdf(["Dental coverage starts after ninety days.", "Vision coverage renews every January."]),
  });

  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row.getByText("Indexed")).toBeVisible({ timeout: 30_000 });

  const popup = context.waitForEvent("page");
  await row.getByRole("button", { name: `Actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: "View" }).click();
  const viewer = await popup;
  await viewer.waitForLoadState();
  expect(viewer.url()).toContain("/api/documents/file/");
  await viewer.close();
  // Opening it set "Last opened".
  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: name }).getByRole("cell").nth(3)).not.toHaveText("—");

  // a second tab chats about the file; deleting it here takes its chip away there at once
  const chatTab = await context.newPage();
  await chatTab.goto("/app/files");
  await chatTab.getByRole("button", { name: `Actions for ${name}` }).click();
  await chatTab.getByRole("menuitem", { name: "Chat about this file" }).click();
  const chatChips = chatTab.getByRole("list", { name: "Documents in this chat" });
  await expect(chatChips.getByText(name)).toBeVisible();

  await page
    .getByRole("row")
    .filter({ hasText: name })
    .getByRole("button", { name: `Actions for ${name}` })
    .click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(
    "Are you sure you want to delete this file? The file will be deleted and you can't revert this action.",
  );
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
  await expect(chatChips.getByText(name)).toHaveCount(0, { timeout: 5_000 });
  await page.reload();
  await expect(page.getByRole("heading", { name: "My Files" })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
});

test("a non-PDF upload shows a clear error", async ({ page }) => {
  await signUp(page, "files");
  await page.goto("/app/files");
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload file" }).click();
  await (await chooser).setFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("meeting notes") });
  await expect(page.getByRole("alert")).toContainText("Only PDF files can be uploaded.");
  await page.getByRole("button", { name: "Dismiss" }).click();
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("a text file renamed to .pdf ends Failed with the reason", async ({ page }) => {
  await signUp(page, "files");
  await page.goto("/app/files");
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload file" }).click();
  await (await chooser).setFiles({ name: "renamed.pdf", mimeType: "application/pdf", buffer: Buffer.from("not really a pdf at all") });
  const row = page.getByRole("row").filter({ hasText: "renamed.pdf" });
  await expect(row.getByText("Failed")).toBeVisible({ timeout: 20_000 });
  await expect(row).toContainText("Not a PDF");
});

test("on a phone, the selection bar leaves the last row and the pagination reachable", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUp(page, "files-selection");
  await page.goto("/app/files");
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload file" }).click();
  const files = await Promise.all(
    Array.from({ length: 11 }, async (_, i) => ({
      name: `Memo-${i + 1}.pdf`,
      mimeType: "application/pdf",
      buffer: await makePdf([`Memo number ${i + 1} about the travel policy.`]),
    })),
  );
  await (await chooser).setFiles(files);
  await expect(page.getByText("Page 1 of 2")).toBeVisible({ timeout: 30_000 });

  await page.getByRole("row").filter({ hasText: "Memo-" }).first().getByRole("cell").first().click();
  await expect(page.getByRole("toolbar", { name: "Selected files" })).toBeVisible();
  const next = page.getByRole("button", { name: /next/i });
  await next.scrollIntoViewIfNeeded();
  await page.mouse.wheel(0, 5000);
  // the Next button is what a tap on its centre reaches, not the bar above it
  const onTop = await next.evaluate((button) => {
    const box = button.getBoundingClientRect();
    return button.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
  });
  expect(onTop).toBe(true);
});
