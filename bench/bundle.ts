// Bundle size: the client JavaScript and CSS a first visit downloads (gzip),
// against a reference built in the same run: a bare React + react-dom page.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { build } from "vite";

const ROOT = join(import.meta.dirname, "..");

function gzipKb(file: string): number {
  return gzipSync(readFileSync(file)).length / 1024;
}

/** gzip kB of the files index.html loads on a first visit (its scripts, styles and their static imports). */
function firstVisitKb(outDir: string): { js: number; css: number } {
  const html = readFileSync(join(outDir, "index.html"), "utf8");
  const assets = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  const js = assets.filter((a) => a.endsWith(".js")).reduce((n, a) => n + gzipKb(join(outDir, a)), 0);
  const css = assets.filter((a) => a.endsWith(".css")).reduce((n, a) => n + gzipKb(join(outDir, a)), 0);
  return { js, css };
}

export interface BundleFigures {
  oursJsKb: number;
  oursCssKb: number;
  lazyChunks: number;
  referenceJsKb: number;
  /** each Worker of the build: its code and WebAssembly, gzip, and whether it carries PDFium */
  workers: { name: string; gzipKb: number; pdfium: boolean }[];
}

/** The Workers the build writes beside the client (dist/<worker name>/): what each one uploads. */
function workerSizes(distDir: string): BundleFigures["workers"] {
  return readdirSync(distDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== "client")
    .map((d) => {
      const files = readdirSync(join(distDir, d.name), { recursive: true, encoding: "utf8" }).filter((f) => /\.(?:js|mjs|wasm)$/.test(f));
      return {
        name: d.name,
        gzipKb: files.reduce((n, f) => n + gzipKb(join(distDir, d.name, f)), 0),
        pdfium: files.some((f) => /pdfium/i.test(f)),
      };
    });
}

export async function benchBundle(): Promise<BundleFigures> {
  // ours: the real production build
  execFileSync("npx", ["vite", "build", "--logLevel", "error"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, CLOUDFLARE_ENV: "production" },
  });
  const clientDir = join(ROOT, "dist/client");
  const ours = firstVisitKb(clientDir);
  const lazyChunks = readdirSync(join(clientDir, "assets")).filter((f) => f.endsWith(".js")).length - 1;

  // reference: a page that only renders with React, built the same way
  const refDir = join(ROOT, "bench/.reference-app");
  rmSync(refDir, { recursive: true, force: true });
  mkdirSync(refDir, { recursive: true });
  writeFileSync(join(refDir, "index.html"), '<!doctype html><div id="root"></div><script type="module" src="/main.tsx"></script>');
  writeFileSync(
    join(refDir, "main.tsx"),
    'import { createRoot } from "react-dom/client";\ncreateRoot(document.getElementById("root")!).render(<p>Hello</p>);\n',
  );
  await build({ root: refDir, logLevel: "error", plugins: [react()], build: { outDir: join(refDir, "dist") } });
  const reference = firstVisitKb(join(refDir, "dist"));
  rmSync(refDir, { recursive: true, force: true });
  return { oursJsKb: ours.js, oursCssKb: ours.css, lazyChunks, referenceJsKb: reference.js, workers: workerSizes(join(ROOT, "dist")) };
}
