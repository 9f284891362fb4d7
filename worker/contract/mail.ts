// Memo, share and contact (spec sections 2, 5, 8 and 9): messages, country codes
// and the contact form's validation, shared by the client and the Worker.
import { isEmailAddress } from "./email";
import { z } from "zod";

/** Memo and share e-mails a user may have sent in 24 hours, and one address may receive from us in 24 hours. */
export const DAILY_MAILS_PER_SENDER = 50;
export const DAILY_MAILS_PER_RECIPIENT = 10;

/** The refusal for an address that already had its share of our e-mails today. */
export const recipientCapMessage = (address: string) =>
  `${address} has already received ${DAILY_MAILS_PER_RECIPIENT} e-mails from DocChat today, the most we send to one address. Please try again tomorrow.`;

export const MEMO_MESSAGES = {
  emailRequired: "Email is required.",
  emailInvalid: "Please enter a valid email address.",
  sent: "Memo successfully sent to your email!",
  sendFailed: "Failed to send memo. Please try again.",
  generationFailed: "Error generating memo. Please try again.",
  empty: "Memo generation failed",
  sessionMissing: "Session ID is missing",
  tooMany: "You are sending too many e-mails. Please wait a minute and try again.",
  dailySenderCap: `You can have up to ${DAILY_MAILS_PER_SENDER} memo and share e-mails sent a day. Please try again tomorrow.`,
} as const;

export const SHARE_MESSAGES = {
  selectAtLeastOne: "Please select at least one email address.",
  invalidEmail: "Please enter a valid email address.",
  duplicate: "This email address is already in the list.",
  notFound: "Chat not found.",
  shared: "Chat shared.",
  revoked: "Access removed.",
  cannotShareWithSelf: "You already own this chat.",
} as const;

export const CONTACT_MESSAGES = {
  emailRequired: "Email is required.",
  emailInvalid: "Please enter a valid email address.",
  mobileInvalid: "Please enter a valid 10-digit mobile number.",
  categoryRequired: "Please choose a category.",
  messageRequired: "Message is required.",
  success: "Thank you for reaching out to us! You will hear back soon.",
  failure: "An error occurred.",
  sendFailure: "Failed to send message",
} as const;

export const CONTACT_CATEGORIES = ["general", "technical", "billing", "feature"] as const;
export type ContactCategory = (typeof CONTACT_CATEGORIES)[number];

/** Spec section 9; +1 (United States, Canada) is the default. */
export const COUNTRY_CODES = [
  { code: "+1", label: "United States / Canada (+1)" },
  { code: "+44", label: "United Kingdom (+44)" },
  { code: "+91", label: "India (+91)" },
  { code: "+61", label: "Australia (+61)" },
  { code: "+86", label: "China (+86)" },
  { code: "+81", label: "Japan (+81)" },
  { code: "+49", label: "Germany (+49)" },
  { code: "+33", label: "France (+33)" },
  { code: "+39", label: "Italy (+39)" },
  { code: "+7", label: "Russia / Kazakhstan (+7)" },
  { code: "+82", label: "South Korea (+82)" },
  { code: "+55", label: "Brazil (+55)" },
  { code: "+52", label: "Mexico (+52)" },
  { code: "+34", label: "Spain (+34)" },
] as const;

export const MOBILE_DIGITS = /^\d{10}$/;
const COUNTRY_CODE_SET = new Set<string>(COUNTRY_CODES.map((c) => c.code));

export const emailAddressSchema = (required: string, invalid: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(254, invalid)
    .refine(isEmailAddress, invalid)
    .transform((e) => e.toLowerCase());

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

/** POST /api/contactUs (answered with a StatusMessage) */
export type ContactRequest = z.input<typeof contactSchema>;

/** POST /api/chat/sendMemo { session_id, email } */
export interface MemoResponse {
  status: "success";
  message: string;
  memo: string;
}

/** POST /api/chat/share { session_id, emails }: who it was shared with, and why not with the others. */
export interface ShareResponse {
  status: "success" | "partial" | "error";
  message: string;
  shared: string[];
  errors: { email: string; error: string }[];
}

/** One address a chat is shared with (DELETE /api/chat/share { session_id, email } removes it). */
export interface SharedMember {
  email: string;
  /** epoch milliseconds */
  created_at: number;
}

/** GET /api/chat/share?session_id */
export interface ShareMembersResponse {
  members: SharedMember[];
}
