import { cloudflare } from "@cloudflare/vite-plugin";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// One dev server for everything: the React SPA, the Worker API and the chat
// websockets (Durable Objects), with local D1/R2/Queues from .wrangler/state.
export default defineConfig({
  // DOCCHAT_STATE_DIR: another local state directory (the restart test runs a second server).
  plugins: [react(), cloudflare({ persistState: { path: process.env.DOCCHAT_STATE_DIR ?? ".wrangler/state" } })],
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
