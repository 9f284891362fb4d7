// Google OAuth 2.0 (authorization code + PKCE) and Drive v3, read-only. With
// GOOGLE_CLIENT_ID set this talks to Google (endpoint bases overridable); in
// development without one it talks to the built-in emulator under /dev/google,
// called in-process so no network is needed.
import { optionalSecrets } from "../config";
import { isDevelopment, loadDevTools } from "../dev-tools";
import { base64url } from "../lib/encoding";

export const SIGNIN_SCOPES = ["openid", "email", "profile"];
export const DRIVE_SCOPES = [...SIGNIN_SCOPES, "https://www.googleapis.com/auth/drive.readonly"];
export const EMULATOR_CLIENT_ID = "docchat-local-emulator";

export interface GoogleConfig {
  clientId: string;
  clientSecret?: string;
  authUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  revokeUrl: string;
  driveApi: string;
  emulated: boolean;
}

export function isGoogleEmulated(env: Env): boolean {
  return isDevelopment(env) && !optionalSecrets(env).GOOGLE_CLIENT_ID;
}

/** null when Google is not configured (production without a client id). */
export function googleConfig(env: Env, origin: string): GoogleConfig | null {
  const s = optionalSecrets(env);
  if (s.GOOGLE_CLIENT_ID) {
    return {
      clientId: s.GOOGLE_CLIENT_ID,
      clientSecret: s.GOOGLE_CLIENT_SECRET,
      authUrl: s.GOOGLE_AUTH_URL ?? "https://accounts.google.com/o/oauth2/v2/auth",
      tokenUrl: s.GOOGLE_TOKEN_URL ?? "https://oauth2.googleapis.com/token",
      userinfoUrl: s.GOOGLE_USERINFO_URL ?? "https://openidconnect.googleapis.com/v1/userinfo",
      revokeUrl: s.GOOGLE_REVOKE_URL ?? "https://oauth2.googleapis.com/revoke",
      driveApi: s.GOOGLE_DRIVE_API ?? "https://www.googleapis.com/drive/v3",
      emulated: false,
    };
  }
  if (!isGoogleEmulated(env)) return null;
  const base = `${origin}${EMULATOR_PATH}`;
  return {
    clientId: EMULATOR_CLIENT_ID,
    authUrl: `${base}/o/oauth2/v2/auth`,
    tokenUrl: `${base}/token`,
    userinfoUrl: `${base}/oauth2/v3/userinfo`,
    revokeUrl: `${base}/revoke`,
    driveApi: `${base}/drive/v3`,
    emulated: true,
  };
}

export const EMULATOR_PATH = "/dev/google";

/** Hands a request under /dev/google to the emulator (loaded only when used; not in a production build). */
async function callEmulator(env: Env, request: Request): Promise<Response> {
  if (!loadDevTools) throw new Error("the Google emulator is not part of a production build");
  const { devRoutes } = await loadDevTools();
  return devRoutes.fetch(request, env);
}

/** fetch, except that emulator URLs are answered in-process (the Worker cannot rely on reaching its own origin). */
export async function googleFetch(env: Env, config: GoogleConfig, url: string, init?: RequestInit): Promise<Response> {
  return config.emulated ? callEmulator(env, new Request(url, init)) : fetch(url, init);
}

export class GoogleError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "GoogleError";
  }
}

export interface GoogleTokens {
  access_token: string;
  expires_in: number;
  refresh_token?: string;
  scope?: string;
}

export interface GoogleProfile {
  sub: string;
  email: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

async function tokenRequest(env: Env, config: GoogleConfig, params: Record<string, string>): Promise<GoogleTokens> {
  const body = new URLSearchParams({
    client_id: config.clientId,
    ...(config.clientSecret ? { client_secret: config.clientSecret } : {}),
    ...params,
  });
  const response = await googleFetch(env, config, config.tokenUrl, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
    body,
  });
  const json = (await response.json().catch(() => ({}))) as Partial<GoogleTokens> & { error?: string; error_description?: string };
  if (!response.ok || !json.access_token) {
    throw new GoogleError(json.error_description ?? "Google did not accept the request.", json.error ?? "token_error", response.status);
  }
  return json as GoogleTokens;
}

export function exchangeCode(env: Env, config: GoogleConfig, code: string, redirectUri: string, codeVerifier: string) {
  return tokenRequest(env, config, { grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: codeVerifier });
}

export function refreshAccessToken(env: Env, config: GoogleConfig, refreshToken: string) {
  return tokenRequest(env, config, { grant_type: "refresh_token", refresh_token: refreshToken });
}

export async function fetchProfile(env: Env, config: GoogleConfig, accessToken: string): Promise<GoogleProfile> {
  const response = await googleFetch(env, config, config.userinfoUrl, { headers: { Authorization: `Bearer ${accessToken}` } });
  const json = (await response.json().catch(() => ({}))) as Partial<GoogleProfile>;
  if (!response.ok || !json.sub || !json.email)
    throw new GoogleError("Could not read your Google profile.", "userinfo_error", response.status);
  return json as GoogleProfile;
}

export async function revokeToken(env: Env, config: GoogleConfig, token: string): Promise<void> {
  await googleFetch(env, config, `${config.revokeUrl}?token=${encodeURIComponent(token)}`, { method: "POST" }).catch(() => undefined);
}

/** PKCE: a random verifier and its S256 challenge. */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const verifier = base64url(bytes);
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
  return { verifier, challenge };
}

export function authorizationUrl(
  config: GoogleConfig,
  p: { redirectUri: string; state: string; challenge: string; scopes: string[] },
): string {
  const url = new URL(config.authUrl);
  url.search = new URLSearchParams({
    client_id: config.clientId,
    redirect_uri: p.redirectUri,
    response_type: "code",
    scope: p.scopes.join(" "),
    state: p.state,
    code_challenge: p.challenge,
    code_challenge_method: "S256",
    access_type: "offline",
    prompt: "consent",
    include_granted_scopes: "true",
  }).toString();
  return url.toString();
}

export interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  webViewLink?: string;
  size?: string;
}

export async function driveRequest(env: Env, config: GoogleConfig, accessToken: string, path: string): Promise<Response> {
  const response = await googleFetch(env, config, `${config.driveApi}${path}`, { headers: { Authorization: `Bearer ${accessToken}` } });
  if (!response.ok) {
    const json = (await response.json().catch(() => ({}))) as { error?: { message?: string; status?: string } };
    throw new GoogleError(
      json.error?.message ?? `Google Drive answered ${response.status}.`,
      json.error?.status ?? "drive_error",
      response.status,
    );
  }
  return response;
}
