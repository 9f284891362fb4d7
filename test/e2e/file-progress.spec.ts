// My Files hears a file's indexing over the chat socket (#44 item 5), through the
// dev server's proxy in Chromium: the row reaches Indexed well before the 30 s
// fallback read, from `file_progress` frames, with no list read in between.
import { expect, test } from "@playwright/test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { signUp } from "./helpers";

async function longPdf(pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const filler = "General provisions about expenses, approvals and the reimbursement of employees.";
  for (let i = 1; i <= pages; i++) {
    const page = pdf.addPage([612, 792]);
    for (let line = 0; line < 30; line++) page.drawText(`${i}.${line} ${filler}`, { x: 40, y: 750 - line * 22, size: 10, font });
  }
  return Buffer.from(await pdf.save());
}

test("a file's indexing reaches My Files by push, not by reading the list again", async ({ page }) => {
  const frames: string[] = [];
  page.on("websocket", (ws) => ws.on("framereceived", ({ payload }) => void frames.push(String(payload))));
  const listReads: number[] = [];
  page.on("request", (request) => {
    if (request.method() === "GET" && new URL(request.url()).pathname === "/api/documents") listReads.push(Date.now());
  });

  await signUp(page, "file-progress");
  await page.goto("/app/files");
  await expect(page.getByRole("heading", { name: "My Files" })).toBeVisible();
  const name = `Handbook-${Date.now()}.pdf`;
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload file" }).click();
  await (await chooser).setFiles({ name, mimeType: "application/pdf", buffer: await longPdf(300) });

  const row = page.getByRole("row").filter({ hasText: name });
  const uploadedAt = Date.now();
  await expect(row.getByText("Indexed")).toBeVisible({ timeout: 25_000 });
  const took = Date.now() - uploadedAt;

  const pushed = frames
    .filter((f) => f.includes('"file_progress"'))
    .map((f) => JSON.parse(f).files.map((x: { status: string }) => x.status));
  expect(pushed.flat()).toContain("indexed");
  // read on opening, after the upload, and once more when the file was indexed: no 5 s polling, no 30 s fallback yet
  expect(took).toBeLessThan(25_000);
  expect(listReads.filter((at) => at >= uploadedAt).length).toBeLessThanOrEqual(2);
});
