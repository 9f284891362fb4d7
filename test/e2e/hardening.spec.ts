// Hostile and careless requests against the running dev server: bodies the
// Worker refuses before reading them must still get the Worker's own answer
// (401, 429, 503...), never the dev server's "Internal server error".
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
