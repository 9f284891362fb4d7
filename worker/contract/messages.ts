// Every user-visible validation and result message of spec sections 5 and 8,
// defined once. The client forms and the server validators both read these.
export const MESSAGES = {
  emailRequired: "Email is required",
  emailInvalid: "Please enter a valid email",
  passwordRequired: "Password is required",
  passwordMin: "Password must be at least 8 characters",
  passwordUppercase: "Password must contain at least one uppercase letter",
  passwordNumber: "Password must contain at least one number",

  nameRequired: "Name is required.",
  phoneRequired: "Phone number is required.",
  phoneInvalid: "Please enter a valid phone number.",
  userInfoUpdated: "User info updated successfully.",

  oldPasswordRequired: "Old password is required.",
  passwordMinDot: "Password must be at least 8 characters.",
  newPasswordRequired: "New password is required.",
  confirmPasswordRequired: "Confirm new password is required.",
  confirmPasswordMismatch: "The confirmed password does not match.",
  passwordChanged: "Password changed successfully.",
  oldPasswordWrong: "Old password is incorrect.",
  newPasswordSameAsOld: "New password must be different from the old password.",

  // Our own wording where the spec leaves it open (docs/decisions.md).
  emailTaken: "An account with this email already exists. Please log in instead.",
  invalidCredentials: "Invalid email or password.",
  unauthorized: "Your session has expired. Please log in again.",
  tooManyAttempts: "Too many attempts. Please wait a minute and try again.",
  notFound: "Not found.",
  invalidJson: "The request body must be valid JSON.",
  jsonObjectRequired: "The request body must be a JSON object.",
  serverError: "Something went wrong on our side. Please try again.",
  deleteAccountConfirm: "Type your account's e-mail address to confirm.",
  accountDeleted: "Your account and all its documents, chats and shares were deleted.",
} as const;

export const PASSWORD_MIN_LENGTH = 8;

/**
 * The body of a request answered with one sentence: sign-out, profile saved,
 * password changed, account deleted, contact message sent, drive disconnected,
 * access to a shared chat removed.
 */
export interface StatusMessage {
  status: "success" | "error";
  message: string;
}

/** Every failed request (app.onError): the sentence to show and, for a form, one message per field. */
export interface ErrorResponse {
  status: "error";
  message: string;
  errors?: Record<string, string>;
}
