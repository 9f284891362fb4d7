// A model's answer checked against the pages it cites (#43), in Chromium, on a server of its own
// whose model is the scripted OpenAI-compatible one (test/helpers/scripted-model.ts): a new user
// uploads the IRS Form W-9 on My Files, chats about it and asks; the model states a figure of the
// cited page, then the same sentence with that figure changed. Under the answer a quiet line says
// "1 figure not found on the cited pages"; the changed sentence is marked, and its reason ("99,999
// is not on p. N of fw9.pdf") shows on focus. The mark is still there after a reload, in the memo
// e-mail (in words) and in the view of a colleague the chat is shared with.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { CHANGED_FIGURE, startScriptedModel } from "../helpers/scripted-model";
import { ask, signUp, uploadOnMyFiles } from "./helpers";

const W9 = fileURLToPath(new URL("../../../shared/corpus/irs/fw9.pdf", import.meta.url));
const PORT = Number(process.env.E2E_MODEL_PORT ?? 5198);
const BASE = `http://127.0.0.1:${PORT}`;

test.skip(!existsSync(W9), "needs ../shared/corpus beside the project");
test.use({ baseURL: BASE });

let server: ChildProcess | null = null;
let model: Awaited<ReturnType<typeof startScriptedModel>> | null = null;
const stateDir = mkdtempSync(join(tmpdir(), "docchat-model-"));

test.beforeAll(async () => {
  test.setTimeout(180_000);
  model = await startScriptedModel();
  // its own process group, so the whole tree (npm, vite, workerd) stops at once; the model's
  // settings reach the Worker as they would from .dev.vars
  server = spawn("npm", ["run", "dev"], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DOCCHAT_STATE_DIR: stateDir,
      CLOUDFLARE_INCLUDE_PROCESS_ENV: "true",
      LLM_BASE_URL: model.baseUrl,
      LLM_API_KEY: "test-key",
      LLM_MODEL: "scripted",
    },
    detached: true,
    stdio: "ignore",
  });
  await expect
    .poll(async () => (await fetch(`${BASE}/api/health`).catch(() => null))?.status ?? 0, { timeout: 120_000, intervals: [500] })
    .toBe(200);
});

test.afterAll(async () => {
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await model?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

/** The answer's quiet line and its one marked sentence, with the reason a keyboard user reaches. */
async function expectMarked(answer: Locator) {
  await expect(answer.getByText("1 figure not found on the cited pages")).toBeVisible({ timeout: 30_000 });
  const marked = answer.locator(".unchecked");
  await expect(marked).toHaveCount(1);
  await expect(marked).toContainText(CHANGED_FIGURE);
  await marked.focus();
  await expect(marked).toHaveAccessibleDescription(new RegExp(`\\$?${CHANGED_FIGURE} is not on p\\. \\d+ of fw9\\.pdf`));
}

async function chatAboutW9(page: Page) {
  await uploadOnMyFiles(page, W9, "fw9.pdf");
  await page.getByRole("button", { name: "Actions for fw9.pdf" }).click();
  await page.getByRole("menuitem", { name: "Chat about this file" }).click();
  await expect(page.getByRole("list", { name: "Documents in this chat" }).getByText("fw9.pdf")).toBeVisible();
}

test("a figure the cited page does not state is marked in the chat, after a reload, in the memo and for a colleague", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const email = await signUp(page, "checks");
  await chatAboutW9(page);
  const answer = await ask(page, "What is backup withholding? changed figure");
  await expectMarked(answer);
  // the faithful sentence before it is not marked
  await expect(answer.locator(".rich-text")).toContainText("In other words,");

  await page.reload();
  await expectMarked(page.locator(".chat-message.bot").last());

  // the memo e-mail says the same in words
  await page.getByRole("button", { name: "Send chat memo via email" }).click();
  const memo = page.getByRole("dialog", { name: "Generate Chat Memo" });
  await memo.getByRole("button", { name: "Send to myself" }).click();
  await expect(memo.getByText("Memo successfully sent to your email!")).toBeVisible({ timeout: 15_000 });
  await page.keyboard.press("Escape");
  const chatUrl = page.url();

  // a colleague the chat is shared with sees the mark too
  const colleague = await browser.newContext();
  const member = await colleague.newPage();
  const memberEmail = await signUp(member, "checks-member");
  await page.goto(chatUrl);
  await page.getByRole("button", { name: "Share chat" }).click();
  const share = page.getByRole("dialog", { name: "Share chat with other members" });
  const input = share.getByLabel("Email address*");
  await input.fill(memberEmail);
  await input.press("Enter");
  await share.getByRole("button", { name: "Share", exact: true }).click();
  await expect(share.getByText("Chat shared.")).toBeVisible();

  await page.goto("/dev/mailbox");
  const mail = page.locator("article.mail").filter({ hasText: email }).filter({ hasText: "Chat memo" }).first();
  await expect(mail).toContainText("Not found on the cited pages:");
  await expect(mail).toContainText(new RegExp(`${CHANGED_FIGURE} is not on p\\. \\d+ of fw9\\.pdf`));

  await member.goto("/dev/mailbox");
  const invitation = member.locator("article.mail").filter({ hasText: memberEmail }).first();
  const link = (await invitation.locator("pre").textContent())!.match(/https?:\/\/\S+\/app\/chat\?session=\S+/)![0];
  await member.goto(link);
  await expectMarked(member.locator(".chat-message.bot").last());
  await colleague.close();
});
