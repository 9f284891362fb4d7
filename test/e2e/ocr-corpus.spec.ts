// The corpus's real image-only PDFs (../shared/corpus/MANIFEST.md: a one-page
// scan, a fax-coded scan, six pages of pictures) uploaded on My Files: each
// waits for text recognition, the browser reads it by itself, and each ends
// Indexed or Failed with a reason a user understands; none stays waiting.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { DOCUMENT_MESSAGES } from "../../worker/contract/documents";
import { signUp } from "./helpers";

const CORPUS = fileURLToPath(new URL("../../../shared/corpus/", import.meta.url));
const SCANS = ["edge_pdfjs/scan-bad.pdf", "edge_pypdf/imagemagick-CCITTFaxDecode.pdf", "edge_pypdf/imagemagick-images.pdf"];

test.skip(!SCANS.every((f) => existsSync(CORPUS + f)), "needs ../shared/corpus beside the project");

test("the corpus's scanned PDFs are recognised in the browser and end indexed or failed with a reason", async ({ page }) => {
  test.setTimeout(240_000);
  await signUp(page, "ocr-corpus");
  await page.goto("/app/files");
  const names = SCANS.map((f) => f.split("/").pop()!);
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload file" }).click();
  await (await chooser).setFiles(
    SCANS.map((f, i) => ({ name: names[i]!, mimeType: "application/pdf", buffer: readFileSync(CORPUS + f) })),
  );

  for (const name of names) {
    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row.getByText(/^(Indexed|Failed)$/)).toBeVisible({ timeout: 200_000 });
    if (await row.getByText("Failed").isVisible()) await expect(row.getByText(DOCUMENT_MESSAGES.nothingRecognised)).toBeVisible();
  }
  // after a reload nothing is left waiting
  await page.reload();
  for (const name of names) await expect(page.getByRole("row").filter({ hasText: name }).getByText(/^(Indexed|Failed)$/)).toBeVisible();
  await expect(page.getByText("Needs text recognition")).toHaveCount(0);
});
