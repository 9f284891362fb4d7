// A contact form message: stored first, then e-mailed to support (a failed
// e-mail is in the outbox; the message is kept either way).
import type { contactSchema } from "../contract/mail-schemas";
import { getDb } from "../db/client";
import { contactMessages } from "../db/schema";
import type { EnvDeps } from "./deps";
import { emailHtml, escapeHtml, sendMail } from "./mail";
import type { z } from "zod";

const CATEGORY_NAMES = { general: "General", technical: "Technical support", billing: "Billing", feature: "Feature request" } as const;

export type ContactInput = z.infer<typeof contactSchema>;

export async function submitContactMessage({ env }: EnvDeps, input: ContactInput): Promise<void> {
  const { email, mobile, category, message } = input;
  await getDb(env)
    .insert(contactMessages)
    .values({ email, mobile: mobile || null, category, message })
    .run();
  const details = `From: ${email}\nMobile: ${mobile || "not given"}\nCategory: ${CATEGORY_NAMES[category]}\n\n${message}`;
  await sendMail(
    { env },
    {
      kind: "contact",
      to: env.SUPPORT_EMAIL,
      replyTo: email,
      subject: `[${CATEGORY_NAMES[category]}] Contact form message from ${email}`,
      text: details,
      html: emailHtml("Contact form message", `<pre style="white-space:pre-wrap;font:inherit">${escapeHtml(details)}</pre>`),
    },
  );
}
