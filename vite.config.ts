import { cloudflare } from "@cloudflare/vite-plugin";
import react from "@vitejs/plugin-react";
import { createHash } from "node:crypto";
import { defineConfig, type Plugin } from "vite";
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

// One dev server for everything: the React SPA, the Worker API and the chat
// websockets (Durable Objects), with local D1/R2/Queues from .wrangler/state.
export default defineConfig({
  // DOCCHAT_STATE_DIR: another local state directory (the restart test runs a second server).
  plugins: [
    developmentSecurityHeaders,
    react(),
    cloudflare({ persistState: { path: process.env.DOCCHAT_STATE_DIR ?? ".wrangler/state" } }),
  ],
  publicDir: "client/public",
  // Development tools (worker/dev) are left out of a production build: see worker/dev-tools.ts.
  define: { __DEV_TOOLS__: JSON.stringify(process.env.CLOUDFLARE_ENV !== "production") },
  server: {
    host: "127.0.0.1",
    port: Number(process.env.PORT ?? 5173),
    strictPort: true,
  },
  preview: {
    host: "127.0.0.1",
    port: Number(process.env.PORT ?? 4173),
  },
});
