// The Hono app: security headers, one error handler, one sub-app per resource.
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { MESSAGES } from "./contract/messages";
import { getDb } from "./db/client";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";
import { drainUnreadBody } from "./middleware/drain-body";
import { securityHeaders } from "./middleware/security-headers";
import { isDevelopment, loadDevTools } from "./dev-tools";
import { authRoutes } from "./routes/auth";
import { chatRoutes } from "./routes/chat";
import { contactRoutes } from "./routes/contact";
import { documentRoutes } from "./routes/documents";
import { folderRoutes } from "./routes/folders";
import { driveRoutes, googleAuthRoutes } from "./routes/google";
import { paymentRoutes } from "./routes/payment";
import { profileRoutes } from "./routes/profile";
import { openChatSocket } from "./routes/realtime";

export const app = new Hono<AppEnv>();

app.use(securityHeaders);
app.get("/ws", openChatSocket);
app.use(drainUnreadBody);

app.use(async (c, next) => {
  c.set("db", getDb(c.env));
  await next();
});

app.onError((err, c) => {
  if (err instanceof ApiError) {
    return c.json({ status: "error" as const, message: err.message, ...(err.fields ? { errors: err.fields } : {}) }, err.status);
  }
  if (err instanceof HTTPException && err.status < 500) {
    // Hono raises these for malformed JSON bodies and similar client mistakes.
    const message = /json/i.test(err.message) ? MESSAGES.invalidJson : err.message || "Bad request.";
    return c.json({ status: "error" as const, message }, err.status);
  }
  console.error("unhandled error", err);
  return c.json({ status: "error" as const, message: MESSAGES.serverError }, 500);
});

app.notFound((c) => c.json({ status: "error" as const, message: MESSAGES.notFound }, 404));

const api = new Hono<AppEnv>()
  .get("/health", (c) => c.json({ status: "ok" as const }, 200))
  .route("/auth", authRoutes)
  .route("/documents", documentRoutes)
  .route("/folders", folderRoutes)
  .route("/auth/google", googleAuthRoutes)
  .route("/drive", driveRoutes)
  .route("/chat", chatRoutes)
  .route("/contactUs", contactRoutes)
  .route("/payment", paymentRoutes)
  .route("/", profileRoutes);

app.route("/api", api);

// Development-only pages (mailbox, test checkout, Google emulator): one fenced
// router, absent from a production build and a 404 outside development.
app.all("/dev/*", async (c) => {
  if (!loadDevTools || !isDevelopment(c.env)) return c.json({ status: "error" as const, message: MESSAGES.notFound }, 404);
  const { devRoutes } = await loadDevTools();
  return devRoutes.fetch(c.req.raw, c.env, c.executionCtx);
});

export type AppType = typeof api;
