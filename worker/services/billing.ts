// Subscriptions: the plan catalogue (D1), one state-transition function shared by
// the Stripe webhook and the local test checkout (newer state always wins, so
// out-of-order deliveries cannot roll a subscription back), status and cancel.
import { asc, eq, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { BILLING_MESSAGES, type Plan, type SubscriptionStatus, type SubscriptionStatusResponse } from "../contract/billing";
import type { Db } from "../db/client";
import { plans, subscriptions, users, webhookEvents } from "../db/schema";
import { ApiError } from "../errors";
import { periodEndOf, type PaymentProvider } from "../providers/payments";
import { closeCheckout } from "./checkouts";
import type { DbDeps } from "./deps";

type PlanRow = typeof plans.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;

function toPlan(row: PlanRow): Plan {
  const { id, name, price, period, buttonText, features, note, popular } = row;
  return { id, name, price, period, buttonText, features, note, popular };
}

export async function listPlans({ db }: DbDeps): Promise<Plan[]> {
  return (await db.select().from(plans).orderBy(asc(plans.sortOrder)).all()).map(toPlan);
}

export async function getPlan({ db }: DbDeps, { planId }: { planId: string }): Promise<Plan | null> {
  const row = await db.select().from(plans).where(eq(plans.id, planId)).get();
  return row ? toPlan(row) : null;
}

export interface SubscriptionState {
  status: Exclude<SubscriptionStatus, "none">;
  planId?: string | null;
  currentPeriodEnd?: number | null;
  cancelAtPeriodEnd?: boolean;
  customerId?: string | null;
  subscriptionId?: string | null;
}

/**
 * A time as Stripe stamps its events, in whole seconds: a state written here is not taken for newer
 * than a payment completed within the same second (which would then be dropped).
 */
const inEventTime = (ms: number) => Math.floor(ms / 1000) * 1000;

/**
 * Applies a subscription state observed at `at` (ms). Written atomically and only
 * if no newer state is stored: a late, older event is a no-op.
 */
async function applySubscriptionState(db: Db, userId: string, state: SubscriptionState, at: number): Promise<boolean> {
  // Fields the event does not carry keep their stored value.
  const keep = (column: string) => sql.raw(`COALESCE(excluded.${column}, subscriptions.${column})`);
  const written = await db
    .insert(subscriptions)
    .values({
      userId,
      planId: state.planId ?? null,
      status: state.status,
      currentPeriodEnd: state.currentPeriodEnd ?? null,
      cancelAtPeriodEnd: state.cancelAtPeriodEnd ?? false,
      stripeCustomerId: state.customerId ?? null,
      stripeSubscriptionId: state.subscriptionId ?? null,
      stateAt: at,
      updatedAt: Date.now(),
    })
    .onConflictDoUpdate({
      target: subscriptions.userId,
      set: {
        planId: keep("plan_id"),
        status: sql`excluded.status`,
        currentPeriodEnd: keep("current_period_end"),
        cancelAtPeriodEnd: sql`excluded.cancel_at_period_end`,
        stripeCustomerId: keep("stripe_customer_id"),
        stripeSubscriptionId: keep("stripe_subscription_id"),
        stateAt: sql`excluded.state_at`,
        updatedAt: sql`excluded.updated_at`,
      },
      setWhere: sql`excluded.state_at >= ${subscriptions.stateAt}`,
    })
    .run();
  return written.meta.changes > 0;
}

/** Remembers the Stripe customer of a user without touching their subscription state. */
export async function rememberCustomer({ db }: DbDeps, { userId, customerId }: { userId: string; customerId: string }): Promise<void> {
  await db
    .insert(subscriptions)
    .values({ userId, status: "none", stripeCustomerId: customerId })
    .onConflictDoUpdate({ target: subscriptions.userId, set: { stripeCustomerId: customerId } })
    .run();
}

export async function subscriptionRow({ db }: DbDeps, { userId }: { userId: string }): Promise<SubscriptionRow | undefined> {
  return db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).get();
}

export async function subscriptionStatus(deps: DbDeps, input: { userId: string }): Promise<SubscriptionStatusResponse> {
  const row = await subscriptionRow(deps, input);
  if (!row) return { status: "none", planId: null, currentPeriodEnd: null };
  // a cancelled subscription ends with its period, even if the final webhook is late
  const ended = row.status === "cancelling" && row.currentPeriodEnd !== null && row.currentPeriodEnd < Date.now();
  return {
    status: ended ? "canceled" : row.status,
    planId: row.planId,
    currentPeriodEnd: row.currentPeriodEnd === null ? null : new Date(row.currentPeriodEnd).toISOString(),
  };
}

export function addPeriod(from: number, period: Plan["period"]): number {
  const date = new Date(from);
  if (period === "year") date.setUTCFullYear(date.getUTCFullYear() + 1);
  else date.setUTCMonth(date.getUTCMonth() + 1);
  return date.getTime();
}

export async function cancelSubscription(
  { db, provider }: DbDeps & { provider: PaymentProvider | null },
  { userId }: { userId: string },
): Promise<string> {
  const row = await subscriptionRow({ db }, { userId });
  if (!row || (row.status !== "active" && row.status !== "past_due")) throw new ApiError(400, BILLING_MESSAGES.noSubscription);
  let periodEnd = row.currentPeriodEnd;
  if (provider?.name === "stripe" && row.stripeSubscriptionId) {
    periodEnd = (await provider.cancelAtPeriodEnd(row.stripeSubscriptionId)).currentPeriodEnd ?? periodEnd;
  }
  await applySubscriptionState(
    db,
    userId,
    { status: "cancelling", currentPeriodEnd: periodEnd, cancelAtPeriodEnd: true },
    inEventTime(Date.now()),
  );
  const until = periodEnd
    ? new Date(periodEnd).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" })
    : null;
  return until ? `Your subscription is cancelled. You keep access until ${until}.` : "Your subscription is cancelled.";
}

// ---- Stripe webhook events -------------------------------------------------

function stripeStatus(subscription: Stripe.Subscription): SubscriptionState["status"] {
  switch (subscription.status) {
    case "active":
    case "trialing":
      return subscription.cancel_at_period_end ? "cancelling" : "active";
    case "past_due":
    case "unpaid":
      return "past_due";
    default:
      return "canceled";
  }
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === "string" ? value : (value?.id ?? null));

async function userByCustomer(db: Db, customerId: string | null): Promise<string | null> {
  if (!customerId) return null;
  const row = await db
    .select({ userId: subscriptions.userId })
    .from(subscriptions)
    .where(eq(subscriptions.stripeCustomerId, customerId))
    .get();
  return row?.userId ?? null;
}

async function userExists(db: Db, userId: string | null | undefined): Promise<string | null> {
  if (!userId) return null;
  return (await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).get())?.id ?? null;
}

/**
 * The one Stripe event step, used by the webhook and the local test checkout:
 * the event id is claimed first with one atomic insert, so a replay or a
 * concurrent duplicate delivery does nothing; if applying fails the claim is
 * released, so Stripe's retry applies it. False for a duplicate.
 */
export async function processStripeEvent({ db }: DbDeps, { event }: { event: Stripe.Event }): Promise<boolean> {
  const claimed = await db
    .insert(webhookEvents)
    .values({ id: event.id, type: event.type })
    .onConflictDoNothing()
    .returning({ id: webhookEvents.id });
  if (claimed.length === 0) return false;
  try {
    await applyStripeEvent(db, event);
  } catch (err) {
    await db.delete(webhookEvents).where(eq(webhookEvents.id, event.id));
    throw err;
  }
  return true;
}

/** Applies one verified Stripe event. Unknown event types are acknowledged and ignored. */
async function applyStripeEvent(db: Db, event: Stripe.Event): Promise<void> {
  const at = event.created * 1000;
  switch (event.type) {
    case "checkout.session.completed": {
      const session = event.data.object;
      const userId = await userExists(db, session.client_reference_id ?? session.metadata?.userId);
      if (!userId || session.mode !== "subscription") return;
      await applySubscriptionState(
        db,
        userId,
        {
          status: "active",
          planId: session.metadata?.planId ?? null,
          customerId: idOf(session.customer),
          subscriptionId: idOf(session.subscription),
        },
        at,
      );
      await closeCheckout(db, { userId, sessionId: session.id });
      return;
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const subscription = event.data.object;
      const customerId = idOf(subscription.customer);
      const userId = (await userExists(db, subscription.metadata?.userId)) ?? (await userByCustomer(db, customerId));
      if (!userId) return;
      await applySubscriptionState(
        db,
        userId,
        {
          status: event.type === "customer.subscription.deleted" ? "canceled" : stripeStatus(subscription),
          planId: subscription.metadata?.planId ?? null,
          currentPeriodEnd: periodEndOf(subscription),
          cancelAtPeriodEnd: subscription.cancel_at_period_end,
          customerId,
          subscriptionId: subscription.id,
        },
        at,
      );
      return;
    }
    case "invoice.payment_failed": {
      const invoice = event.data.object;
      const userId = await userByCustomer(db, idOf(invoice.customer));
      if (!userId) return;
      await applySubscriptionState(db, userId, { status: "past_due" }, at);
      return;
    }
    default:
      return;
  }
}
