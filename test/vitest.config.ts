import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import react from "@vitejs/plugin-react";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { V4WorkerOptions } from "miniflare";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

const root = fileURLToPath(new URL("..", import.meta.url));
const migrations = await readD1Migrations(`${root}/migrations`);
// The ingestion Worker's queue consumer (batch size, retries), taken from its own config
// (wrangler types these options loosely; they are Miniflare's worker options).
const { queueConsumers } = unstable_getMiniflareWorkerOptions(`${root}/wrangler.ingest.jsonc`).workerOptions as V4WorkerOptions;

// Stripe ships sourceMappingURL comments for files it does not ship; without
// this, every worker run prints hundreds of "points to missing source" warnings.
const stripStripeSourceMaps: Plugin = {
  name: "strip-stripe-source-maps",
  enforce: "pre",
  load(id) {
    const file = id.split("?")[0]!;
    if (!file.includes("/node_modules/stripe/") || !file.endsWith(".js")) return null;
    return readFileSync(file, "utf8").replace(/^\/\/# sourceMappingURL=.*$/gm, "");
  },
};

// Three projects: the Worker suite runs inside workerd with the real local
// bindings (the API and ingestion Workers as one: test/helpers/one-worker.ts);
// the client suite renders components in happy-dom; the build suite checks
// what a production build contains. Playwright specs stay out.
export default defineConfig({
  root,
  test: {
    // Each Worker test file starts its own isolate, mostly waiting on module loading between
    // vitest and workerd: three at once take 280 s where one at a time took 500 s on two cores.
    maxWorkers: 3,
    projects: [
      {
        plugins: [
          stripStripeSourceMaps,
          cloudflareTest({
            // the API Worker and the ingestion Worker's handlers in one (test/helpers/one-worker.ts)
            main: `${root}/test/helpers/one-worker.ts`,
            wrangler: { configPath: `${root}/wrangler.jsonc` },
            miniflare: { bindings: { TEST_MIGRATIONS: migrations }, queueConsumers },
          }),
        ],
        define: { __DEV_TOOLS__: "true" },
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          setupFiles: ["test/helpers/apply-migrations.ts"],
          globalSetup: ["test/helpers/corpus-server.ts", "test/helpers/llm-server.ts", "test/helpers/stripe-server.ts"],
          testTimeout: 30_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: "client",
          include: ["test/client/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          setupFiles: ["test/helpers/client-setup.ts"],
        },
      },
      {
        test: {
          name: "build",
          include: ["test/build/**/*.test.ts"],
          environment: "node",
        },
      },
    ],
  },
});
