// Proves the development tools (worker/dev: mailbox, test checkout, Google
// emulator) are fenced out of a production build: the bundle built with
// CLOUDFLARE_ENV=production contains none of their text, while a development
// build does (so this test can fail).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const DEV_ONLY_TEXT = ["Development mailbox", "Test checkout: no card is charged", "Sign in with Google</h1>"];
const outDirs: string[] = [];

/** Builds the product (client + Worker) and returns the Worker bundle's JavaScript. */
function buildWorker(cloudflareEnv: string | undefined): string {
  const outDir = mkdtempSync(join(tmpdir(), "docchat-build-"));
  outDirs.push(outDir);
  const env = { ...process.env, CLOUDFLARE_ENV: cloudflareEnv };
  if (!cloudflareEnv) delete env.CLOUDFLARE_ENV;
  execFileSync("npx", ["vite", "build", "--outDir", outDir, "--logLevel", "error"], { env, stdio: "pipe" });
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
  return files(join(outDir, "docchat"))
    .filter((f) => f.endsWith(".js"))
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");
}

afterAll(() => {
  for (const dir of outDirs) rmSync(dir, { recursive: true, force: true });
});

describe("the production bundle", () => {
  it("contains no development tool, which a development build does", () => {
    const production = buildWorker("production");
    for (const text of DEV_ONLY_TEXT) expect(production, text).not.toContain(text);
    const development = buildWorker(undefined);
    for (const text of DEV_ONLY_TEXT) expect(development, text).toContain(text);
  }, 120_000);
});
