// The chat in a real browser: the anonymous landing chat answers; a signed-in
// user uploads a PDF, asks about a phrase on its page 2, gets a streamed answer
// citing page 2, sees the chat in the history with its title, reloads and finds
// the chat again; the chat works at phone width.
import { expect, test, type Page } from "@playwright/test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { signUp } from "./helpers";

async function uploadPolicy(page: Page, name: string) {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([612, 792]).drawText("Company overview and mission statement for all staff.", { x: 50, y: 700, size: 12, font });
  pdf
    .addPage([612, 792])
    .drawText("Sabbatical leave is granted after seven years of continuous service.", { x: 50, y: 700, size: 12, font });
  await page.goto("/app/files");
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload file" }).click();
  await (await chooser).setFiles({ name, mimeType: "application/pdf", buffer: Buffer.from(await pdf.save()) });
  await expect(page.getByRole("row").filter({ hasText: name }).getByText("Indexed")).toBeVisible({ timeout: 30_000 });
}

async function ask(page: Page, question: string) {
  const box = page.getByPlaceholder("Ask me!");
  await box.fill(question);
  await box.press("Enter");
}

test("an anonymous visitor gets an answer on the landing chat", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Hello, how can I help you?" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeDisabled();
  await ask(page, "What is a W-4 form?");
  await expect(page.getByText("What is a W-4 form?")).toBeVisible();
  await expect(page.getByText("Log in and upload a PDF", { exact: false })).toBeVisible();
});

test("a cited answer about page 2, kept in the history and restored after a reload", async ({ page }) => {
  await signUp(page, "chat");
  const name = `Leave-${Date.now()}.pdf`;
  await uploadPolicy(page, name);

  await page.getByRole("button", { name: "New Chat" }).click();
  await ask(page, "When is sabbatical leave granted?");
  const answer = page.locator(".chat-message.bot").last();
  await expect(answer).toContainText("Sabbatical leave is granted after seven years of continuous service.");
  const citation = answer.getByRole("link", { name: "[1]" }).first();
  await expect(citation).toHaveAttribute("title", `${name}, p. 2`);
  await expect(answer.getByRole("link", { name: `[1] ${name}, p. 2` })).toBeVisible();
  await expect(page.getByText("local mode", { exact: false }).first()).toBeVisible();

  // the citation opens page 2 beside the chat; "Open in new tab" opens the PDF at page 2
  await citation.click();
  const panel = page.getByRole("complementary", { name: "Document viewer" });
  await expect(panel.locator('.pdf-page[data-page="2"] mark.cited-passage').first()).toBeVisible({ timeout: 30_000 });
  const popup = page.waitForEvent("popup");
  await panel.getByRole("button", { name: "Open in new tab" }).click();
  const tab = await popup;
  await expect.poll(() => tab.url()).toContain("#page=2");
  await tab.close();
  await panel.getByRole("button", { name: "Close viewer" }).click();

  if (!(await page.getByRole("navigation", { name: "Chat history" }).isVisible()))
    await page.getByRole("button", { name: "Chat History" }).click();
  const history = page.getByRole("navigation", { name: "Chat history" });
  await expect(history.getByRole("button", { name: "When is sabbatical leave granted?", exact: true })).toBeVisible();
  await expect(history.getByText("Today")).toBeVisible();

  await page.reload();
  await expect(page.locator(".chat-message.bot").last()).toContainText("Sabbatical leave is granted after seven years");
  await expect(page.getByText("When is sabbatical leave granted?").first()).toBeVisible();

  // rename it from the history, then delete it
  const reloadedHistory = page.getByRole("navigation", { name: "Chat history" });
  if (!(await reloadedHistory.isVisible())) await page.getByRole("button", { name: "Chat History" }).click();
  await reloadedHistory.getByRole("button", { name: "Actions for When is sabbatical leave granted?" }).click();
  await page.getByRole("menuitem", { name: "Rename" }).click();
  const rename = page.getByRole("dialog", { name: "Rename chat" });
  await rename.getByLabel("Chat title").fill("Sabbatical rules");
  await rename.getByRole("button", { name: "Save" }).click();
  await expect(reloadedHistory.getByRole("button", { name: "Sabbatical rules", exact: true })).toBeVisible();
  await page.reload();
  if (!(await reloadedHistory.isVisible())) await page.getByRole("button", { name: "Chat History" }).click();
  await expect(reloadedHistory.getByRole("button", { name: "Sabbatical rules", exact: true })).toBeVisible();

  await reloadedHistory.getByRole("button", { name: "Actions for Sabbatical rules" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await page.getByRole("dialog", { name: "Delete chat" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("button", { name: "Sabbatical rules", exact: true })).toHaveCount(0);
  await expect(page.locator(".chat-message")).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("button", { name: "Sabbatical rules", exact: true })).toHaveCount(0);
});

test("the chat is usable at phone width", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/app/chat");
  const box = page.getByPlaceholder("Ask me!");
  await expect(box).toBeInViewport();
  await ask(page, "Hello there, what can you do?");
  await expect(page.locator(".chat-message.bot").last()).toContainText("documents");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeInViewport();
  // the header keeps its version label (the spec hides only Sign up on the smallest screens)
  await expect(page.locator("header .version")).toBeInViewport();
});
