// The account (spec sections 4, 5 and 8): signing in and up (by password or
// Google), the profile, the password, the referral link and deleting the
// account. Each action returns what the form shows or throws ApiRequestError,
// whose message (and field errors) the form shows as they are.
import type { StatusMessage } from "../../worker/contract/messages";
import type {
  AuthResponse,
  ChangePasswordRequest,
  ReferralLinkResponse,
  SaveUserInfoRequest,
  SigninRequest,
  SigninStatusResponse,
  SignupRequest,
  UserInfoResponse,
} from "../../worker/contract/validation";
import { api, duringSignOut } from "../lib/api";
import { STORAGE_KEYS } from "../lib/constants";
import { closeSettings, newSessionId, setCurrentSession } from "./app";
import { resetAll, signedIn, userInfo } from "./user";

function startSession(result: AuthResponse): void {
  signedIn(result.user, result.token);
  setCurrentSession(newSessionId(result.user.email));
}

export async function signIn(body: SigninRequest): Promise<void> {
  startSession(await api<AuthResponse>("POST", "/api/auth/signin", body));
}

export async function signUp(body: SignupRequest): Promise<void> {
  startSession(await api<AuthResponse>("POST", "/api/auth/signup", body));
}

export type GoogleUser = NonNullable<SigninStatusResponse["user_info"]>;

/**
 * Asks who a Google sign-in token belongs to. A plain fetch, not api(): a 401
 * here must not run the signed-in logout flow. Throws on any failure.
 */
export async function checkGoogleSignin(token: string): Promise<GoogleUser> {
  const response = await fetch("/api/auth/google/signinStatus", {
    headers: { Accept: "application/json", Authorization: `Bearer ${token}` },
  });
  const data = (await response.json().catch(() => null)) as Partial<SigninStatusResponse> | null;
  const info = data?.user_info;
  if (!response.ok || data?.status !== "success" || !info?.email) {
    throw new Error(data?.error || `Sign-in status check failed (${response.status})`);
  }
  return info;
}

/** Stores a confirmed Google sign-in like a password sign-in. */
export function completeGoogleSignin(info: GoogleUser, token: string): void {
  signedIn({ id: "", email: info.email, name: info.name ?? "", phone: "", picture: info.picture ?? null }, token);
  setCurrentSession(newSessionId(info.email));
  localStorage.removeItem(STORAGE_KEYS.authInfo);
}

export async function loadProfile(): Promise<UserInfoResponse["data"]> {
  return (await api<UserInfoResponse>("GET", "/api/getUserInfo")).data;
}

/** Saves the profile; a saved name shows at once. */
export async function saveProfile(profile: SaveUserInfoRequest): Promise<StatusMessage> {
  const result = await api<StatusMessage>("POST", "/api/saveUserInfo", profile);
  if (result.status === "success" && userInfo.user) userInfo.user.name = profile.name;
  return result;
}

export function changePassword(body: ChangePasswordRequest): Promise<StatusMessage> {
  return api<StatusMessage>("POST", "/api/auth/password", body);
}

export async function loadReferralLink(): Promise<string> {
  return (await api<ReferralLinkResponse>("GET", "/api/getReferralLink")).referral_link;
}

/** Deletes the account (confirmed by its e-mail address), then signs out here; the deletion signing this tab's chat socket out is no "session expired". */
export async function deleteAccount(email: string): Promise<void> {
  await duringSignOut(() => api<StatusMessage>("DELETE", "/api/account", { email }));
  closeSettings();
  resetAll();
}
