// A fault test on a server of its own: kill `npm run dev` while the 417-page IRS
// Publication 17 is being indexed, start it again on the same local state, and
// the document still ends indexed without anyone doing anything (its lost
// indexer's lease expires and the Library queues it again); then My Files shows
// it Indexed in Chromium.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";

const P17 = fileURLToPath(new URL("../../../shared/corpus/irs/p17.pdf", import.meta.url));
const PORT = Number(process.env.E2E_RESTART_PORT ?? 5199);
const BASE = `http://127.0.0.1:${PORT}`;

test.skip(!existsSync(P17), "needs ../shared/corpus beside the project");

let server: ChildProcess | null = null;
const stateDir = mkdtempSync(join(tmpdir(), "docchat-restart-"));

async function startServer(): Promise<void> {
  // its own process group, so the whole tree (npm, vite, workerd) can be killed at once
  server = spawn("npm", ["run", "dev"], {
    env: { ...process.env, PORT: String(PORT), DOCCHAT_STATE_DIR: stateDir },
    detached: true,
    stdio: "ignore",
  });
  await expect
    .poll(async () => (await fetch(`${BASE}/api/health`).catch(() => null))?.status ?? 0, { timeout: 90_000, intervals: [500] })
    .toBe(200);
}

function killServer(): void {
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  server = null;
}

async function api(method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as any };
}

test.afterAll(() => {
  killServer();
  rmSync(stateDir, { recursive: true, force: true });
});

test("a server killed while Pub 17 is indexing comes back and finishes it by itself", async ({ page }) => {
  test.setTimeout(300_000);
  await startServer();
  const email = `restart-${Date.now()}@example.com`;
  const signup = await api("POST", "/api/auth/signup", undefined, { email, password: "Secret123" });
  expect(signup.status).toBe(201);
  const { token } = signup.json;

  const link = await api("GET", "/api/documents/uploadLink?fileName=p17.pdf&contentType=application/pdf", token);
  const put = await fetch(link.json.presignedUrl, {
    method: "PUT",
    headers: { "Content-Type": "application/pdf" },
    body: readFileSync(P17),
  });
  expect(put.status).toBe(200);
  const indexed = await api("POST", "/api/documents/index", token, { s3_key: link.json.s3Key });
  const fileId = indexed.json.fileId as string;
  const status = () => api("GET", `/api/documents/indexingStatus?file_id=${fileId}`, token);

  // kill it as soon as the indexer has the document
  await expect.poll(async () => (await status()).json?.status, { timeout: 60_000, intervals: [100] }).toBe("processing");
  killServer();
  await new Promise((resolve) => setTimeout(resolve, 1000));

  await startServer();
  expect((await status()).json.status).not.toBe("indexed"); // the restart really cut it
  // nobody touches it: My Files' own polling is all that happens
  await expect
    .poll(async () => (await status()).json, { timeout: 200_000, intervals: [3000] })
    .toMatchObject({
      status: "indexed",
      pagesDone: 417,
      pagesTotal: 417,
    });

  await page.goto(`${BASE}/app/auth/login`);
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Password").fill("Secret123");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("button", { name: `Account menu for ${email}` })).toBeVisible();
  await page.goto(`${BASE}/app/files`);
  await expect(page.getByRole("row").filter({ hasText: "p17.pdf" }).getByText("Indexed")).toBeVisible();
});
