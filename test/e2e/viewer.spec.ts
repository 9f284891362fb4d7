// The document viewer, as a new user meets it: upload the IRS Form W-9 (a real
// six-page PDF from ../shared/corpus) on My Files, ask about it in a chat, click
// the lead sentence's citation: the viewer beside the chat shows the cited page (pdf.js,
// loaded only now) with the cited passage marked, and the marked text is the
// passage the answer quoted. Next/previous step through the answer's sources;
// Escape closes the viewer. On a phone the viewer covers the screen.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test, type Page } from "@playwright/test";
import { signUp } from "./helpers";

const W9 = fileURLToPath(new URL("../../../shared/corpus/irs/fw9.pdf", import.meta.url));
test.skip(!existsSync(W9), "needs ../shared/corpus beside the project");
test.setTimeout(120_000);

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

async function askAboutW9(page: Page) {
  await page.goto("/app/files");
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload file" }).click();
  await (await chooser).setFiles(W9);
  await expect(page.getByRole("row").filter({ hasText: "fw9.pdf" }).getByText("Indexed")).toBeVisible({ timeout: 60_000 });
  await page.getByRole("button", { name: "New Chat" }).click();
  const box = page.getByPlaceholder("Ask me!");
  await box.fill("What should a person do if they do not have a taxpayer identification number yet?");
  await box.press("Enter");
  const answer = page.locator(".chat-message.bot").last();
  await expect(answer.locator(".chat-sources")).toBeVisible({ timeout: 60_000 });
  return answer;
}

test("clicking the lead's citation shows the cited page with the quoted passage marked", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script" || r.url().includes("pdf.worker")) scripts.push(r.url());
  });
  await signUp(page, "viewer");
  const answer = await askAboutW9(page);
  expect(scripts.some((u) => u.includes("pdfjs-dist") || u.includes("pdf.worker"))).toBe(false);

  // the answer's lead sentence, and the source [n] it is quoted from
  const answerText = (await answer.locator(".rich-text").textContent())!;
  const lead = answerText.match(/^([\s\S]*?)\[(\d+)\]/)!;
  const [quoted, n] = [lead[1]!, Number(lead[2])];
  const sourceEntry = await answer
    .locator(".chat-sources li")
    .nth(n - 1)
    .textContent();
  const citedPage = Number(sourceEntry!.match(/p\. (\d+)/)![1]);

  await answer
    .locator("a.citation", { hasText: `[${n}]` })
    .first()
    .click();
  const viewer = page.getByRole("complementary", { name: "Document viewer" });
  await expect(viewer).toBeVisible();
  await expect(viewer.getByText(`p. ${citedPage}`, { exact: true })).toBeVisible();
  await expect(viewer.locator(`.pdf-page[data-page="${citedPage}"] canvas`)).toBeVisible({ timeout: 30_000 });
  const marks = viewer.locator("mark.cited-passage");
  await expect(marks.first()).toBeVisible();
  const marked = new Set(words((await marks.allTextContents()).join(" ")));
  const quotedWords = words(quoted).filter((w) => w.length > 3);
  expect(quotedWords.length).toBeGreaterThan(2);
  const overlap = quotedWords.filter((w) => marked.has(w)).length / quotedWords.length;
  expect(overlap).toBeGreaterThan(0.8);
  expect(scripts.some((u) => u.includes("pdf.worker"))).toBe(true);
  await page.screenshot({ path: "test-results/viewer-1280.png" });

  // the chat stays usable beside the viewer at 1280 px
  const chatBox = await page.locator(".chat-messages").boundingBox();
  const viewerBox = await viewer.boundingBox();
  expect(chatBox!.x + chatBox!.width).toBeLessThanOrEqual(viewerBox!.x + 1);

  // next / previous step through the answer's sources
  const count = await answer.locator(".chat-sources li").count();
  await expect(viewer.getByText(`${n} / ${count}`)).toBeVisible();
  if (count > 1) {
    const [first, second] = n < count ? ["Next citation", "Previous citation"] : ["Previous citation", "Next citation"];
    await viewer.getByRole("button", { name: first }).click();
    await expect(viewer.getByText(`${n < count ? n + 1 : n - 1} / ${count}`)).toBeVisible();
    await viewer.getByRole("button", { name: second }).click();
    await expect(viewer.getByText(`${n} / ${count}`)).toBeVisible();
  }
  await page.keyboard.press("Escape");
  await expect(viewer).toBeHidden();
});

test("on a phone the viewer is a full-screen sheet whose page zooms in", async ({ page }) => {
  await signUp(page, "viewer-phone");
  const answer = await askAboutW9(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await answer.locator(".chat-sources a").first().click();
  const viewer = page.getByRole("complementary", { name: "Document viewer" });
  await expect(viewer.locator("mark.cited-passage").first()).toBeVisible({ timeout: 30_000 });
  const box = await viewer.boundingBox();
  expect(box).toMatchObject({ x: 0, y: 0, width: 390 });
  await page.screenshot({ path: "test-results/viewer-390.png" });
  // zoomed in, the page is drawn twice as wide and scrolls sideways, the quote still marked
  const canvas = viewer.locator(".pdf-page canvas");
  const narrow = (await canvas.boundingBox())!.width;
  await viewer.getByRole("button", { name: "Zoom in" }).click();
  await viewer.getByRole("button", { name: "Zoom in" }).click();
  await expect.poll(async () => (await canvas.boundingBox())!.width).toBeGreaterThan(narrow * 1.9);
  await expect(viewer.locator("mark.cited-passage").first()).toBeVisible();
  const body = viewer.locator(".doc-viewer-body");
  expect(await body.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await page.screenshot({ path: "test-results/viewer-390-zoomed.png" });
  await viewer.getByRole("button", { name: "Close viewer" }).click();
  await expect(viewer).toBeHidden();
});
