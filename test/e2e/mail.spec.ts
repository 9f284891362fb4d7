// Memo, share and contact in a real browser: a memo sent to myself lands in the
// development mailbox; a chat shared with a second account opens read-only for
// it, and once removed says so while the member stays signed in; the contact
// form validates and succeeds.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { signUp } from "./helpers";

async function chatAboutAPolicy(page: Page) {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([612, 792]).drawText("Overtime is paid at one and a half times the hourly rate.", { x: 50, y: 700, size: 12, font });
  await page.goto("/app/files");
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload file" }).click();
  await (await chooser).setFiles({ name: "Overtime.pdf", mimeType: "application/pdf", buffer: Buffer.from(await pdf.save()) });
  await expect(page.getByRole("row").filter({ hasText: "Overtime.pdf" }).getByText("Indexed")).toBeVisible({ timeout: 30_000 });
  await page.getByRole("button", { name: "New Chat" }).click();
  const box = page.getByPlaceholder("Ask me!");
  await box.fill("How is overtime paid?");
  await box.press("Enter");
  await expect(page.locator(".chat-message.bot").last()).toContainText("one and a half times", { timeout: 20_000 });
}

async function secondUser(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = await signUp(page, "member");
  return { context, page, email };
}

test("memo to myself arrives in the development mailbox", async ({ page }) => {
  const email = await signUp(page, "memo");
  await chatAboutAPolicy(page);
  await page.getByRole("button", { name: "Send chat memo via email" }).click();
  const dialog = page.getByRole("dialog", { name: "Generate Chat Memo" });
  await dialog.getByRole("button", { name: "Send to Email" }).click();
  await expect(dialog.getByText("Email is required.")).toBeVisible();
  await dialog.getByRole("button", { name: "Send to myself" }).click();
  await expect(dialog.getByRole("button", { name: "Sent!" })).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByText("Memo successfully sent to your email!")).toBeVisible();

  await page.goto("/dev/mailbox");
  const mail = page.locator("article.mail").filter({ hasText: email }).first();
  await expect(mail).toContainText("Chat memo: How is overtime paid?");
  await expect(mail).toContainText("one and a half times the hourly rate");
  await expect(mail).toContainText("sent");
});

test("a shared chat opens read-only for the invited account", async ({ page, browser }) => {
  await signUp(page, "owner");
  await chatAboutAPolicy(page);
  const member = await secondUser(browser);

  await page.getByRole("button", { name: "Share chat" }).click();
  const dialog = page.getByRole("dialog", { name: "Share chat with other members" });
  await dialog.getByRole("button", { name: "Share", exact: true }).click();
  await expect(dialog.getByText("Please select at least one email address.")).toBeVisible();
  const input = dialog.getByLabel("Email address*");
  await input.fill("not-an-email");
  await input.press("Enter");
  await expect(dialog.getByText("Please enter a valid email address.")).toBeVisible();
  await input.fill(member.email);
  await input.press("Enter");
  await dialog.getByRole("button", { name: "Share", exact: true }).click();
  await expect(dialog.getByText("Chat shared.")).toBeVisible();

  // the invitation e-mail carries the link
  await member.page.goto("/dev/mailbox");
  const invitation = member.page.locator("article.mail").filter({ hasText: member.email }).first();
  const link = (await invitation.locator("pre").textContent())!.match(/https?:\/\/\S+\/app\/chat\?session=\S+/)![0];
  await member.page.goto(link);
  await expect(member.page.locator(".chat-message.bot").last()).toContainText("one and a half times", { timeout: 15_000 });
  await expect(member.page.getByPlaceholder("Ask me!")).toBeDisabled();

  // the owner removes the member: the member's open chat says so, and they stay signed in
  await dialog.getByRole("button", { name: `Remove ${member.email}` }).click();
  await expect(member.page.getByRole("heading", { name: "Your access to this chat was removed." })).toBeVisible();
  await member.page.reload();
  await expect(member.page.getByRole("heading", { name: "Your access to this chat was removed." })).toBeVisible();
  await expect(member.page.getByRole("button", { name: `Account menu for ${member.email}` })).toBeVisible();
  await member.page.getByRole("button", { name: "Back to your chats" }).click();
  await expect(member.page.getByText("Hello, how can I help you?")).toBeVisible();
  await expect(member.page.getByRole("button", { name: `Account menu for ${member.email}` })).toBeVisible();
  await member.context.close();
});

test("contact form validates and succeeds", async ({ page }) => {
  await page.goto("/app/contact-us");
  await expect(page.getByRole("heading", { name: "Contact Us" })).toBeVisible();
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("Email is required.")).toBeVisible();
  await page.getByLabel("Email").fill("someone@example");
  await page.getByLabel("Mobile number").fill("12345");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("Please enter a valid email address.")).toBeVisible();
  await expect(page.getByText("Please enter a valid 10-digit mobile number.")).toBeVisible();
  await page.getByLabel("Email").fill("someone@example.com");
  await page.getByLabel("Mobile number").fill("7911123456");
  await page.getByLabel("Country code").selectOption("+44");
  await page.getByLabel("Category").selectOption("billing");
  await page.getByLabel("Message").fill("Can I get an invoice with our VAT number?");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("Thank you for reaching out to us! You will hear back soon.")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue("");
  await expect(page.getByLabel("Country code")).toHaveValue("+1");
  await expect(page.getByLabel("Category")).toHaveValue("general");
  await expect(page.getByText("DocChat Inc., 548 Market St", { exact: false })).toBeVisible();
});
