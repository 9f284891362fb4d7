// Google sign-in from the Login and Register pages (spec sections 2, 3, 7 and
// 9): remember which page started it (localStorage authInfo, read by the error
// page) and leave for the server's authorization endpoint.
import { STORAGE_KEYS } from "./constants";
import { browserNavigation } from "./navigation";

export const GOOGLE_SIGNIN_URL = "/api/auth/google/connect?action=signin";
/** Default redirect after a third-party sign-in (spec section 9). */
export const DEFAULT_SIGNIN_REDIRECT = "/dashboard";

export interface AuthInfo {
  page: string;
  type: "signup" | "login";
}

export function saveAuthInfo(info: AuthInfo): void {
  try {
    localStorage.setItem(STORAGE_KEYS.authInfo, JSON.stringify(info));
  } catch {
    // storage disabled: the error page then reads as a sign-up error
  }
}

/** The stored flow type; anything unreadable counts as a sign-up. */
export function authInfoType(): AuthInfo["type"] {
  try {
    const info = JSON.parse(localStorage.getItem(STORAGE_KEYS.authInfo) ?? "null") as { type?: unknown } | null;
    return info?.type === "login" ? "login" : "signup";
  } catch {
    return "signup";
  }
}

/** Remembers which page (login or register) started the Google flow. */
export function rememberAuthFlow(mode: "login" | "register"): void {
  saveAuthInfo({
    page: mode === "login" ? "/app/auth/login" : "/app/auth/register",
    type: mode === "login" ? "login" : "signup",
  });
}

/** "Continue with Google": writes authInfo, then navigates to the sign-in endpoint. */
export function startGoogleSignin(mode: "login" | "register"): void {
  rememberAuthFlow(mode);
  browserNavigation.assign(GOOGLE_SIGNIN_URL);
}
