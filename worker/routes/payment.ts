// /api/payment: the plan catalogue, Stripe Checkout (or the local test checkout),
// the signed Stripe webhook, subscription status and cancel.
import type Stripe from "stripe";
import { Hono } from "hono";
import { z } from "zod";
import { BILLING_MESSAGES } from "../contract/billing";
import { optionalSecrets } from "../config";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { requireUser } from "../middleware/auth";
import { valid } from "../middleware/validate";
import { choosePaymentProvider } from "../providers/payments";
import {
  cancelSubscription,
  getPlan,
  listPlans,
  processStripeEvent,
  rememberCustomer,
  subscriptionRow,
  subscriptionStatus,
} from "../services/billing";
import { checkoutReturnPath, takeOpenCheckout } from "../services/checkouts";
import { appOrigin } from "../lib/origin";

export const paymentRoutes = new Hono<AppEnv>()
  .get("/plans", async (c) => c.json({ plans: await listPlans({ db: c.var.db }) }, 200))
  .post("/webhook", async (c) => {
    const { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET } = optionalSecrets(c.env);
    if (!STRIPE_WEBHOOK_SECRET) throw new ApiError(503, "Payments are not configured.");
    const payload = await c.req.text();
    // Stripe's package is loaded by the first webhook, not with the Worker
    const { default: StripeClient } = await import("stripe");
    let event: Stripe.Event;
    try {
      // verification needs no API call; the key only satisfies the constructor
      event = await new StripeClient(STRIPE_SECRET_KEY ?? "sk_unused").webhooks.constructEventAsync(
        payload,
        c.req.header("Stripe-Signature") ?? "",
        STRIPE_WEBHOOK_SECRET,
        undefined,
        StripeClient.createSubtleCryptoProvider(),
      );
    } catch {
      throw new ApiError(400, "Invalid or expired Stripe signature.");
    }
    if (!(await processStripeEvent({ db: c.var.db }, { event }))) return c.json({ received: true, duplicate: true }, 200);
    return c.json({ received: true }, 200);
  })
  .use(requireUser)
  .post(
    "/create-checkout-session",
    valid(
      "json",
      z.object({
        planId: z
          .string({ error: BILLING_MESSAGES.unknownPlan })
          .min(1, BILLING_MESSAGES.unknownPlan)
          .max(100, BILLING_MESSAGES.unknownPlan),
        email: z.string().max(1000).optional(),
        returnTo: z.string().max(1000).optional(),
      }),
    ),
    async (c) => {
      const plan = await getPlan({ db: c.var.db }, { planId: c.req.valid("json").planId });
      if (!plan) throw new ApiError(400, BILLING_MESSAGES.unknownPlan);
      const provider = choosePaymentProvider(c.env, appOrigin(c.env, c.req.url));
      if (!provider) throw new ApiError(503, "Payments are not configured.");
      const user = c.var.user;
      const current = await subscriptionRow({ db: c.var.db }, { userId: user.id });
      if (current?.status === "active") throw new ApiError(409, BILLING_MESSAGES.alreadySubscribed);
      const { sessionId, url, customerId } = await provider.createCheckout({
        plan,
        userId: user.id,
        // the account's own address, not whatever the client sent
        email: user.email,
        customerId: current?.stripeCustomerId ?? null,
        successUrl: `${appOrigin(c.env, c.req.url)}/app/subscription/success`,
        cancelUrl: `${appOrigin(c.env, c.req.url)}${checkoutReturnPath(c.req.valid("json").returnTo)}`,
      });
      if (customerId && customerId !== current?.stripeCustomerId) await rememberCustomer({ db: c.var.db }, { userId: user.id, customerId });
      // one checkout stays payable: the one this replaces is expired, and if it was paid meanwhile
      // (its webhook not here yet) the new one goes instead
      const replaced = await takeOpenCheckout({ db: c.var.db }, { userId: user.id, sessionId });
      if (replaced && (await provider.expireCheckout(replaced)) === "paid") {
        await provider.expireCheckout(sessionId);
        throw new ApiError(409, BILLING_MESSAGES.alreadySubscribed);
      }
      return c.json({ sessionId, url }, 200);
    },
  )
  .post("/subscription/status", async (c) => c.json(await subscriptionStatus({ db: c.var.db }, { userId: c.var.user.id }), 200))
  .post("/subscription/cancel", async (c) => {
    const message = await cancelSubscription(
      { db: c.var.db, provider: choosePaymentProvider(c.env, appOrigin(c.env, c.req.url)) },
      { userId: c.var.user.id },
    );
    return c.json({ message }, 200);
  });
