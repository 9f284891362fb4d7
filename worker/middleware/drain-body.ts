// A response sent before the request body was read (a 401, a 413, a 429, a 503,
// a validation error) leaves the body unread. The local dev server's proxy then
// sees the connection reset and reports a failed fetch instead of our answer, so
// in development whatever the handler left of the body is read and dropped before
// the response goes (up to a bound; beyond it the stream is cancelled).
// In production nothing is drained: Cloudflare's edge copes with an unread body,
// and a refusal must not wait for the body it refuses (a client announcing 26 MB
// learns at once that it is too large). Draining after the response instead
// (waitUntil) is not possible: workerd refuses to read a request body once the
// response is sent ("Can't read from request stream after response has been sent").
import { createMiddleware } from "hono/factory";
import { isDevelopment } from "../dev-tools";
import type { AppEnv } from "../env";

const MAX_DRAIN_BYTES = 32 * 1024 * 1024; // a little above the largest upload we accept

export const drainUnreadBody = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (!isDevelopment(c.env)) return;
  const body = c.req.raw.body;
  if (!body || c.req.raw.bodyUsed || body.locked) return;
  const reader = body.getReader();
  try {
    for (let drained = 0; drained <= MAX_DRAIN_BYTES;) {
      const { done, value } = await reader.read();
      if (done) return;
      drained += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // the client went away; nothing left to read
  }
});
