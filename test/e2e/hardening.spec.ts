// Hostile and careless requests against the running dev server: bodies the
// Worker refuses before reading them must still get the Worker's own answer
// (401, 429, 503...), never the dev server's "Internal server error"; the HTML
// shell, the modules and a refused /ws carry the same security headers as the
// API, and the app runs under that policy with no violation.
import { expect, test } from "@playwright/test";

const MEGABYTE = Buffer.alloc(1024 * 1024, 0x61);

test("fifty 1 MB bodies refused early all get the product's answer, none a 500", async ({ request }) => {
  const early: [method: "POST" | "DELETE", path: string][] = [
    ["POST", "/api/documents/index"], // 401: no token
    ["DELETE", "/api/documents"], // 401
    ["POST", "/api/chat/share"], // 401
    ["POST", "/api/payment/webhook"], // 503: payments not configured locally
    ["POST", "/api/auth/signin"], // 400 (not JSON), then 429 once rate limited
  ];
  const statuses: number[] = [];
  for (let i = 0; i < 50; i++) {
    const [method, path] = early[i % early.length]!;
    const res = await request.fetch(path, { method, data: MEGABYTE, headers: { "Content-Type": "application/json" } });
    statuses.push(res.status());
    expect(res.headers()["content-type"] ?? "").toContain("application/json");
  }
  expect(statuses.filter((s) => s >= 500 && s !== 503)).toEqual([]);
  expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(30);
});

const SECURITY_HEADER_NAMES = [
  "content-security-policy",
  "x-content-type-options",
  "x-frame-options",
  "referrer-policy",
  "strict-transport-security",
  "cross-origin-opener-policy",
  "cross-origin-resource-policy",
  "permissions-policy",
];

test("the HTML shell, a module, the API and a refused /ws all carry the security headers", async ({ request }) => {
  for (const path of ["/", "/app/files", "/client/main.tsx", "/api/health", "/ws"]) {
    const res = await request.get(path);
    const headers = res.headers();
    for (const name of SECURITY_HEADER_NAMES) expect(headers[name], `${name} on ${path}`).toBeTruthy();
    if (path === "/ws") expect(res.status()).toBe(426);
  }
});

test("the app runs under its content security policy with no violation", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/content security policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Hello, how can I help you?" })).toBeVisible();
  await page.goto("/app/auth/login");
  await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
  expect(violations).toEqual([]);
});

test("an address of 9,000 characters gets 414 with the product's message, not the dev server's 500", async ({ request }) => {
  for (const path of [`/app/${"a".repeat(9000)}`, `/api/documents/file/${"9".repeat(9000)}`]) {
    const res = await request.get(path);
    expect(res.status(), path.slice(0, 20)).toBe(414);
    expect(await res.json()).toEqual({ status: "error", message: "This address is too long." });
  }
  expect((await request.get(`/app/${"a".repeat(7000)}`)).status()).toBe(200); // the SPA still answers long deep links
});
