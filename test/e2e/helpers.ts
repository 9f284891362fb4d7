// Shared steps of the browser tests.
import { expect, type Page } from "@playwright/test";

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
