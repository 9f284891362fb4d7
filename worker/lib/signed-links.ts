// Self-signed, expiring links (HMAC-SHA256): the local upload URL and the
// short-lived document view URL. The purpose is part of the signed message, so a
// view link can never be used as an upload link or the other way round.
import { base64url, fromBase64url } from "./encoding";

const encoder = new TextEncoder();

export type LinkPurpose = "upload" | "view" | "oauth" | "checkout";

async function hmacKey(secret: string | undefined): Promise<CryptoKey> {
  if (!secret || secret.length < 32) throw new Error("JWT_SECRET must be set to at least 32 characters");
  return crypto.subtle.importKey("raw", encoder.encode(`signed-links:${secret}`), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
}

const message = (purpose: LinkPurpose, subject: string, expires: number) => encoder.encode(`${purpose}\n${subject}\n${expires}`);

export async function signLink(secret: string | undefined, purpose: LinkPurpose, subject: string, ttlMs: number) {
  const expires = Date.now() + ttlMs;
  const signature = base64url(await crypto.subtle.sign("HMAC", await hmacKey(secret), message(purpose, subject, expires)));
  return { expires: String(expires), signature };
}

/** True only for an unexpired link signed by us for this purpose and subject. */
export async function verifyLink(
  secret: string | undefined,
  purpose: LinkPurpose,
  subject: string,
  expires: string | undefined,
  signature: string | undefined,
): Promise<boolean> {
  const expiresAt = Number(expires);
  if (!expires || !signature || !Number.isSafeInteger(expiresAt) || expiresAt < Date.now()) return false;
  const sig = fromBase64url(signature);
  if (!sig) return false;
  return crypto.subtle.verify("HMAC", await hmacKey(secret), sig, message(purpose, subject, expiresAt));
}
