// Google sign-in and Drive import in a real browser against the built-in Google
// emulator: Continue with Google -> consent -> signed in; My Files -> connect ->
// Connected -> pick two drive PDFs -> both Indexed; in chat, pick one drive file
// and ask about it -> a cited answer.
import { expect, test, type Page } from "@playwright/test";

async function consent(page: Page, email: string, name: string) {
  await expect(page).toHaveURL(/\/dev\/google\/o\/oauth2\/v2\/auth/);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Allow" }).click();
}

test("sign in with Google, import two drive PDFs, and ask about one in chat", async ({ page }) => {
  const email = `google-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  await page.goto("/app/auth/login");
  await page.getByRole("link", { name: "Continue with Google" }).click();
  await consent(page, email, "Grace Google");
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  await expect(page.getByRole("button", { name: `Account menu for ${email}` })).toHaveText(email.slice(0, 2));

  await page.goto("/app/files");
  await page.getByRole("button", { name: "Connect to cloud drive" }).click();
  await consent(page, email, "Grace Google");
  await expect(page).toHaveURL(/\/app\/files$/);
  const connected = page.getByRole("button", { name: "Connected to cloud drive" });
  await expect(connected).toBeVisible({ timeout: 15_000 });

  await connected.click();
  const picker = page.getByRole("dialog", { name: "Select files from Google Drive" });
  await expect(picker.getByRole("link", { name: "View Employee Handbook 2025.pdf in the drive" })).toBeVisible();
  await picker.getByRole("button", { name: "Import to the product" }).click();
  await expect(picker.getByText("File is required.")).toBeVisible();
  await picker.getByRole("checkbox", { name: "Employee Handbook 2025.pdf" }).check();
  await picker.getByRole("checkbox", { name: "Quarterly Tax Calendar.pdf" }).check();
  await picker.getByRole("button", { name: "Import to the product" }).click();
  await expect(picker.getByText("2 files imported.", { exact: false })).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press("Escape");
  for (const name of ["Employee Handbook 2025.pdf", "Quarterly Tax Calendar.pdf"]) {
    await expect(page.getByRole("row").filter({ hasText: name }).getByText("Indexed")).toBeVisible({ timeout: 30_000 });
  }

  await page.goto("/app/chat");
  await page.getByRole("button", { name: "Attach a file" }).click();
  await page.getByRole("menuitem", { name: "Add from drive" }).click();
  const single = page.getByRole("dialog", { name: "Select files from Google Drive" });
  await single.getByRole("radio", { name: "Travel Expense Policy.pdf" }).check();
  await single.getByRole("button", { name: "Select in chat" }).click();
  await expect(page.getByRole("button", { name: "Remove Travel Expense Policy.pdf" })).toBeVisible({ timeout: 20_000 });

  const box = page.getByPlaceholder("Ask me!");
  await box.fill("What is the per diem for travel?");
  await box.press("Enter");
  const answer = page.locator(".chat-message.bot").last();
  await expect(answer).toContainText("per diem of 75 dollars", { timeout: 30_000 });
  await expect(answer.getByRole("link", { name: /\[1\] Travel Expense Policy\.pdf, p\. \d/ })).toBeVisible();
});
