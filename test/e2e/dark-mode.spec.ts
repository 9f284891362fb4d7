// Dark mode in Chromium: a device set to dark gets the dark theme before any
// choice; Settings > Appearance switches Light / Dark / System and the choice
// survives a reload; every screen a user meets (home, login, My Files with a
// file, a chat with a cited answer, the history search, Settings, the shortcuts
// list) has no axe violation, colour contrast included, in dark, at 1280 and at
// 390 px. Screenshots of each at both widths go to test-results/ for a look.
// The other pages (register, pricing, payment, legal, contact, not found), the
// attach menu, an upload refusal and every Settings tab pass axe in both themes.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { signUp } from "./helpers";

async function violations(page: Page, where: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${where}: ${v.id} ${v.nodes.map((n) => `${n.target.join(" ")} ${n.failureSummary ?? ""}`).join(" | ")}`);
}

async function handbook(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  ["Leave policy.", "Parental leave is sixteen weeks at full pay.", "Remote work.", "Staff may work from home two days a week."].forEach(
    (line, i) => page.drawText(line, { x: 50, y: 740 - i * 18, size: 12, font }),
  );
  return Buffer.from(await pdf.save());
}

const WIDE = { width: 1280, height: 720 };
const WIDTHS = [WIDE, { width: 390, height: 844 }];

/** axe and a screenshot at each width, ending back at 1280 px. */
async function checkAtBothWidths(page: Page, where: string, found: string[], fullPage = true) {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.waitForTimeout(400); // the sidebar's slide transition
    found.push(...(await violations(page, `${where} at ${size.width} px`)));
    await page.screenshot({ path: `test-results/dark-${where}-${size.width}.png`, fullPage });
  }
  await page.setViewportSize(WIDE);
  await page.waitForTimeout(400);
}

const theme = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

test("a dark device gets the dark theme; every screen passes axe in dark; the choice in Settings is kept", async ({ page }) => {
  test.setTimeout(120_000);
  await page.emulateMedia({ colorScheme: "dark" });
  const found: string[] = [];

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Hello, how can I help you?" })).toBeVisible();
  expect(await theme(page)).toBe("dark");
  expect(await background(page)).toBe("rgb(15, 20, 32)");
  await checkAtBothWidths(page, "home", found);

  await page.goto("/app/auth/login");
  await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
  await checkAtBothWidths(page, "login", found);

  const email = await signUp(page, "dark");
  await page.goto("/app/files");
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload file" }).click();
  await (await chooser).setFiles({ name: "Handbook.pdf", mimeType: "application/pdf", buffer: await handbook() });
  await expect(page.getByRole("row").filter({ hasText: "Handbook.pdf" }).getByText("Indexed")).toBeVisible({ timeout: 30_000 });
  await checkAtBothWidths(page, "files", found);

  await page.getByRole("button", { name: "New Chat" }).click();
  const box = page.getByPlaceholder("Ask me!");
  await box.fill("How long is parental leave?");
  await box.press("Enter");
  const answer = page.locator(".chat-message.bot").last();
  await expect(answer.locator(".chat-sources")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("list", { name: "Suggested questions" })).toBeVisible();
  await checkAtBothWidths(page, "chat", found);

  // PDFs dragged over the composer: the drop hint, readable in dark
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.items.add(new File(["%PDF-1.4"], "Dragged.pdf", { type: "application/pdf" }));
    document.querySelector(".chat-dock")!.dispatchEvent(new DragEvent("dragover", { bubbles: true, cancelable: true, dataTransfer: data }));
  });
  await expect(page.getByText("Drop PDFs to add them to this chat")).toBeVisible();
  await page.screenshot({ path: "test-results/dark-composer-drop-1280.png" });
  await page.evaluate(() => document.querySelector(".chat-dock")!.dispatchEvent(new DragEvent("dragleave", { bubbles: true })));
  await expect(page.getByText("Drop PDFs to add them to this chat")).toBeHidden();

  // Ctrl+K: the sidebar opens on the history search; the chat is found by its answer's words
  await page.locator(".chat-greeting").click();
  await page.keyboard.press("Control+k");
  const search = page.getByRole("searchbox", { name: "Search chats" });
  await expect(search).toBeFocused();
  await search.fill("sixteen");
  await expect(page.getByRole("list", { name: "Chats found" }).getByRole("button")).toHaveCount(1);
  found.push(...(await violations(page, "history search")));
  await page.screenshot({ path: "test-results/dark-history-search-1280.png" });
  await search.fill("");
  await page.getByRole("button", { name: "Chat History" }).click(); // closes the sidebar again

  await page.locator(".chat-greeting").click(); // out of the message box: "?" there is a question mark
  await page.keyboard.press("Shift+?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  found.push(...(await violations(page, "shortcuts")));
  await page.screenshot({ path: "test-results/dark-shortcuts-1280.png" });
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: `Account menu for ${email}` }).click();
  await page.getByRole("menuitem", { name: "Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Settings" });
  await settings.getByRole("tab", { name: "Appearance" }).click();
  await expect(settings.getByRole("radio", { name: "System" })).toBeChecked();
  await checkAtBothWidths(page, "settings", found, false); // a dialog: what the screen shows

  // Light, chosen in Settings, wins over the dark device, and is kept after a reload
  await settings.getByRole("radio", { name: "Light" }).check();
  expect(await theme(page)).toBe("light");
  await page.reload();
  await expect(page.getByRole("heading", { name: "Hello, how can I help you?" })).toBeVisible();
  expect(await theme(page)).toBe("light");
  expect(await background(page)).toBe("rgb(249, 250, 251)");

  expect(found).toEqual([]);
});

test("Dark chosen on a light device is kept after a reload", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  const email = await signUp(page, "dark-choice");
  expect(await theme(page)).toBe("light");
  await page.getByRole("button", { name: `Account menu for ${email}` }).click();
  await page.getByRole("menuitem", { name: "Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Settings" });
  await settings.getByRole("tab", { name: "Appearance" }).click();
  await settings.getByRole("radio", { name: "Dark" }).check();
  expect(await theme(page)).toBe("dark");
  await page.reload();
  await expect(page.getByRole("heading", { name: "Hello, how can I help you?" })).toBeVisible();
  expect(await theme(page)).toBe("dark");
});

test("every other page and the chat's dialogs pass axe in dark and in light; form buttons sit inside their form", async ({ page }) => {
  test.setTimeout(150_000);
  const found: string[] = [];
  for (const scheme of ["dark", "light"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/app/auth/register");
    await expect(page.getByRole("heading", { name: "Create an account" })).toBeVisible();
    found.push(...(await violations(page, `/app/auth/register in ${scheme}`)));
  }
  const pages: [string, string][] = [
    ["/app/pricing", "Choose Your Plan"],
    ["/app/terms-of-use", "Terms of Use"],
    ["/app/privacy-policy", "Privacy Policy"],
    ["/app/contact-us", "Contact Us"],
    ["/nowhere", "Page not found"],
    ["/app/payment", "Upgrade your plan"],
  ];
  const email = await signUp(page, "themes");
  for (const scheme of ["dark", "light"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [path, heading] of pages) {
      await page.goto(path);
      await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
      expect(await theme(page)).toBe(scheme);
      found.push(...(await violations(page, `${path} in ${scheme}`)));
    }
    await page.goto("/app/contact-us");
    const submit = page.getByRole("button", { name: "Submit" });
    await expect(submit).toBeVisible();
    const form = await page.locator(".contact-form").boundingBox();
    const button = await submit.boundingBox();
    expect(button!.y).toBeGreaterThan(form!.y + form!.height / 2); // under the fields, not in a corner

    await page.goto("/app/chat");
    await page.getByRole("button", { name: "Attach a file" }).click();
    await expect(page.getByRole("menuitem", { name: "Upload file" })).toBeVisible();
    found.push(...(await violations(page, `attach menu in ${scheme}`)));
    await page.keyboard.press("Escape");
    // a refused drop: the reason in the banner
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File(["x"], "notes.txt", { type: "text/plain" }));
      const dock = document.querySelector(".chat-dock")!;
      dock.dispatchEvent(new DragEvent("dragover", { bubbles: true, cancelable: true, dataTransfer: data }));
      dock.dispatchEvent(new DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: data }));
    });
    await expect(page.getByText("Only PDF files can be uploaded.")).toBeVisible();
    found.push(...(await violations(page, `upload refusal in ${scheme}`)));

    await page.getByRole("button", { name: `Account menu for ${email}` }).click();
    await page.getByRole("menuitem", { name: "Settings" }).click();
    const settings = page.getByRole("dialog", { name: "Settings" });
    for (const tab of ["Profile", "Security", "Subscription"]) {
      await settings.getByRole("tab", { name: tab }).click();
      found.push(...(await violations(page, `Settings ${tab} in ${scheme}`)));
    }
    await settings.getByRole("tab", { name: "Security" }).click();
    const box = await settings.boundingBox();
    const save = await settings.getByRole("button", { name: "Save" }).boundingBox();
    expect(save!.x + save!.width).toBeLessThanOrEqual(box!.x + box!.width);
    expect(save!.y).toBeGreaterThan(box!.y + 100); // under the password fields
    await page.keyboard.press("Escape");
  }
  expect(found).toEqual([]);
});
