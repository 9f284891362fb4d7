// zod schemas for the account forms (spec section 5), shared by the client forms
// and the server routes so both sides give the same first message per field,
// and the account API's request and response bodies.
import { z } from "zod";
import { isEmailAddress } from "./email";
import { MESSAGES as M, PASSWORD_MIN_LENGTH } from "./messages";
import { withoutHiddenCharacters } from "./plain-text";

export const emailSchema = z
  .string({ error: M.emailRequired })
  .trim()
  .min(1, M.emailRequired)
  .max(254, M.emailInvalid)
  .refine(isEmailAddress, M.emailInvalid)
  .transform((email) => email.toLowerCase());

const loginPassword = z
  .string({ error: M.passwordRequired })
  .min(1, M.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, M.passwordMin)
  .max(256, "Password must be at most 256 characters");

// New passwords: at least 8 characters, one uppercase letter, one digit.
function strongPassword(required: string, min: string) {
  return z
    .string({ error: required })
    .min(1, required)
    .min(PASSWORD_MIN_LENGTH, min)
    .max(256, "Password must be at most 256 characters")
    .regex(/[A-Z]/, M.passwordUppercase)
    .regex(/[0-9]/, M.passwordNumber);
}

export const signinSchema = z.object({
  email: emailSchema,
  password: loginPassword,
  rememberMe: z.boolean().optional(),
});

export const signupSchema = z.object({
  email: emailSchema,
  password: strongPassword(M.passwordRequired, M.passwordMin),
  referralCode: z.string().trim().max(64).optional(),
});

/** DELETE /api/account { email }: the account's own address, typed to confirm. */
export const deleteAccountSchema = z.object({
  email: z.string({ error: M.deleteAccountConfirm }).trim().min(1, M.deleteAccountConfirm).max(320, M.deleteAccountConfirm),
});

export const saveUserInfoSchema = z.object({
  name: z
    .string({ error: M.nameRequired })
    .transform((name) => withoutHiddenCharacters(name).trim())
    .pipe(z.string().min(1, M.nameRequired).max(100, "Name must be at most 100 characters.")),
  // Optional: the profile form shows only the name. When sent it must be a real number.
  phone: z
    .string({ error: M.phoneRequired })
    .trim()
    .min(1, M.phoneRequired)
    .regex(/^\+?[0-9][0-9 ()-]{5,19}$/, M.phoneInvalid)
    .optional(),
});

export const changePasswordSchema = z.object({
  current_password: z.string({ error: M.oldPasswordRequired }).min(1, M.oldPasswordRequired).min(PASSWORD_MIN_LENGTH, M.passwordMinDot),
  new_password: strongPassword(M.newPasswordRequired, M.passwordMinDot),
});

// The Security form adds the confirmation, which never leaves the browser.
export const securityFormSchema = changePasswordSchema
  .extend({
    confirm_new_password: z.string().min(1, M.confirmPasswordRequired),
  })
  .refine((v) => v.confirm_new_password === v.new_password, {
    message: M.confirmPasswordMismatch,
    path: ["confirm_new_password"],
  });

export type FieldErrors = Record<string, string>;

/** The first message per field, as the forms show it. */
export function firstErrors(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    if (!(field in out)) out[field] = issue.message;
  }
  return out;
}

/** POST /api/auth/signin */
export type SigninRequest = z.input<typeof signinSchema>;
/** POST /api/auth/signup */
export type SignupRequest = z.input<typeof signupSchema>;
/** POST /api/saveUserInfo */
export type SaveUserInfoRequest = z.input<typeof saveUserInfoSchema>;
/** POST /api/auth/password */
export type ChangePasswordRequest = z.input<typeof changePasswordSchema>;

/** The signed-in user as sign-in and sign-up return it. */
export interface User {
  id: string;
  email: string;
  name: string;
  phone: string;
  picture: string | null;
}

/** POST /api/auth/signin and /api/auth/signup */
export interface AuthResponse {
  status: "success";
  user: User;
  token: string;
}

/** GET /api/getUserInfo */
export interface UserInfoResponse {
  data: { email: string; name: string; phone: string };
}

/** GET /api/getReferralLink */
export interface ReferralLinkResponse {
  referral_link: string;
}

/** GET /api/auth/google/signinStatus (bearer): whose token a Google sign-in handed over. */
export interface SigninStatusResponse {
  status: "success" | "error";
  user_info: { email: string; name: string; picture: string | null } | null;
  error: string | null;
}
