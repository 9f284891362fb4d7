// Security headers on every response. A route may set its own value for one of
// them (a served PDF, the sandboxed mailbox view); otherwise these apply. A 101
// websocket upgrade carries no headers of ours.
import { createMiddleware } from "hono/factory";
import { SECURITY_HEADERS } from "../lib/security-headers";

export const securityHeaders = createMiddleware(async (c, next) => {
  await next();
  if (c.res.status === 101) return;
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!c.res.headers.has(name)) c.res.headers.set(name, value);
});
