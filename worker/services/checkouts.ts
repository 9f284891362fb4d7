// One open checkout per user: opening a checkout expires the one opened before,
// so two tabs (or a back button and a new plan) cannot both be paid. A cancelled
// checkout returns to the app page it was started from.
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { subscriptions } from "../db/schema";
import type { DbDeps } from "./deps";

/** A page of this app (a path, with a plain query) a cancelled checkout may return to; anything else returns to the upgrade page. */
const APP_PAGE = /^\/(app(\/[\w-]+)*\/?)?(\?[\w=&%.~-]*)?$/;
export function checkoutReturnPath(returnTo: string | undefined): string {
  return returnTo && returnTo.length <= 300 && APP_PAGE.test(returnTo) ? returnTo : "/app/payment";
}

/**
 * Makes `sessionId` the user's open checkout and returns the one it replaced (null if none).
 * Compare-and-swap, so of several checkouts opened at once each replaced one is returned to
 * exactly one caller and only the last stays open.
 */
export async function takeOpenCheckout(
  { db }: DbDeps,
  { userId, sessionId }: { userId: string; sessionId: string },
): Promise<string | null> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const row = await db.select({ open: subscriptions.openCheckoutId }).from(subscriptions).where(eq(subscriptions.userId, userId)).get();
    if (!row) {
      const inserted = await db
        .insert(subscriptions)
        .values({ userId, status: "none", openCheckoutId: sessionId })
        .onConflictDoNothing()
        .run();
      if (inserted.meta.changes > 0) return null;
      continue;
    }
    const swapped = await db
      .update(subscriptions)
      .set({ openCheckoutId: sessionId })
      .where(
        and(
          eq(subscriptions.userId, userId),
          row.open === null ? isNull(subscriptions.openCheckoutId) : eq(subscriptions.openCheckoutId, row.open),
        ),
      )
      .run();
    if (swapped.meta.changes > 0) return row.open;
  }
  throw new Error("too many checkouts opened at once");
}

/** A completed checkout is no longer open (a later one may be opened after a cancel). */
export async function closeCheckout(db: Db, { userId, sessionId }: { userId: string; sessionId: string }): Promise<void> {
  await db
    .update(subscriptions)
    .set({ openCheckoutId: null })
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.openCheckoutId, sessionId)))
    .run();
}

export async function isOpenCheckout({ db }: DbDeps, { userId, sessionId }: { userId: string; sessionId: string }): Promise<boolean> {
  const row = await db.select({ open: subscriptions.openCheckoutId }).from(subscriptions).where(eq(subscriptions.userId, userId)).get();
  return row?.open === sessionId;
}
