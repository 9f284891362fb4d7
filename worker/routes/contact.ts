// POST /api/contactUs: open to everyone, rate limited per IP, stored first and
// then e-mailed to support (a failed e-mail is in the outbox; the message is kept).
import { Hono } from "hono";
import { CONTACT_MESSAGES, contactSchema } from "../contract/mail";
import type { AppEnv } from "../env";
import { clientIp, enforceRateLimit } from "../middleware/rate-limit";
import { valid } from "../middleware/validate";
import { emailHtml, escapeHtml, sendMail } from "../services/mail";

const CATEGORY_NAMES = { general: "General", technical: "Technical support", billing: "Billing", feature: "Feature request" } as const;

export const contactRoutes = new Hono<AppEnv>().post("/", valid("json", contactSchema), async (c) => {
  await enforceRateLimit(c.env.CONTACT_RATE_LIMITER, [`contact:${clientIp(c.req.raw)}`]);
  const { email, mobile, category, message } = c.req.valid("json");
  await c.env.DB.prepare("INSERT INTO contact_messages (email, mobile, category, message) VALUES (?, ?, ?, ?)")
    .bind(email, mobile || null, category, message)
    .run();
  const subject = `[${CATEGORY_NAMES[category]}] Contact form message from ${email}`;
  const details = `From: ${email}\nMobile: ${mobile || "not given"}\nCategory: ${CATEGORY_NAMES[category]}\n\n${message}`;
  await sendMail(c.env, {
    kind: "contact",
    to: c.env.SUPPORT_EMAIL,
    replyTo: email,
    subject,
    text: details,
    html: emailHtml("Contact form message", `<pre style="white-space:pre-wrap;font:inherit">${escapeHtml(details)}</pre>`),
  });
  return c.json({ status: "success" as const, message: CONTACT_MESSAGES.success }, 200);
});
