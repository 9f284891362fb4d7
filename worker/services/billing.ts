// Subscriptions: the plan catalogue (D1), one state-transition function shared by
// the Stripe webhook and the local test checkout (newer state always wins, so
// out-of-order deliveries cannot roll a subscription back), status and cancel.
import type Stripe from "stripe";
import { BILLING_MESSAGES, type Plan, type SubscriptionStatus, type SubscriptionStatusResponse } from "../contract/billing";
import { ApiError } from "../errors";
import { periodEndOf, type PaymentProvider } from "../providers/payments";

interface PlanRow {
  id: string;
  name: string;
  price: number;
  period: "month" | "year";
  button_text: string;
  features: string;
  note: string | null;
  popular: number;
}

function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    price: row.price,
    period: row.period,
    buttonText: row.button_text,
    features: JSON.parse(row.features) as string[],
    note: row.note,
    popular: Boolean(row.popular),
  };
}

export async function listPlans(db: D1Database): Promise<Plan[]> {
  const { results } = await db.prepare("SELECT * FROM plans ORDER BY sort_order").all<PlanRow>();
  return results.map(toPlan);
}

export async function getPlan(db: D1Database, planId: string): Promise<Plan | null> {
  const row = await db.prepare("SELECT * FROM plans WHERE id = ?").bind(planId).first<PlanRow>();
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
 * Applies a subscription state observed at `at` (ms). Written atomically and only
 * if no newer state is stored: a late, older event is a no-op.
 */
export async function applySubscriptionState(db: D1Database, userId: string, state: SubscriptionState, at: number): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT INTO subscriptions (user_id, plan_id, status, current_period_end, cancel_at_period_end, stripe_customer_id, stripe_subscription_id, state_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
       ON CONFLICT(user_id) DO UPDATE SET
         plan_id = COALESCE(excluded.plan_id, subscriptions.plan_id),
         status = excluded.status,
         current_period_end = COALESCE(excluded.current_period_end, subscriptions.current_period_end),
         cancel_at_period_end = excluded.cancel_at_period_end,
         stripe_customer_id = COALESCE(excluded.stripe_customer_id, subscriptions.stripe_customer_id),
         stripe_subscription_id = COALESCE(excluded.stripe_subscription_id, subscriptions.stripe_subscription_id),
         state_at = excluded.state_at,
         updated_at = excluded.updated_at
       WHERE excluded.state_at >= subscriptions.state_at`,
    )
    .bind(
      userId,
      state.planId ?? null,
      state.status,
      state.currentPeriodEnd ?? null,
      state.cancelAtPeriodEnd ? 1 : 0,
      state.customerId ?? null,
      state.subscriptionId ?? null,
      at,
      Date.now(),
    )
    .run();
  return result.meta.changes > 0;
}

/** Remembers the Stripe customer of a user without touching their subscription state. */
export async function rememberCustomer(db: D1Database, userId: string, customerId: string): Promise<void> {
  await db
    .prepare(
      `INSERT INTO subscriptions (user_id, status, stripe_customer_id) VALUES (?, 'none', ?)
       ON CONFLICT(user_id) DO UPDATE SET stripe_customer_id = excluded.stripe_customer_id`,
    )
    .bind(userId, customerId)
    .run();
}

interface SubscriptionRow {
  user_id: string;
  plan_id: string | null;
  status: SubscriptionStatus;
  current_period_end: number | null;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
}

export async function subscriptionRow(db: D1Database, userId: string): Promise<SubscriptionRow | null> {
  return db.prepare("SELECT * FROM subscriptions WHERE user_id = ?").bind(userId).first<SubscriptionRow>();
}

export async function subscriptionStatus(db: D1Database, userId: string): Promise<SubscriptionStatusResponse> {
  const row = await subscriptionRow(db, userId);
  if (!row) return { status: "none", planId: null, currentPeriodEnd: null };
  // a cancelled subscription ends with its period, even if the final webhook is late
  const ended = row.status === "cancelling" && row.current_period_end !== null && row.current_period_end < Date.now();
  return {
    status: ended ? "canceled" : row.status,
    planId: row.plan_id,
    currentPeriodEnd: row.current_period_end === null ? null : new Date(row.current_period_end).toISOString(),
  };
}

export function addPeriod(from: number, period: Plan["period"]): number {
  const date = new Date(from);
  if (period === "year") date.setUTCFullYear(date.getUTCFullYear() + 1);
  else date.setUTCMonth(date.getUTCMonth() + 1);
  return date.getTime();
}

export async function cancelSubscription(db: D1Database, provider: PaymentProvider | null, userId: string): Promise<string> {
  const row = await subscriptionRow(db, userId);
  if (!row || (row.status !== "active" && row.status !== "past_due")) throw new ApiError(400, BILLING_MESSAGES.noSubscription);
  let periodEnd = row.current_period_end;
  if (provider?.name === "stripe" && row.stripe_subscription_id) {
    periodEnd = (await provider.cancelAtPeriodEnd(row.stripe_subscription_id)).currentPeriodEnd ?? periodEnd;
  }
  await applySubscriptionState(db, userId, { status: "cancelling", currentPeriodEnd: periodEnd, cancelAtPeriodEnd: true }, Date.now());
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

async function userByCustomer(db: D1Database, customerId: string | null): Promise<string | null> {
  if (!customerId) return null;
  const row = await db
    .prepare("SELECT user_id FROM subscriptions WHERE stripe_customer_id = ?")
    .bind(customerId)
    .first<{ user_id: string }>();
  return row?.user_id ?? null;
}

async function userExists(db: D1Database, userId: string | null | undefined): Promise<string | null> {
  if (!userId) return null;
  return (await db.prepare("SELECT id FROM users WHERE id = ?").bind(userId).first<{ id: string }>())?.id ?? null;
}

/** Applies one verified Stripe event. Unknown event types are acknowledged and ignored. */
export async function handleStripeEvent(db: D1Database, event: Stripe.Event): Promise<void> {
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

/** True the first time an event id is seen; replays are no-ops. */
export async function isNewEvent(db: D1Database, eventId: string): Promise<boolean> {
  return !(await db.prepare("SELECT 1 AS seen FROM webhook_events WHERE id = ?").bind(eventId).first());
}

export async function recordEvent(db: D1Database, event: { id: string; type: string }): Promise<void> {
  await db.prepare("INSERT INTO webhook_events (id, type) VALUES (?, ?) ON CONFLICT(id) DO NOTHING").bind(event.id, event.type).run();
}
