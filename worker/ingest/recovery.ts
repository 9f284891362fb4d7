// Every minute (a Cron Trigger), each user who has a document pending or
// processing gets their Library to check the indexing leases: a document whose
// indexer was lost (a restart, a lost queue message) is queued again, and failed
// only after the recovery limit. The Library's own alarm does the same; this is
// the net under it.
import { inArray } from "drizzle-orm";
import { getDb } from "../db/client";
import { documents } from "../db/schema";
import { library, type LibraryBinding } from "../library/stub";

const USERS_PER_RUN = 500;

export async function recoverLostIndexing(env: LibraryBinding & { DB: D1Database }): Promise<number> {
  const owners = await getDb(env)
    .selectDistinct({ userId: documents.userId })
    .from(documents)
    .where(inArray(documents.status, ["pending", "processing"]))
    .limit(USERS_PER_RUN)
    .all();
  for (const { userId } of owners) await library(env, userId).recover();
  return owners.length;
}
