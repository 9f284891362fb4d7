// Plan quotas: what a free account may do and what a paid plan lifts. One place
// for the numbers (documented in docs/decisions.md); enforced on the server.
import { and, eq, gt, inArray, or, isNull, sql } from "drizzle-orm";
import { subscriptions, usage } from "../db/schema";
import type { DbDeps } from "./deps";

export interface Quota {
  plan: "free" | "paid";
  maxDocuments: number;
  maxPagesPerDocument: number;
  maxMessagesPerDay: number;
}

export const FREE_QUOTA: Quota = { plan: "free", maxDocuments: 50, maxPagesPerDocument: 500, maxMessagesPerDay: 50 };
export const PAID_QUOTA: Quota = { plan: "paid", maxDocuments: 1000, maxPagesPerDocument: 2000, maxMessagesPerDay: 2000 };

export const UPGRADE_PATH = "/app/payment";

/** Paid while a subscription is active, or cancelling but not yet past its period end. */
export async function quotaFor({ db }: DbDeps, { userId }: { userId: string }): Promise<Quota> {
  const paid = await db
    .select({ userId: subscriptions.userId })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        inArray(subscriptions.status, ["active", "cancelling"]),
        or(isNull(subscriptions.currentPeriodEnd), gt(subscriptions.currentPeriodEnd, Date.now())),
      ),
    )
    .get();
  return paid ? PAID_QUOTA : FREE_QUOTA;
}

/**
 * Counts one chat message against today's allowance (UTC day), atomically.
 * Returns the refusal message when the allowance is used up.
 */
export async function consumeDailyMessage({ db }: DbDeps, { quota, userId }: { quota: Quota; userId: string }): Promise<string | null> {
  const day = new Date().toISOString().slice(0, 10);
  const [row] = await db
    .insert(usage)
    .values({ userId, day, messages: 1 })
    .onConflictDoUpdate({ target: [usage.userId, usage.day], set: { messages: sql`${usage.messages} + 1` } })
    .returning({ messages: usage.messages });
  if ((row?.messages ?? 0) <= quota.maxMessagesPerDay) return null;
  return quota.plan === "free"
    ? `You have used today's ${quota.maxMessagesPerDay} messages of the free plan. [Upgrade your plan](${UPGRADE_PATH}) to keep chatting.`
    : `You have used today's ${quota.maxMessagesPerDay} messages. Please continue tomorrow.`;
}
