// What the Google emulator must remember between requests, in the development
// R2 bucket DEV_STATE (never the product's DOCUMENTS) under `dev/google/`. Requests may land on different
// isolates in local dev, so nothing here lives in module memory.
//
//   dev/google/used-codes/<grantId>   a code that was exchanged (codes are single use)
//   dev/google/revoked/<grantId>      a revoked grant: its refresh and access tokens are dead
//
// Check-then-write is not atomic across isolates; for a single developer's
// browser that is fine (this module never runs in production).
const ROOT = "dev/google/";

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
