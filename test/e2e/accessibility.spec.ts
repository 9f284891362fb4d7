// axe-core in Chromium on the screens a user meets first: home, login, My Files,
// a chat with an answer, and the Settings dialog. No serious or critical
// violation (contrast, names, labels, roles) on any of them.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { signUp } from "./helpers";

async function seriousViolations(page: Page, where: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${where}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test("home, login, My Files, a chat and Settings have no serious or critical axe violations", async ({ page }) => {
  const found: string[] = [];
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Hello, how can I help you?" })).toBeVisible();
  found.push(...(await seriousViolations(page, "home")));

  await page.goto("/app/auth/login");
  await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
  found.push(...(await seriousViolations(page, "login")));

  const email = await signUp(page, "axe");
  await page.goto("/app/files");
  await expect(page.getByRole("heading", { name: "My Files" })).toBeVisible();
  found.push(...(await seriousViolations(page, "files")));

  await page.goto("/app/chat");
  const box = page.getByPlaceholder("Ask me!");
  await box.fill("What can you do?");
  await box.press("Enter");
  await expect(page.locator(".chat-message.bot").last()).not.toBeEmpty({ timeout: 20_000 });
  found.push(...(await seriousViolations(page, "chat")));

  await page.getByRole("button", { name: `Account menu for ${email}` }).click();
  await page.getByRole("menuitem", { name: "Settings" }).click();
  await expect(page.getByRole("dialog", { name: "Settings" })).toBeVisible();
  found.push(...(await seriousViolations(page, "settings")));

  expect(found).toEqual([]);
});

test("a dialog closes with Escape after its action ran, and Settings has a visible Close button", async ({ page }) => {
  const email = await signUp(page, "escape");
  await page.getByRole("button", { name: `Account menu for ${email}` }).click();
  await page.getByRole("menuitem", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Name").fill("Ada");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("User info updated successfully.")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await page.getByRole("button", { name: `Account menu for ${email}` }).click();
  await page.getByRole("menuitem", { name: "Settings" }).click();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
});

test("at 390 px the hidden sidebar leaves no strip at the left edge", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Hello, how can I help you?" })).toBeVisible();
  const shadow = await page.locator(".sidebar").evaluate((el) => getComputedStyle(el).boxShadow);
  expect(shadow).toBe("none");
});
