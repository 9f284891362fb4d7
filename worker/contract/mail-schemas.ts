// The zod schemas the Worker checks memo, share and contact calls with; the
// contact form checks itself with contactSchema (its page loads on demand).
import { z } from "zod";
import { checkEmailAddress, isEmailAddress } from "./email";
import { CONTACT_CATEGORIES, CONTACT_MESSAGES, COUNTRY_CODE_SET, MEMO_MESSAGES, MOBILE_DIGITS, SHARE_MESSAGES } from "./mail";

/** An address field: the one e-mail rule (checkEmailAddress), the address lowercased. */
export const emailAddressSchema = (required: string, invalid: string) =>
  z.string({ error: required }).transform((raw, ctx) => {
    const checked = checkEmailAddress(raw, required, invalid);
    if ("error" in checked) {
      ctx.addIssue({ code: "custom", message: checked.error });
      return z.NEVER;
    }
    return checked.email;
  });

/** What the server accepts; the form sends the mobile number as `+CC-NNNNNNNNNN`. */
export const contactSchema = z.object({
  email: emailAddressSchema(CONTACT_MESSAGES.emailRequired, CONTACT_MESSAGES.emailInvalid),
  mobile: z
    .string()
    .trim()
    .refine((m) => {
      if (m === "") return true;
      const [cc, digits] = m.split("-");
      return COUNTRY_CODE_SET.has(cc ?? "") && MOBILE_DIGITS.test(digits ?? "");
    }, CONTACT_MESSAGES.mobileInvalid)
    .optional()
    .nullable(),
  category: z.enum(CONTACT_CATEGORIES, { error: CONTACT_MESSAGES.categoryRequired }),
  message: z
    .string({ error: CONTACT_MESSAGES.messageRequired })
    .trim()
    .min(1, CONTACT_MESSAGES.messageRequired)
    .max(5000, "Message is too long (5,000 characters at most)."),
});

export const memoSchema = z.object({
  session_id: z.string({ error: MEMO_MESSAGES.sessionMissing }).min(1, MEMO_MESSAGES.sessionMissing).max(400),
  // empty: the caller's own e-mail (the chat's "type nothing" rule)
  email: z
    .string()
    .trim()
    .max(254, MEMO_MESSAGES.emailInvalid)
    .refine((e) => e === "" || isEmailAddress(e), MEMO_MESSAGES.emailInvalid)
    .transform((e) => e.toLowerCase())
    .optional()
    .nullable(),
});

export const shareSchema = z.object({
  session_id: z.string({ error: MEMO_MESSAGES.sessionMissing }).min(1, MEMO_MESSAGES.sessionMissing).max(400),
  emails: z
    .array(emailAddressSchema(SHARE_MESSAGES.invalidEmail, SHARE_MESSAGES.invalidEmail), { error: SHARE_MESSAGES.selectAtLeastOne })
    .min(1, SHARE_MESSAGES.selectAtLeastOne)
    .max(20, "Share with at most 20 people at a time."),
});

export const unshareSchema = z.object({
  session_id: z.string({ error: MEMO_MESSAGES.sessionMissing }).min(1, MEMO_MESSAGES.sessionMissing).max(400),
  email: emailAddressSchema(SHARE_MESSAGES.invalidEmail, SHARE_MESSAGES.invalidEmail),
});

/** POST /api/contactUs */
export type ContactRequest = z.input<typeof contactSchema>;
