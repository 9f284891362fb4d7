import { defineConfig, devices } from "@playwright/test";

// Browser tests in Debian's Chromium (never a downloaded browser) against `npm run dev`.
const port = Number(process.env.E2E_PORT ?? 5173);
const baseURL = process.env.E2E_BASE_URL ?? `http://127.0.0.1:${port}`;
/** Specs that start a dev server of their own on another port. */
const OWN_SERVER = ["**/restart.spec.ts", "**/answer-checks.spec.ts"];
const desktopChromium = { ...devices["Desktop Chrome"], channel: undefined };

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  outputDir: "../../test-results",
  fullyParallel: false,
  // the specs run one at a time against one dev server; those that start a server of their own
  // (a restart while indexing, a scripted model) run beside them, mostly waiting on that server
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["json", { outputFile: "../../test-results/e2e.json" }]] : "list",
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
      ],
    },
  },
  projects: [
    { name: "own-server", testMatch: OWN_SERVER, workers: 1, use: desktopChromium },
    { name: "chromium", testIgnore: OWN_SERVER, workers: 1, use: desktopChromium },
  ],
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: "npm run dev",
        url: `${baseURL}/api/health`,
        env: { PORT: String(port) },
        reuseExistingServer: !process.env.CI,
        timeout: 120_000,
        stdout: "ignore",
        stderr: "pipe",
      },
});
