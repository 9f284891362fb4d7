// Memo, share and contact (spec sections 2, 5, 8 and 9): messages, country codes
// and the wire types, shared by the client and the Worker (the zod schemas are in
// mail-schemas.ts, out of the client's first visit).

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
export const COUNTRY_CODE_SET = new Set<string>(COUNTRY_CODES.map((c) => c.code));

/** POST /api/contactUs (answered with a StatusMessage) */
export type { ContactRequest } from "./mail-schemas";

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
