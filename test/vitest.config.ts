import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("..", import.meta.url));
const migrations = await readD1Migrations(`${root}/migrations`);

// Two projects: the Worker suite runs inside workerd with the real local bindings;
// the client suite renders components in happy-dom. Playwright specs stay out.
export default defineConfig({
  root,
  test: {
    projects: [
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: `${root}/wrangler.jsonc` },
            miniflare: { bindings: { TEST_MIGRATIONS: migrations } },
          }),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          setupFiles: ["test/helpers/apply-migrations.ts"],
          globalSetup: ["test/helpers/corpus-server.ts", "test/helpers/llm-server.ts"],
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
    ],
  },
});
