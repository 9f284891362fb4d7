import { cloudflare } from "@cloudflare/vite-plugin";
import react from "@vitejs/plugin-react";
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { defineConfig, type Plugin } from "vite";
import { OCR_ASSET_BASE, OCR_ASSET_SOURCES, type OcrAssetName } from "./client/lib/ocr/assets.ts";
import { SECURITY_HEADERS, policyAllowingScripts } from "./worker/lib/security-headers.ts";

/**
 * The development server sends the product's security headers too. Its HTML
 * shell has one inline script of its own (React's refresh preamble), which the
 * policy allows by its hash and nothing else.
 */
const preambleHash = createHash("sha256").update(react.preambleCode.replace("__BASE__", "/")).digest("base64");
const developmentSecurityHeaders: Plugin = {
  name: "docchat-security-headers",
  apply: "serve",
  configureServer(server) {
    const headers = { ...SECURITY_HEADERS, "Content-Security-Policy": policyAllowingScripts([preambleHash]) };
    server.middlewares.use((_req, res, next) => {
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      next();
    });
  },
};

/**
 * An address longer than MAX_URL_LENGTH gets 414. Past ~8 KB the Cloudflare
 * plugin's own request hand-off fails with a 500 before the Worker sees it;
 * Cloudflare's edge answers 414 too (at 16 KB).
 */
const MAX_URL_LENGTH = 8000;
const developmentUrlLimit: Plugin = {
  name: "docchat-url-limit",
  apply: "serve",
  configureServer(server) {
    server.middlewares.use((req, res, next) => {
      if ((req.url ?? "").length <= MAX_URL_LENGTH) return next();
      res.statusCode = 414;
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ status: "error", message: "This address is too long." }));
    });
  },
};

/**
 * Text recognition's files come from our own origin (client/lib/ocr/assets.ts):
 * the dev server answers /ocr/* from node_modules, and a build emits the same
 * files into the client output, so they are never copied into git.
 */
const resolvePackageFile = createRequire(import.meta.url).resolve;
const OCR_CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".gz": "application/octet-stream",
};
const ocrAssets: Plugin = {
  name: "docchat-ocr-assets",
  configureServer(server) {
    server.middlewares.use((req, res, next) => {
      const path = (req.url ?? "").split("?")[0]!;
      const name = path.startsWith(OCR_ASSET_BASE) ? path.slice(OCR_ASSET_BASE.length) : "";
      if (!Object.hasOwn(OCR_ASSET_SOURCES, name)) return next();
      const file = resolvePackageFile(OCR_ASSET_SOURCES[name as OcrAssetName]);
      res.setHeader("Content-Type", OCR_CONTENT_TYPES[name.slice(name.lastIndexOf("."))]!);
      res.setHeader("Content-Length", statSync(file).size);
      res.end(readFileSync(file));
    });
  },
  // only the browser's half of the build (not the Worker's) serves static files
  applyToEnvironment: (environment) => environment.name === "client",
  generateBundle() {
    for (const [name, source] of Object.entries(OCR_ASSET_SOURCES)) {
      this.emitFile({ type: "asset", fileName: `${OCR_ASSET_BASE.slice(1)}${name}`, source: readFileSync(resolvePackageFile(source)) });
    }
  },
};

// One dev server for everything: the React SPA, the API Worker with the chat
// websockets (Durable Objects) and the ingestion Worker (wrangler.ingest.jsonc,
// the Queue consumer), with local D1/R2/Queues from .wrangler/state.
const stateDir = process.env.DOCCHAT_STATE_DIR;

export default defineConfig({
  // DOCCHAT_STATE_DIR: another local state directory (the restart test runs a second server),
  // with its own dependency cache: two servers optimizing into one cache at once restart each
  // other's Worker, and a request in flight then fails.
  ...(stateDir ? { cacheDir: `${stateDir}/vite-cache` } : {}),
  plugins: [
    developmentSecurityHeaders,
    developmentUrlLimit,
    ocrAssets,
    react(),
    cloudflare({
      persistState: { path: stateDir ?? ".wrangler/state" },
      auxiliaryWorkers: [{ configPath: "./wrangler.ingest.jsonc" }],
      // DOCCHAT_INSPECTOR_PORT: where workerd's DevTools inspector listens (bench/workerd-profile.ts profiles a turn there)
      inspectorPort: process.env.DOCCHAT_INSPECTOR_PORT ? Number(process.env.DOCCHAT_INSPECTOR_PORT) : undefined,
    }),
  ],
  // The dev server sends the app as one bundle (and a chunk per lazy page), not ~110 modules a
  // page load: a first visit in Chromium 3.2 -> 2.1 s here, the browser suite 14.2 -> 10.8 min.
  // Vite marks this mode experimental; every browser test runs on it (docs/decisions.md).
  experimental: { bundledDev: true },
  publicDir: "client/public",
  // Development tools (worker/dev) are left out of a production build: see worker/dev-tools.ts.
  define: { __DEV_TOOLS__: JSON.stringify(process.env.CLOUDFLARE_ENV !== "production") },
  server: {
    host: "127.0.0.1",
    port: Number(process.env.PORT ?? 5173),
    strictPort: true,
    // A request the Worker runtime drops (a fresh clone's cold start resets one now and then) shows as
    // the product's own message ("Could not load your files. Please try again."), not as Vite's
    // full-screen "fetch failed" overlay over the page; build errors still print in the terminal.
    hmr: { overlay: false },
  },
  preview: {
    host: "127.0.0.1",
    port: Number(process.env.PORT ?? 4173),
  },
});
