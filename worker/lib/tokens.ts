// Bearer tokens: HS256 JWTs (jose) carrying sub, email and jti. The jti names a
// row in auth_sessions, so sign-out and password change can revoke a token
// before it expires.
import { SignJWT, jwtVerify } from "jose";

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000; // one day
export const REMEMBER_ME_TTL_MS = 30 * 24 * 60 * 60 * 1000; // thirty days

export interface TokenClaims {
  sub: string;
  email: string;
  jti: string;
}

function secretKey(secret: string | undefined): Uint8Array {
  if (!secret || secret.length < 32) throw new Error("JWT_SECRET must be set to at least 32 characters");
  return new TextEncoder().encode(secret);
}

export async function signToken(secret: string | undefined, claims: TokenClaims, expiresAt: number): Promise<string> {
  return new SignJWT({ email: claims.email })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.sub)
    .setJti(claims.jti)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(secretKey(secret));
}

/** The claims of a valid, unexpired token signed by us; null for anything else. */
export async function readToken(secret: string | undefined, token: string): Promise<(TokenClaims & { expiresAt: number }) | null> {
  try {
    // a token without an expiry would never end: refuse it even when correctly signed
    const { payload } = await jwtVerify(token, secretKey(secret), { algorithms: ["HS256"], requiredClaims: ["exp", "jti", "sub"] });
    if (typeof payload.sub !== "string" || typeof payload.jti !== "string" || typeof payload.email !== "string") return null;
    return { sub: payload.sub, email: payload.email, jti: payload.jti, expiresAt: payload.exp! * 1000 };
  } catch {
    return null;
  }
}
