// Payments: Stripe Checkout in subscription mode when STRIPE_SECRET_KEY is set;
// otherwise (development) the in-app test checkout under /dev/checkout, which
// completes through the same state transitions the Stripe webhook drives.
// Card details never reach us either way.
import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import type { Plan } from "../contract/billing";
import { optionalSecrets } from "../config";
import { getDb, type Db } from "../db/client";
import { webhookEvents } from "../db/schema";
import { isDevelopment } from "../dev-tools";
import { signLink } from "../lib/signed-links";

export interface CheckoutInput {
  plan: Plan;
  userId: string;
  email: string;
  customerId: string | null;
  successUrl: string;
  cancelUrl: string;
}

export interface PaymentProvider {
  readonly name: "stripe" | "test-checkout";
  createCheckout(input: CheckoutInput): Promise<{ sessionId: string; url: string; customerId: string | null }>;
  /** Ends a checkout that is no longer wanted; "paid" when it was completed first (its event may still be on its way). */
  expireCheckout(sessionId: string): Promise<"expired" | "paid">;
  /** Cancels at period end; returns the period end (ms) when the provider knows it. */
  cancelAtPeriodEnd(subscriptionId: string): Promise<{ currentPeriodEnd: number | null }>;
}

export const TEST_CHECKOUT_PATH = "/dev/checkout";
const TEST_CHECKOUT_TTL_MS = 30 * 60 * 1000;

/** Stripe's client; its package (a second of module loading) is loaded only by a Worker that pays through Stripe. */
export async function stripeClient(secretKey: string, apiBase?: string): Promise<Stripe> {
  const { default: Stripe } = await import("stripe");
  const base = apiBase ? new URL(apiBase) : null;
  return new Stripe(secretKey, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 2,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === "https:" ? 443 : 80),
          protocol: base.protocol.replace(":", "") as "http" | "https",
        }
      : {}),
  });
}

/** A subscription's current period end in ms (newer API versions keep it on the items). */
export function periodEndOf(subscription: Stripe.Subscription): number | null {
  const seconds =
    subscription.items?.data?.[0]?.current_period_end ?? (subscription as unknown as { current_period_end?: number }).current_period_end;
  return typeof seconds === "number" ? seconds * 1000 : null;
}

export function stripeProvider(client: () => Promise<Stripe>): PaymentProvider {
  return {
    name: "stripe",
    async createCheckout({ plan, userId, email, customerId, successUrl, cancelUrl }) {
      const stripe = await client();
      // one Stripe customer per user, reused for every checkout
      const customer = customerId ?? (await stripe.customers.create({ email, metadata: { userId } })).id;
      const session = await stripe.checkout.sessions.create({
        mode: "subscription",
        customer,
        client_reference_id: userId,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: "usd",
              unit_amount: Math.round(plan.price * 100),
              recurring: { interval: plan.period },
              product_data: { name: plan.name },
            },
          },
        ],
        metadata: { userId, planId: plan.id },
        subscription_data: { metadata: { userId, planId: plan.id } },
        success_url: `${successUrl}?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: cancelUrl,
      });
      if (!session.url) throw new Error("Stripe returned no checkout URL");
      return { sessionId: session.id, url: session.url, customerId: customer };
    },
    async expireCheckout(sessionId) {
      const stripe = await client();
      try {
        await stripe.checkout.sessions.expire(sessionId);
        return "expired";
      } catch {
        // only an open session can be expired: one that is not is expired already, or complete
        return (await stripe.checkout.sessions.retrieve(sessionId)).status === "complete" ? "paid" : "expired";
      }
    },
    async cancelAtPeriodEnd(subscriptionId) {
      const subscription = await (await client()).subscriptions.update(subscriptionId, { cancel_at_period_end: true });
      return { currentPeriodEnd: periodEndOf(subscription) };
    },
  };
}

export function testCheckoutProvider(env: Env, origin: string): PaymentProvider {
  return {
    name: "test-checkout",
    async createCheckout({ plan, userId, cancelUrl }) {
      const sessionId = `cs_test_local_${crypto.randomUUID().replace(/-/g, "")}`;
      const subject = `${sessionId}:${userId}:${plan.id}`;
      const { expires, signature } = await signLink(env.JWT_SECRET, "checkout", subject, TEST_CHECKOUT_TTL_MS);
      const url = new URL(TEST_CHECKOUT_PATH, origin);
      const back = new URL(cancelUrl);
      // where Cancel goes: checked again there (it is not signed)
      url.search = new URLSearchParams({ session: subject, expires, signature, back: back.pathname + back.search }).toString();
      return { sessionId, url: url.toString(), customerId: null };
    },
    // Pay refuses a checkout that is not the user's open one, so expiring is only telling whether it was paid
    async expireCheckout(sessionId) {
      return (await wasTestCheckoutPaid(getDb(env), sessionId)) ? "paid" : "expired";
    },
    async cancelAtPeriodEnd() {
      return { currentPeriodEnd: null };
    },
  };
}

/** The local test checkout's completion event, named after its session so a second Pay is a replay. */
export const testCheckoutCompletedEvent = (sessionId: string) => `evt_${sessionId}_completed`;

export async function wasTestCheckoutPaid(db: Db, sessionId: string): Promise<boolean> {
  const id = testCheckoutCompletedEvent(sessionId);
  return (await db.select({ id: webhookEvents.id }).from(webhookEvents).where(eq(webhookEvents.id, id)).get()) !== undefined;
}

export function isTestCheckout(env: Env): boolean {
  return isDevelopment(env) && !optionalSecrets(env).STRIPE_SECRET_KEY;
}

/** null when payments are not configured (production without a Stripe key). */
export function choosePaymentProvider(env: Env, origin: string): PaymentProvider | null {
  const s = optionalSecrets(env);
  const secretKey = s.STRIPE_SECRET_KEY;
  if (secretKey) return stripeProvider(() => stripeClient(secretKey, s.STRIPE_API_BASE));
  return isTestCheckout(env) ? testCheckoutProvider(env, origin) : null;
}
