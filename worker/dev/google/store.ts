// What the Google emulator must remember between requests, in the development
// R2 bucket DEV_STATE (never the product's DOCUMENTS) under `dev/google/`. Requests may land on different
// isolates in local dev, so nothing here lives in module memory.
//
//   dev/google/used-codes/<grantId>   a code that was exchanged (codes are single use)
//   dev/google/revoked/<grantId>      a revoked grant: its refresh and access tokens are dead
//   dev/google/accounts.json          the test accounts offered on the consent page, newest first
//
// Check-then-write is not atomic across isolates; for a single developer's
// browser that is fine (this module never runs in production).
import type { GoogleUser } from "./tokens";

const ROOT = "dev/google/";
const ACCOUNTS_KEY = `${ROOT}accounts.json`;
const MAX_ACCOUNTS = 12;

const usedCodeKey = (grantId: string) => `${ROOT}used-codes/${grantId}`;
const revokedKey = (grantId: string) => `${ROOT}revoked/${grantId}`;

/** Marks a code used; false when it already was (a replay). */
export async function claimCode(bucket: R2Bucket, grantId: string): Promise<boolean> {
  if (await bucket.head(usedCodeKey(grantId))) return false;
  await bucket.put(usedCodeKey(grantId), "", { customMetadata: { usedAt: new Date().toISOString() } });
  return true;
}

export async function revokeGrant(bucket: R2Bucket, grantId: string): Promise<void> {
  await bucket.put(revokedKey(grantId), "", { customMetadata: { revokedAt: new Date().toISOString() } });
}

export async function isRevoked(bucket: R2Bucket, grantId: string): Promise<boolean> {
  return (await bucket.head(revokedKey(grantId))) !== null;
}

export async function savedAccounts(bucket: R2Bucket): Promise<GoogleUser[]> {
  const object = await bucket.get(ACCOUNTS_KEY);
  if (!object) return [];
  try {
    const list = (await object.json()) as unknown;
    if (!Array.isArray(list)) return [];
    return list.filter(
      (a): a is GoogleUser => typeof a === "object" && a !== null && typeof a.email === "string" && typeof a.name === "string",
    );
  } catch {
    return [];
  }
}

/** Remembers an account (moved to the front; the same e-mail is stored once, with its latest name). */
export async function rememberAccount(bucket: R2Bucket, user: GoogleUser): Promise<void> {
  const others = (await savedAccounts(bucket)).filter((a) => a.email !== user.email);
  const list = [{ email: user.email, name: user.name }, ...others].slice(0, MAX_ACCOUNTS);
  await bucket.put(ACCOUNTS_KEY, JSON.stringify(list), { httpMetadata: { contentType: "application/json" } });
}
