// Proves the development tools (worker/dev: mailbox, test checkout, Google
// emulator) are fenced out of a production build: the bundle built with
// CLOUDFLARE_ENV=production contains none of their text, while a development
// build does (so this test can fail). And that the build's two Workers split as
// designed: PDFium only in the ingestion Worker, none in the API Worker.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const DEV_ONLY_TEXT = ["Development mailbox", "Test checkout: no card is charged", "Sign in with Google</h1>"];
const outDirs: string[] = [];

/** Builds the product (client + both Workers) and returns the output directory. */
function build(cloudflareEnv: string | undefined): string {
  const outDir = mkdtempSync(join(tmpdir(), "docchat-build-"));
  outDirs.push(outDir);
  const env = { ...process.env, CLOUDFLARE_ENV: cloudflareEnv };
  if (!cloudflareEnv) delete env.CLOUDFLARE_ENV;
  execFileSync("npx", ["vite", "build", "--outDir", outDir, "--logLevel", "error"], { env, stdio: "pipe" });
  return outDir;
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));

/** One built Worker's JavaScript (dist/docchat: the API Worker; dist/docchat_ingest: the ingestion Worker). */
function workerJs(outDir: string, worker: string): string {
  return filesUnder(join(outDir, worker))
    .filter((f) => f.endsWith(".js"))
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");
}

let productionBuild: string | undefined;
const production = () => (productionBuild ??= build("production"));

afterAll(() => {
  for (const dir of outDirs) rmSync(dir, { recursive: true, force: true });
});

describe("the production bundle", () => {
  it("contains no development tool, which a development build does", () => {
    const api = workerJs(production(), "docchat");
    for (const text of DEV_ONLY_TEXT) expect(api, text).not.toContain(text);
    const development = workerJs(build(undefined), "docchat");
    for (const text of DEV_ONLY_TEXT) expect(development, text).toContain(text);
  }, 120_000);

  it("keeps PDFium out of the API Worker: only the ingestion Worker reads PDFs", () => {
    const wasm = (worker: string) => filesUnder(join(production(), worker)).filter((f) => f.endsWith(".wasm"));
    expect(wasm("docchat")).toEqual([]);
    expect(workerJs(production(), "docchat")).not.toMatch(/pdfium/i);
    expect(wasm("docchat_ingest").map((f) => f.replace(/^.*\//, ""))).toEqual([expect.stringMatching(/^pdfium.*\.wasm$/)]);
    expect(workerJs(production(), "docchat_ingest")).toMatch(/pdfium/i);
  }, 120_000);
});
