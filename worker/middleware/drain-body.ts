// A response sent before the request body was read (a 401, a 429, a 503, a
// validation error) leaves the body unread; some clients, the local dev server's
// proxy among them, then see the connection reset and report a failed fetch
// instead of our answer. So after every response, whatever the handler left of
// the body is read and dropped (up to a bound; beyond it the stream is cancelled).
import { createMiddleware } from "hono/factory";

const MAX_DRAIN_BYTES = 32 * 1024 * 1024; // a little above the largest upload we accept

export const drainUnreadBody = createMiddleware(async (c, next) => {
  await next();
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
