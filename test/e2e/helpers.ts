// Shared steps of the browser tests.
import { expect, type Locator, type Page } from "@playwright/test";

export const uniqueEmail = (prefix: string) => `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** Registers a fresh account through the Register page and waits for the signed-in header. */
export async function signUp(page: Page, prefix: string): Promise<string> {
  const email = uniqueEmail(prefix);
  await page.goto("/app/auth/register");
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Password").fill("Secret123");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("button", { name: `Account menu for ${email}` })).toBeVisible();
  return email;
}

/** Uploads a PDF on My Files, as a new user does first, and waits until its row says "Indexed". */
export async function uploadOnMyFiles(page: Page, path: string, name: string) {
  await page.goto("/app/files");
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload file" }).click();
  await (await chooser).setFiles(path);
  await expect(page.getByRole("row").filter({ hasText: name }).getByText("Indexed")).toBeVisible({ timeout: 90_000 });
}

/** Asks a question in the open chat and returns its answer once the answer lists its sources. */
export async function ask(page: Page, question: string): Promise<Locator> {
  const answers = await page.locator(".chat-message.bot").count();
  const box = page.getByPlaceholder("Ask me!");
  await box.fill(question);
  await box.press("Enter");
  const answer = page.locator(".chat-message.bot").nth(answers);
  await expect(answer.locator(".chat-sources")).toBeVisible({ timeout: 60_000 });
  return answer;
}
