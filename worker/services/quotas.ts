// Plan quotas: what a free account may do and what a paid plan lifts. One place
// for the numbers (documented in docs/decisions.md); enforced on the server.
import { and, eq, gt, inArray, or, isNull, sql } from "drizzle-orm";
import { subscriptions } from "../db/schema";
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

/** The user's subscription row while it is paid: active, or cancelling but not yet past its period end. */
const paidSubscription = (userId: string) =>
  and(
    eq(subscriptions.userId, userId),
    inArray(subscriptions.status, ["active", "cancelling"]),
    or(isNull(subscriptions.currentPeriodEnd), gt(subscriptions.currentPeriodEnd, Date.now())),
  );

/** Paid while a subscription is active, or cancelling but not yet past its period end. */
export async function quotaFor({ db }: DbDeps, { userId }: { userId: string }): Promise<Quota> {
  const paid = await db.select({ userId: subscriptions.userId }).from(subscriptions).where(paidSubscription(userId)).get();
  return paid ? PAID_QUOTA : FREE_QUOTA;
}

/** The user's document quota (quotaFor's maxDocuments) as SQL, for a statement that checks it itself (an upload's claim). */
export const maxDocumentsSql = (userId: string) =>
  sql`(CASE WHEN EXISTS (SELECT 1 FROM ${subscriptions} WHERE ${paidSubscription(userId)}) THEN ${PAID_QUOTA.maxDocuments} ELSE ${FREE_QUOTA.maxDocuments} END)`;

/** Today as the daily message count counts days (UTC; kept in the user's Library). */
export const usageDay = (now = new Date()) => now.toISOString().slice(0, 10);

/** The refusal for a day's `count`-th message under `quota`, or null while it is within the allowance. */
export function dailyMessageRefusal(quota: Quota, count: number): string | null {
  if (count <= quota.maxMessagesPerDay) return null;
  return quota.plan === "free"
    ? `You have used today's ${quota.maxMessagesPerDay} messages of the free plan. [Upgrade your plan](${UPGRADE_PATH}) to keep chatting.`
    : `You have used today's ${quota.maxMessagesPerDay} messages. Please continue tomorrow.`;
}
