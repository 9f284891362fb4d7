// Every minute (a Cron Trigger), each user who has a document pending or
// processing gets their Library to check the indexing leases: a document whose
// indexer was lost (a restart, a lost queue message) is queued again, and failed
// only after the recovery limit. The Library's own alarm does the same; this is
// the net under it (an alarm that gave up after its retries, a Library that
// never set one). The owners come from a partial index of the documents still
// being indexed; their Libraries are called a few at a time, and one that fails
// is logged without stopping the others.
import { and, gte, lt, sql, type SQL } from "drizzle-orm";
import { getDb, type Db } from "../db/client";
import { documents } from "../db/schema";
import { library, type LibraryBinding } from "../library/stub";

/** Libraries called per run at most (a run is one minute's cron). */
const USERS_PER_RUN = 500;
/** Libraries called at once. */
export const RECOVERY_CONCURRENCY = 20;

/**
 * Owners of documents still being indexed, in user id order, within `range`. The condition is
 * the partial index's own (documents_indexing_user_idx), written the same, so the index serves it.
 */
export function indexingOwnersQuery(db: Db, range: SQL | undefined, limit: number) {
  return db
    .selectDistinct({ userId: documents.userId })
    .from(documents)
    .where(and(sql`status IN ('pending', 'processing')`, range))
    .orderBy(documents.userId)
    .limit(limit);
}

/**
 * Up to `limit` owners, starting at a random user id and wrapping around: past `limit`
 * owners, each minute covers another part of them, none waits behind the same first ones.
 */
async function indexingOwners(db: Db, limit: number): Promise<string[]> {
  const start = crypto.randomUUID(); // user ids are UUIDs
  const from = await indexingOwnersQuery(db, gte(documents.userId, start), limit).all();
  const wrapped = from.length < limit ? await indexingOwnersQuery(db, lt(documents.userId, start), limit - from.length).all() : [];
  return [...from, ...wrapped].map((row) => row.userId);
}

export async function recoverLostIndexing(env: LibraryBinding & { DB: D1Database }): Promise<number> {
  const owners = await indexingOwners(getDb(env), USERS_PER_RUN);
  let next = 0;
  const caller = async () => {
    while (next < owners.length) {
      const userId = owners[next++]!;
      await library(env, userId)
        .recover()
        .catch((err: unknown) => console.error("could not recover indexing for a user", userId, err));
    }
  };
  await Promise.all(Array.from({ length: Math.min(RECOVERY_CONCURRENCY, owners.length) }, caller));
  return owners.length;
}
