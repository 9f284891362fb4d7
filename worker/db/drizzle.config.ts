import { defineConfig } from "drizzle-kit";

// `npm run db:generate` writes flat numbered SQL into migrations/ (append-only).
export default defineConfig({
  dialect: "sqlite",
  schema: "./worker/db/schema.ts",
  out: "./migrations",
});
