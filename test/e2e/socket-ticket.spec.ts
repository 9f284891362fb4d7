// No sign-in token in a URL (#44): in Chromium, a signed-in chat opens its
// websocket with a single-use ticket asked for just before (POST
// /api/chat/ticket); no request the page makes, HTTP or websocket, has the
// sign-in token in its URL, through a question and a reload (a new socket, a new ticket).
import { expect, test } from "@playwright/test";
import { signUp } from "./helpers";

test("the chat's socket URL carries a fresh ticket, and no request URL holds the sign-in token", async ({ page }) => {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  page.on("websocket", (socket) => urls.push(socket.url()));
  await signUp(page, "ticket");

  await page.goto("/app/chat");
  const box = page.getByPlaceholder("Ask me!");
  await box.fill("What is a W-4 form?");
  await box.press("Enter");
  await expect(page.locator(".chat-message.bot").first()).not.toHaveText(/^\s*$/, { timeout: 30_000 });
  await page.reload();
  await expect(page.getByText("What is a W-4 form?").first()).toBeVisible({ timeout: 30_000 });

  const token = await page.evaluate(() => localStorage.getItem("token"));
  expect(token).toBeTruthy();
  const sockets = urls.filter((url) => new URL(url).pathname === "/ws");
  expect(sockets.length).toBeGreaterThanOrEqual(2);
  const tickets = sockets.map((url) => new URL(url).searchParams.get("token"));
  for (const ticket of tickets) expect(ticket).toMatch(/^t1\./);
  expect(new Set(tickets).size).toBe(tickets.length);
  const signature = token!.split(".")[2]!;
  expect(urls.filter((url) => url.includes(token!) || url.includes(signature))).toEqual([]);
});
