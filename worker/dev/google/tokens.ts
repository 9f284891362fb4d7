// Stateless, HMAC-signed authorization codes, access tokens and refresh tokens for
// the Google emulator. Each token is `<Google-like prefix><payload>.<signature>`:
// the payload is base64url JSON, the signature is HMAC-SHA256 over the token kind
// and the payload with a key derived from JWT_SECRET under its own prefix, so an
// emulator token can never pass as an app session token or a signed link, and a
// code can never pass as an access token. What must be remembered (used codes,
// revoked grants) lives in ./store.ts.
//
// A "grant" is one Allow on the consent page. Its id is the code's id; the access
// and refresh tokens issued from that code carry it, so revoking the grant kills
// all of them at once (as revoking a Google token does).

import { base64url, fromBase64url } from "../../lib/encoding";

const encoder = new TextEncoder();

export type TokenKind = "code" | "access" | "refresh";

/** Look-alikes of Google's own prefixes (`4/0…` codes, `ya29.…` access tokens, `1//…` refresh tokens). */
const PREFIX: Record<TokenKind, string> = { code: "4/0", access: "ya29.", refresh: "1//" };

/** The account a grant is for. `sub` is derived from the e-mail (see subjectFor). */
export interface GoogleUser {
  email: string;
  name: string;
}

interface GrantClaims {
  /** client_id the grant was issued to */
  cid: string;
  /** granted scopes, space-separated, normalised */
  scope: string;
  /** grant id (= the code's id) */
  gid: string;
  user: GoogleUser;
}

export interface CodeClaims extends GrantClaims {
  redirectUri: string;
  codeChallenge: string;
  /** access_type=offline: the exchange also returns a refresh token */
  offline: boolean;
  /** expiry, ms since epoch */
  exp: number;
}

export interface AccessClaims extends GrantClaims {
  exp: number;
  /** unique per token, so two tokens issued in the same millisecond differ (as Google's do) */
  jti: string;
}

export type RefreshClaims = GrantClaims;

type ClaimsOf<K extends TokenKind> = K extends "code" ? CodeClaims : K extends "access" ? AccessClaims : RefreshClaims;

async function hmacKey(secret: string | undefined): Promise<CryptoKey> {
  if (!secret || secret.length < 32) throw new Error("JWT_SECRET must be set to at least 32 characters");
  return crypto.subtle.importKey("raw", encoder.encode(`dev-google-emulator:${secret}`), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
}

export function randomId(bytes = 16): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export async function issueToken<K extends TokenKind>(secret: string | undefined, kind: K, claims: ClaimsOf<K>): Promise<string> {
  const payload = base64url(encoder.encode(JSON.stringify(claims)));
  const signature = await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(`${kind}\n${payload}`));
  return `${PREFIX[kind]}${payload}.${base64url(signature)}`;
}

/**
 * The claims of a token of this kind signed by us, or null. Expiry is NOT checked
 * here (callers tell "expired" from "unknown" for their own error messages).
 */
export async function readToken<K extends TokenKind>(
  secret: string | undefined,
  kind: K,
  token: string | undefined,
): Promise<ClaimsOf<K> | null> {
  if (!token || token.length > 4096 || !token.startsWith(PREFIX[kind])) return null;
  const [payload, signature, extra] = token.slice(PREFIX[kind].length).split(".");
  if (payload === undefined || signature === undefined || extra !== undefined) return null;
  const sig = fromBase64url(signature);
  const body = fromBase64url(payload);
  if (!sig || !body) return null;
  if (!(await crypto.subtle.verify("HMAC", await hmacKey(secret), sig, encoder.encode(`${kind}\n${payload}`)))) return null;
  try {
    return JSON.parse(new TextDecoder().decode(body)) as ClaimsOf<K>;
  } catch {
    return null;
  }
}

/** RFC 7636 S256: BASE64URL(SHA-256(ASCII(code_verifier))). */
export async function pkceChallenge(verifier: string): Promise<string> {
  return base64url(await crypto.subtle.digest("SHA-256", encoder.encode(verifier)));
}

/** RFC 7636: 43 to 128 unreserved characters. */
export const isValidVerifier = (v: string) => /^[A-Za-z0-9._~-]{43,128}$/.test(v);
/** An S256 challenge is always 43 base64url characters. */
export const isValidChallenge = (v: string) => /^[A-Za-z0-9_-]{43}$/.test(v);

/**
 * A stable Google-like account id for an e-mail: 21 digits from SHA-256 of the
 * lower-cased address. The same e-mail is the same "Google account" on every
 * sign-in, on every machine, whatever JWT_SECRET is.
 */
async function subjectFor(email: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(email.trim().toLowerCase())));
  let n = 0n;
  for (const b of digest.subarray(0, 8)) n = (n << 8n) | BigInt(b);
  return `1${(n % 10n ** 20n).toString().padStart(20, "0")}`;
}

/** An initials avatar as an SVG data: URL (works offline; the app's CSP allows data: images). */
function avatarFor(user: GoogleUser, sub: string): string {
  const initial = (user.name.trim()[0] ?? user.email[0] ?? "?").toUpperCase();
  const hue = Number(BigInt(sub) % 360n);
  const letter = initial.replace(/[<>&"']/g, "?");
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">` +
    `<rect width="96" height="96" fill="hsl(${hue},45%,45%)"/>` +
    `<text x="48" y="62" font-family="Arial,sans-serif" font-size="44" fill="#fff" text-anchor="middle">${letter}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** What userinfo returns for an account (the claims the product reads). */
export async function profileClaims(user: GoogleUser) {
  const sub = await subjectFor(user.email);
  return { sub, email: user.email, email_verified: true, name: user.name, picture: avatarFor(user, sub) };
}
