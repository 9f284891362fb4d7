// Subscriptions in a real browser with the local test checkout: Settings ->
// Subscription -> choose a plan -> Pay -> Payment Successful -> Active with its
// Renews date -> Cancel -> Subscription Cancelled with Access until.
import { expect, test } from "@playwright/test";
import { signUp } from "./helpers";

const longDate = /(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}/;

test("subscribe through the test checkout, then cancel", async ({ page }) => {
  const email = `billing-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  await page.goto("/app/auth/register");
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Password").fill("Secret123");
  await page.getByRole("button", { name: "Continue" }).click();
  const avatar = page.getByRole("button", { name: `Account menu for ${email}` });

  await avatar.click();
  await page.getByRole("menuitem", { name: "Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Settings" });
  await settings.getByRole("tab", { name: "Subscription" }).click();
  await expect(settings.getByRole("heading", { name: "Subscription Plans" })).toBeVisible();
  await expect(settings.getByText("Premium (Monthly)")).toBeVisible();
  await expect(settings.getByText("$29.99 / month")).toBeVisible();
  await settings.getByRole("button", { name: "Choose Premium" }).click();

  await expect(page).toHaveURL(/\/dev\/checkout\?/);
  await expect(page.getByRole("heading", { name: "Premium (Monthly)" })).toBeVisible();
  await expect(page.getByText("$29.99 / month")).toBeVisible();
  await page.getByRole("button", { name: "Pay" }).click();

  await expect(page).toHaveURL(/\/app\/subscription\/success/);
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  await expect(page.getByText("Thank you! Your subscription has been activated.")).toBeVisible();

  await avatar.click();
  await page.getByRole("menuitem", { name: "Settings" }).click();
  await settings.getByRole("tab", { name: "Subscription" }).click();
  await expect(settings.getByText("Active Subscription")).toBeVisible();
  await expect(settings.getByText(/^Renews /)).toHaveText(new RegExp(`^Renews ${longDate.source}$`));
  await expect(settings.getByRole("button", { name: "Choose Premium" })).toHaveCount(0);

  page.once("dialog", (dialog) => {
    expect(dialog.message()).toBe("Are you sure you want to cancel your subscription?");
    void dialog.accept();
  });
  const alertText = new Promise<string>((resolve) =>
    page.on("dialog", (dialog) => {
      if (dialog.type() === "alert") {
        resolve(dialog.message());
        void dialog.accept();
      }
    }),
  );
  await settings.getByRole("button", { name: "Cancel Subscription" }).click();
  expect(await alertText).toContain("You keep access until");
  await expect(settings.getByText("Subscription Cancelled")).toBeVisible();
  await expect(settings.getByText(/^Access until /)).toHaveText(new RegExp(`^Access until ${longDate.source}$`));
  await expect(settings.getByRole("button", { name: "Choose Premium" })).toBeVisible();
});

test("a checkout cancelled from Settings comes back to the page it started on, Settings open", async ({ page }) => {
  const email = await signUp(page, "billing-back");
  await page.goto("/app/files");
  await page.getByRole("button", { name: `Account menu for ${email}` }).click();
  await page.getByRole("menuitem", { name: "Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Settings" });
  await settings.getByRole("tab", { name: "Subscription" }).click();
  await settings.getByRole("button", { name: "Choose Pro" }).click();
  await expect(page).toHaveURL(/\/dev\/checkout\?/);
  await page.getByRole("button", { name: "Cancel" }).click();

  await expect(page).toHaveURL(/\/app\/files$/);
  await expect(settings.getByRole("tab", { name: "Subscription", selected: true })).toBeVisible();
  await expect(settings.getByText("Pro (Annual)")).toBeVisible();
});
