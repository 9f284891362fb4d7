// The local test checkout (/dev/checkout): shows the plan and price with Pay
// and Cancel (back to the page the checkout was started from). Pay feeds Stripe-shaped events (checkout.session.completed, then
// customer.subscription.created) to the same handler the Stripe webhook uses.
// Only in development without a Stripe key; elsewhere a 404 (a test proves it).
import { Hono } from "hono";
import type Stripe from "stripe";
import { formatPrice } from "../contract/billing";
import { isTestCheckout, TEST_CHECKOUT_PATH, testCheckoutCompletedEvent, wasTestCheckoutPaid } from "../providers/payments";
import { getDb } from "../db/client";
import { addPeriod, getPlan, processStripeEvent } from "../services/billing";
import { checkoutReturnPath, isOpenCheckout } from "../services/checkouts";
import { escapeHtml } from "../services/mail";
import { verifyLink } from "../lib/signed-links";

interface CheckoutRef {
  sessionId: string;
  userId: string;
  planId: string;
  fields: { session: string; expires: string; signature: string; back: string };
}

/** A signed checkout that is still the user's open one, or was paid (a second Pay is then a replay). */
async function readCheckout(env: Env, fields: Record<string, string | undefined>): Promise<CheckoutRef | null> {
  const { session = "", expires, signature, back } = fields;
  if (!(await verifyLink(env.JWT_SECRET, "checkout", session, expires, signature))) return null;
  const [sessionId, userId, planId] = session.split(":");
  if (!sessionId || !userId || !planId) return null;
  const db = getDb(env);
  if (!(await isOpenCheckout({ db }, { userId, sessionId })) && !(await wasTestCheckoutPaid(db, sessionId))) return null;
  return { sessionId, userId, planId, fields: { session, expires: expires!, signature: signature!, back: checkoutReturnPath(back) } };
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f9fafb;color:#111827;display:flex;min-height:100vh;align-items:center;justify-content:center;margin:0}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:14px;padding:28px;max-width:420px;width:100%;box-shadow:0 8px 30px rgba(0,0,0,.06)}
.badge{display:inline-block;font-size:12px;background:#fef3c7;color:#92400e;border-radius:999px;padding:2px 10px}
.price{font-size:28px;font-weight:800;margin:8px 0 20px}form{display:inline}button{font:inherit;font-weight:600;padding:10px 18px;border-radius:8px;border:1px solid #e5e7eb;cursor:pointer;margin-right:8px}
.pay{background:#4f46e5;color:#fff;border-color:#4f46e5}</style></head><body><main class="card">${body}</main></body></html>`;
}

const hidden = (ref: CheckoutRef) =>
  Object.entries(ref.fields)
    .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`)
    .join("");

export const testCheckout = new Hono<{ Bindings: Env }>()
  .use(async (c, next) => {
    if (!isTestCheckout(c.env)) return c.json({ status: "error", message: "Not found." }, 404);
    await next();
  })
  .get("/", async (c) => {
    const ref = await readCheckout(c.env, c.req.query());
    const plan = ref && (await getPlan({ db: getDb(c.env) }, { planId: ref.planId }));
    if (!ref || !plan)
      return c.html(
        page("Checkout expired", '<h1>This checkout link is invalid or has expired.</h1><p><a href="/app/payment">Back to plans</a></p>'),
        400,
      );
    return c.html(
      page(
        "Test checkout",
        `<span class="badge">Test checkout: no card is charged</span>
<h1>${escapeHtml(plan.name)}</h1>
<p class="price">${escapeHtml(formatPrice(plan))}</p>
<p>Pay completes the subscription exactly as a successful Stripe payment would.</p>
<form method="post" action="${TEST_CHECKOUT_PATH}/pay">${hidden(ref)}<button class="pay" type="submit">Pay</button></form>
<form method="post" action="${TEST_CHECKOUT_PATH}/cancel">${hidden(ref)}<button type="submit">Cancel</button></form>`,
      ),
    );
  })
  .post("/pay", async (c) => {
    // a body that is no form (a broken multipart one) reads as an empty form: the expired page, not a 500
    const body = await c.req.parseBody().catch(() => ({}));
    const form = Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
    const ref = await readCheckout(c.env, form);
    const plan = ref && (await getPlan({ db: getDb(c.env) }, { planId: ref.planId }));
    if (!ref || !plan) return c.html(page("Checkout expired", "<h1>This checkout link is invalid or has expired.</h1>"), 400);

    const now = Date.now();
    const created = Math.floor(now / 1000);
    const subscriptionId = `sub_test_${ref.sessionId.slice(-24)}`;
    const events = [
      {
        id: testCheckoutCompletedEvent(ref.sessionId),
        type: "checkout.session.completed",
        created,
        data: {
          object: {
            id: ref.sessionId,
            mode: "subscription",
            client_reference_id: ref.userId,
            customer: null,
            subscription: subscriptionId,
            metadata: { userId: ref.userId, planId: plan.id },
          },
        },
      },
      {
        id: `evt_${ref.sessionId}_subscription`,
        type: "customer.subscription.created",
        created,
        data: {
          object: {
            id: subscriptionId,
            status: "active",
            cancel_at_period_end: false,
            customer: null,
            metadata: { userId: ref.userId, planId: plan.id },
            items: { data: [{ current_period_end: Math.floor(addPeriod(now, plan.period) / 1000) }] },
          },
        },
      },
    ] as unknown as Stripe.Event[];
    // paying twice (back button, double click) changes nothing
    for (const event of events) await processStripeEvent({ db: getDb(c.env) }, { event });
    return c.redirect(`/app/subscription/success?session_id=${encodeURIComponent(ref.sessionId)}`, 303);
  })
  .post("/cancel", async (c) => {
    const { back } = await c.req.parseBody().catch(() => ({ back: undefined }));
    return c.redirect(checkoutReturnPath(typeof back === "string" ? back : undefined), 303);
  });
