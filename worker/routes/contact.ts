// POST /api/contactUs: open to everyone, rate limited per IP.
import { Hono } from "hono";
import { CONTACT_MESSAGES } from "../contract/mail";
import { contactSchema } from "../contract/mail-schemas";
import type { AppEnv } from "../env";
import { clientIp, enforceRateLimit } from "../middleware/rate-limit";
import { valid } from "../middleware/validate";
import { submitContactMessage } from "../services/contact";
import type { StatusMessage } from "../contract/messages";

export const contactRoutes = new Hono<AppEnv>().post("/", valid("json", contactSchema), async (c) => {
  await enforceRateLimit(c.env.CONTACT_RATE_LIMITER, [`contact:${clientIp(c.req.raw)}`]);
  await submitContactMessage({ env: c.env }, c.req.valid("json"));
  return c.json({ status: "success" as const, message: CONTACT_MESSAGES.success } satisfies StatusMessage, 200);
});
