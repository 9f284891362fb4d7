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

/** The query behind quotaFor: the asker's paid subscription, if any (for one D1 batch with other reads). */
export const paidSubscriptionQuery = ({ db }: DbDeps, { userId }: { userId: string }) =>
  db
    .select({ userId: subscriptions.userId })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        inArray(subscriptions.status, ["active", "cancelling"]),
        or(isNull(subscriptions.currentPeriodEnd), gt(subscriptions.currentPeriodEnd, Date.now())),
      ),
    )
    .limit(1);

/** The plan a paidSubscriptionQuery's rows mean. */
export const quotaOf = (paidRows: readonly unknown[]): Quota => (paidRows.length ? PAID_QUOTA : FREE_QUOTA);

/** Paid while a subscription is active, or cancelling but not yet past its period end. */
export async function quotaFor(deps: DbDeps, input: { userId: string }): Promise<Quota> {
  return quotaOf(await paidSubscriptionQuery(deps, input).all());
}

/** Today as the usage table counts days (UTC). */
export const usageDay = (now = new Date()) => now.toISOString().slice(0, 10);

/** Counts one chat message on `day`, atomically; returns the day's count with it (for one D1 batch with other reads). */
export const countMessageQuery = ({ db }: DbDeps, { userId, day }: { userId: string; day: string }) =>
  db
    .insert(usage)
    .values({ userId, day, messages: 1 })
    .onConflictDoUpdate({ target: [usage.userId, usage.day], set: { messages: sql`${usage.messages} + 1` } })
    .returning({ messages: usage.messages });

/** Takes back a message counted on `day` that was then refused for another reason. */
export async function uncountMessage({ db }: DbDeps, { userId, day }: { userId: string; day: string }): Promise<void> {
  await db
    .update(usage)
    .set({ messages: sql`max(${usage.messages} - 1, 0)` })
    .where(and(eq(usage.userId, userId), eq(usage.day, day)));
}

/** The refusal for a day's `count`-th message under `quota`, or null while it is within the allowance. */
export function dailyMessageRefusal(quota: Quota, count: number): string | null {
  if (count <= quota.maxMessagesPerDay) return null;
  return quota.plan === "free"
    ? `You have used today's ${quota.maxMessagesPerDay} messages of the free plan. [Upgrade your plan](${UPGRADE_PATH}) to keep chatting.`
    : `You have used today's ${quota.maxMessagesPerDay} messages. Please continue tomorrow.`;
}
