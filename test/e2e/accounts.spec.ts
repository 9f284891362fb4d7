// The account journey in a real browser: register, avatar, sign out, log in,
// change name and password in Settings, sign in with the new password; deep
// links survive a refresh; the phone layout's slide-in sidebar; deleting the
// account (after uploading a file) signs out, its other tab too, and the e-mail
// can no longer log in.
import { expect, test, type Page } from "@playwright/test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { ask } from "./helpers";

const unique = () => `e2e-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

async function submitAuth(page: Page, email: string, password: string) {
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Continue" }).click();
}

test("register, sign out, log in, change name and password, sign in again", async ({ page }) => {
  const email = unique();
  await page.goto("/app/auth/register");
  await expect(page.getByRole("heading", { name: "Create an account" })).toBeVisible();
  await submitAuth(page, email, "Secret123");

  await expect(page).toHaveURL(/\/$/);
  const avatar = page.getByRole("button", { name: `Account menu for ${email}` });
  await expect(avatar).toHaveText(email.slice(0, 2));

  await avatar.click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();

  await page.getByRole("link", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
  await submitAuth(page, email, "Wrong1234");
  await expect(page.getByRole("alert")).toHaveText("Invalid email or password.");
  await page.getByLabel("Password").fill("Secret123");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(avatar).toBeVisible();

  await avatar.click();
  await page.getByRole("menuitem", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await expect(dialog.getByLabel("Email")).toHaveValue(email);
  await dialog.getByLabel("Name").fill("Grace Hopper");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("User info updated successfully.")).toBeVisible();

  await dialog.getByRole("tab", { name: "Security" }).click();
  await dialog.getByLabel("Old password").fill("Secret123");
  await dialog.getByLabel("New password", { exact: true }).fill("Changed456");
  await dialog.getByLabel("Confirm new password").fill("Changed457");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("The confirmed password does not match.")).toBeVisible();
  await dialog.getByLabel("Confirm new password").fill("Changed456");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Password changed successfully.")).toBeVisible();
  await dialog.getByRole("tab", { name: "Subscription" }).click();
  await expect(dialog.getByRole("heading", { name: "Subscription Plans" })).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Choose Premium" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await avatar.click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await page.goto("/app/auth/login");
  await submitAuth(page, email, "Secret123");
  await expect(page.getByRole("alert")).toHaveText("Invalid email or password.");
  await page.getByLabel("Password").fill("Changed456");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(avatar).toBeVisible();

  // The new name was stored on the server.
  await avatar.click();
  await page.getByRole("menuitem", { name: "Settings" }).click();
  await expect(page.getByRole("dialog", { name: "Settings" }).getByLabel("Name")).toHaveValue("Grace Hopper");
});

test("delete the account from Settings: confirmation by e-mail, then signed out for good", async ({ page }) => {
  const email = unique();
  await page.goto("/app/auth/register");
  await submitAuth(page, email, "Secret123");
  await page.goto("/app/files");
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload file" }).click();
  const pdf = await PDFDocument.create();
  pdf
    .addPage()
    .drawText("Severance is two weeks per year of service.", { x: 50, y: 700, font: await pdf.embedFont(StandardFonts.Helvetica) });
  await (await chooser).setFiles({ name: "Severance.pdf", mimeType: "application/pdf", buffer: Buffer.from(await pdf.save()) });
  await expect(page.getByRole("row").filter({ hasText: "Severance.pdf" }).getByText("Indexed")).toBeVisible({ timeout: 30_000 });
  // a second tab of the account, in a chat with an answer
  const otherTab = await page.context().newPage();
  await otherTab.goto("/app/chat");
  await ask(otherTab, "How much severance is paid?");

  await page.getByRole("button", { name: `Account menu for ${email}` }).click();
  await page.getByRole("menuitem", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("tab", { name: "Security" }).click();
  await dialog.getByRole("button", { name: "Delete account…" }).click();
  await dialog.getByLabel("E-mail address").fill("someone@example.com");
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Type your account's e-mail address to confirm.");
  await dialog.getByLabel("E-mail address").fill(email);
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByRole("banner").getByRole("link", { name: "Log in" })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("dialog", { name: "Error" })).toBeHidden();
  // the other tab is signed out too, not left on a chat of an account that is gone
  await expect(otherTab).toHaveURL(/\/app\/auth\/login$/);
  await expect(otherTab.getByRole("dialog", { name: "Error" })).toContainText("Your session has expired. Please log in again.");
  await otherTab.close();

  await page.goto("/app/auth/login");
  await submitAuth(page, email, "Secret123");
  await expect(page.getByRole("alert")).toHaveText("Invalid email or password.");
});

test("deep links refresh into the layout", async ({ page }) => {
  await page.goto("/app/files");
  await expect(page.getByRole("heading", { name: "My Files" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "My Files" })).toBeVisible();
  await expect(page.getByText("v1.13.0")).toBeVisible();
  await expect(page.getByRole("contentinfo").getByRole("link", { name: "Contact Us" })).toBeVisible();

  for (const [path, heading] of [
    ["/app/terms-of-use", "Terms of Use"],
    ["/app/privacy-policy", "Privacy Policy"],
    ["/app/settings", "Settings"],
    ["/app/dashboard", "Welcome"],
    ["/app/subscription/success", "Payment Successful"],
    ["/app/contact-us", "Contact Us"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, exact: true })).toBeVisible();
  }
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign up" })).toBeVisible();
});

test("phone width shows the slide-in sidebar with a dimmed overlay", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/app/chat");
  await expect(page.getByRole("heading", { name: "Hello, how can I help you?" })).toBeVisible();
  // Sign up is hidden on the smallest screens; Log in stays.
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign up" })).toBeHidden();
  await expect(page.getByRole("banner").getByRole("link", { name: "Log in" })).toBeVisible();

  const sidebar = page.getByRole("complementary", { name: "Sidebar" });
  await expect(sidebar).not.toBeInViewport();
  await page.getByRole("button", { name: "Toggle sidebar" }).click();
  await expect(sidebar).toBeInViewport();
  const overlay = page.getByTestId("sidebar-overlay");
  await expect(overlay).toBeVisible();
  await overlay.click({ position: { x: 360, y: 300 } });
  await expect(overlay).toBeHidden();
  await expect(sidebar).not.toBeInViewport();
});
