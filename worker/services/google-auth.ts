// Google sign-in and Drive connection: starting an authorization (signed,
// single-use, expiring state bound to the action and, for connect, to the user;
// PKCE verifier kept server-side) and completing it at the callback.
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { driveConnections, oauthStates, users } from "../db/schema";
import { ApiError } from "../errors";
import {
  DRIVE_SCOPES,
  SIGNIN_SCOPES,
  authorizationUrl,
  exchangeCode,
  fetchProfile,
  pkcePair,
  type GoogleConfig,
  type GoogleProfile,
} from "../providers/google";
import { safeRedirectPath } from "../contract/redirect";
import type { User } from "../contract/validation";
import { newReferralCode, startSession } from "./accounts";
import { seal } from "../lib/secret-box";
import { signLink, verifyLink } from "../lib/signed-links";

export const STATE_TTL_MS = 10 * 60 * 1000;
export const DEFAULT_SIGNIN_REDIRECT = "/dashboard";
export const DEFAULT_CONNECT_REDIRECT = "/gdrive-connected";

export const GOOGLE_MESSAGES = {
  notConfigured: "Google sign-in is not configured on this server.",
  badState: "This sign-in link is invalid or has expired. Please start again.",
  denied: "Google access was not granted.",
  unverified: "Your Google e-mail address is not verified.",
  failed: "Google sign-in failed. Please try again.",
  fileRequired: "File is required.",
  notConnected: "Google Drive is not connected.",
  pageExpired: "This page of your Drive files is no longer available. Open the list again.",
} as const;

export type OAuthAction = "signin" | "connect";

export function callbackUrl(origin: string): string {
  return `${origin}/api/auth/google/callback`;
}

/**
 * The cookie that binds an authorization to the browser that started it: the
 * callback is refused in any other browser (someone else's consent cannot link
 * their Google account to the account named in the link).
 */
export const oauthCookieName = (nonce: string) => `docchat_oauth_${nonce}`;

/** What Google sign-in and Drive connection need: the database, the Worker's env and the Google client settings. */
export interface GoogleAuthDeps {
  db: Db;
  env: Env;
  config: GoogleConfig;
}

/** The nonce a state names (before it is verified). */
export const stateNonce = (state: string | undefined) => (state ?? "").split(".")[1] ?? "";

export async function startAuthorization(
  { db, env, config }: GoogleAuthDeps,
  {
    origin,
    nonce = crypto.randomUUID(),
    ...request
  }: { origin: string; action: OAuthAction; userId?: string; redirectPath?: string; nonce?: string },
): Promise<{ url: string; nonce: string }> {
  const { verifier, challenge } = await pkcePair();
  const { expires, signature } = await signLink(env.JWT_SECRET, "oauth", `${request.action}:${nonce}`, STATE_TTL_MS);
  await db.insert(oauthStates).values({
    nonce,
    action: request.action,
    userId: request.userId ?? null,
    redirectPath: request.redirectPath ?? null,
    codeVerifier: verifier,
    expiresAt: Number(expires),
  });
  const url = authorizationUrl(config, {
    redirectUri: callbackUrl(origin),
    state: `${request.action}.${nonce}.${expires}.${signature}`,
    challenge,
    scopes: request.action === "connect" ? DRIVE_SCOPES : SIGNIN_SCOPES,
  });
  return { url, nonce };
}

/** Verifies and consumes a state: tampered, expired, unknown or reused states are refused and change nothing. */
async function consumeState(db: Db, env: Env, state: string | undefined) {
  const [action, nonce, expires, signature] = (state ?? "").split(".");
  if ((action !== "signin" && action !== "connect") || !nonce) throw new ApiError(400, GOOGLE_MESSAGES.badState);
  if (!(await verifyLink(env.JWT_SECRET, "oauth", `${action}:${nonce}`, expires, signature)))
    throw new ApiError(400, GOOGLE_MESSAGES.badState);
  const used = await db
    .update(oauthStates)
    .set({ usedAt: Date.now() })
    .where(and(eq(oauthStates.nonce, nonce), eq(oauthStates.action, action), isNull(oauthStates.usedAt)))
    .returning()
    .get();
  if (!used || used.expiresAt < Date.now()) throw new ApiError(400, GOOGLE_MESSAGES.badState);
  return used;
}

/** The account for a Google profile: found by Google id, else linked by verified e-mail, else created. */
async function findOrCreateGoogleUser(db: Db, profile: GoogleProfile) {
  const bySub = await db.select().from(users).where(eq(users.googleSub, profile.sub)).get();
  if (bySub) return bySub;
  if (profile.email_verified === false) throw new ApiError(400, GOOGLE_MESSAGES.unverified);
  const email = profile.email.trim().toLowerCase();
  const byEmail = await db.select().from(users).where(eq(users.email, email)).get();
  if (byEmail) {
    return db
      .update(users)
      .set({ googleSub: profile.sub, picture: byEmail.picture ?? profile.picture ?? null, name: byEmail.name || profile.name || "" })
      .where(eq(users.id, byEmail.id))
      .returning()
      .get();
  }
  return db
    .insert(users)
    .values({
      id: crypto.randomUUID(),
      email,
      name: profile.name ?? "",
      picture: profile.picture ?? null,
      googleSub: profile.sub,
      referralCode: newReferralCode(),
    })
    .returning()
    .get();
}

export type CallbackResult =
  { action: "signin"; user: User; token: string; redirectTo: string } | { action: "connect"; redirectTo: string };

export async function completeAuthorization(
  { db, env, config }: GoogleAuthDeps,
  { origin, ...params }: { origin: string; code?: string; state?: string; error?: string },
): Promise<CallbackResult> {
  const state = await consumeState(db, env, params.state);
  if (params.error || !params.code) throw new ApiError(400, GOOGLE_MESSAGES.denied);
  const tokens = await exchangeCode(env, config, params.code, callbackUrl(origin), state.codeVerifier);
  const profile = await fetchProfile(env, config, tokens.access_token);

  if (state.action === "signin") {
    const user = await findOrCreateGoogleUser(db, profile);
    const session = await startSession({ db, jwtSecret: env.JWT_SECRET }, { user });
    return { action: "signin", ...session, redirectTo: safeRedirectPath(state.redirectPath ?? undefined, DEFAULT_SIGNIN_REDIRECT) };
  }

  if (!state.userId) throw new ApiError(400, GOOGLE_MESSAGES.badState);
  const values = {
    accessToken: await seal(env.ENCRYPTION_KEY, tokens.access_token),
    refreshToken: tokens.refresh_token ? await seal(env.ENCRYPTION_KEY, tokens.refresh_token) : null,
    expiresAt: Date.now() + tokens.expires_in * 1000,
    scope: tokens.scope ?? DRIVE_SCOPES.join(" "),
    connectedAt: Date.now(),
  };
  await db
    .insert(driveConnections)
    .values({ userId: state.userId, ...values })
    .onConflictDoUpdate({ target: driveConnections.userId, set: values });
  return { action: "connect", redirectTo: safeRedirectPath(state.redirectPath ?? undefined, DEFAULT_CONNECT_REDIRECT) };
}
