// The document overview (issue 45 item 3) as a user meets it: upload IRS Pub 17 (417 pages,
// from ../shared/corpus) on My Files, "Chat about this file": the chat shows its "Document
// overview" card with the PDF's own outline (its bookmarks, "Filing Status" among them), a
// summary and three questions; clicking an outline entry opens the viewer at that entry's page.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { signUp, uploadOnMyFiles } from "./helpers";

const P17 = fileURLToPath(new URL("../../../shared/corpus/irs/p17.pdf", import.meta.url));
test.skip(!existsSync(P17), "needs ../shared/corpus beside the project");
test.setTimeout(180_000);

test("Pub 17's overview card shows its real outline and an entry opens the viewer at its page", async ({ page }) => {
  await signUp(page, "overview");
  await uploadOnMyFiles(page, P17, "p17.pdf");
  await page.getByRole("button", { name: "Actions for p17.pdf" }).click();
  await page.getByRole("menuitem", { name: "Chat about this file" }).click();
  await expect(page).toHaveURL(/\/app\/chat$/);

  const card = page.getByRole("region", { name: "Document overview" });
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card).toContainText("p17.pdf");
  await expect(card).toContainText("417 pages");
  const outline = card.getByRole("navigation", { name: "Outline of p17.pdf" });
  const entry = outline.getByRole("button", { name: /^2\. Filing Status/ });
  await expect(entry).toBeVisible();
  await expect(card.getByRole("list", { name: "Suggested questions about p17.pdf" }).getByRole("button")).toHaveCount(3);

  const entryPage = Number((await entry.locator(".overview-page").textContent())!.match(/p\. (\d+)/)![1]);
  expect(entryPage).toBeGreaterThan(1);
  await entry.click();
  const viewer = page.getByRole("complementary", { name: "Document viewer" });
  await expect(viewer).toBeVisible();
  await expect(viewer.getByText(`p. ${entryPage}`, { exact: true })).toBeVisible();
  await expect(viewer.locator(`.pdf-page[data-page="${entryPage}"] canvas`)).toBeVisible({ timeout: 30_000 });
  await expect(viewer.locator(`.pdf-page[data-page="${entryPage}"]`)).toContainText(/Filing Status/i, { timeout: 30_000 });
});
