// Controlling answers and files in a real browser, as a new user meets them: two
// PDFs dropped together on My Files each get a row and end Indexed; in a chat,
// Stop right after sending keeps the answer marked stopped after a reload;
// Regenerate replaces the last answer; a follow-up suggestion (from the cited
// page's headings) asks its question with one click. PDFs dropped on the chat's
// composer join the chat (a text file is refused by name), two at once both stay.
import { expect, test, type Page } from "@playwright/test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { signUp } from "./helpers";

/** A PDF with one page per list of lines. */
async function policyPdf(...pages: string[][]): Promise<number[]> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([612, 792]);
    lines.forEach((line, i) => page.drawText(line, { x: 50, y: 740 - i * 18, size: 11, font }));
  }
  return [...(await pdf.save())];
}

/** Drops files on the element the way a browser does: dragenter, dragover, drop with a DataTransfer. */
async function dropFiles(page: Page, selector: string, files: { name: string; bytes: number[] }[]) {
  await page.evaluate(
    ({ selector, files }) => {
      const target = document.querySelector(selector)!;
      const data = new DataTransfer();
      for (const f of files) data.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: "application/pdf" }));
      for (const type of ["dragenter", "dragover", "drop"])
        target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }));
    },
    { selector, files },
  );
}

const HANDBOOK = [
  "Leave policy.",
  "Parental leave is sixteen weeks at full pay for every employee.",
  "Sick leave.",
  "Employees get ten sick days a year, paid in full.",
  "Remote work.",
  "Staff may work from home two days a week with approval.",
];
// three pages about sick days: a question about them has an answer citing each
const SICK_DAYS = [1, 2, 3].map((n) => [
  `Sick days rule ${n}: unused sick days carry over to the next calendar year, up to a limit of twenty sick days,`,
  `and employees who need more sick days for a long illness may ask the human resources team for extra paid sick`,
  `days, which are granted case by case after a doctor's note is received by the office manager in writing.`,
]);

test("two PDFs dropped on My Files, then stop, regenerate and a suggestion in a chat about them", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, "controls");
  await page.goto("/app/files");
  await expect(page.getByRole("heading", { name: "My Files" })).toBeVisible();
  await dropFiles(page, ".files-page .drop-zone", [
    { name: "Handbook.pdf", bytes: await policyPdf(HANDBOOK) },
    { name: "Sick days.pdf", bytes: await policyPdf(...SICK_DAYS) },
  ]);
  for (const name of ["Handbook.pdf", "Sick days.pdf"])
    await expect(page.getByRole("row").filter({ hasText: name }).getByText("Indexed")).toBeVisible({ timeout: 30_000 });

  await page.getByRole("button", { name: "New Chat" }).click();
  const box = page.getByPlaceholder("Ask me!");

  // Stop right after sending: what was written is kept, marked stopped, also after a reload
  await box.fill("Can unused sick days carry over to the next year?");
  // Enter, then Escape at once (the Stop button does the same): pressed one after the other, a
  // slow machine could let the short local answer end before Escape lands
  await box.evaluate((input) => {
    for (const key of ["Enter", "Escape"]) input.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
  });
  await expect(page.getByText("You stopped this answer.")).toBeVisible();
  await page.reload();
  await expect(page.getByText("You stopped this answer.")).toBeVisible();
  await expect(page.getByText("Can unused sick days carry over to the next year?")).toBeVisible();

  // a full answer, then Regenerate replaces it (one answer to the question, not two)
  await box.fill("How long is parental leave?");
  await box.press("Enter");
  const last = page.locator(".chat-message").last();
  await expect(last).toContainText("sixteen weeks", { timeout: 30_000 });
  await expect(page.locator(".chat-message.bot")).toHaveCount(2);
  await last.getByRole("button", { name: "Regenerate" }).click();
  await expect(page.locator(".chat-message").last()).toContainText("sixteen weeks", { timeout: 30_000 });
  await expect(page.locator(".chat-message.bot")).toHaveCount(2);

  // a suggestion from the cited page's headings asks its question
  const suggestions = page.getByRole("list", { name: "Suggested questions" });
  const suggestion = suggestions.getByRole("button", { name: "What does Handbook.pdf say about remote work?" });
  await expect(suggestion).toBeVisible();
  await suggestion.click();
  await expect(page.locator(".chat-message.bot").last()).toContainText("work from home two days a week", { timeout: 30_000 });
});

test("PDFs dropped on the chat's composer join the chat; a text file is refused by name", async ({ page }) => {
  await signUp(page, "composer-drop");
  await page.getByRole("button", { name: "New Chat" }).click();
  await dropFiles(page, ".chat-dock", [
    { name: "Handbook.pdf", bytes: await policyPdf(HANDBOOK) },
    { name: "notes.txt", bytes: [...Buffer.from("not a pdf")] },
  ]);
  await expect(page.getByText("notes.txt: Only PDF files can be uploaded.")).toBeVisible();
  const chips = page.getByRole("list", { name: "Documents in this chat" });
  await expect(chips.getByRole("button", { name: "Remove Handbook.pdf" })).toBeVisible({ timeout: 30_000 });
  const box = page.getByPlaceholder("Ask me!");
  await box.fill("How long is parental leave?");
  await box.press("Enter");
  await expect(page.locator(".chat-message.bot").last()).toContainText("sixteen weeks", { timeout: 30_000 });
  await expect(page.locator(".chat-message.bot").last().locator(".chat-sources")).toContainText("Handbook.pdf");
});

test("two PDFs dropped together on the composer both stay in the chat", async ({ page }) => {
  await signUp(page, "composer-two");
  await page.getByRole("button", { name: "New Chat" }).click();
  await dropFiles(page, ".chat-dock", [
    { name: "Handbook.pdf", bytes: await policyPdf(HANDBOOK) },
    { name: "Sick days.pdf", bytes: await policyPdf(...SICK_DAYS) },
  ]);
  const chips = page.getByRole("list", { name: "Documents in this chat" });
  for (const name of ["Handbook.pdf", "Sick days.pdf"])
    await expect(chips.getByRole("button", { name: `Remove ${name}` })).toBeVisible({ timeout: 30_000 });
  await page.reload(); // the server kept both
  for (const name of ["Handbook.pdf", "Sick days.pdf"]) await expect(chips.getByRole("button", { name: `Remove ${name}` })).toBeVisible();
});
