// Proves plans and subscriptions: the real `stripe` client against a loopback
// Stripe mock (customer reuse, checkout session, cancel), signed webhooks (valid,
// tampered, stale, replayed, out of order), active -> cancelling -> canceled,
// one payable checkout per user (the one replaced is expired),
// the local test checkout driving the same transitions, quotas before and after
// an upgrade, isolation between users, and no test checkout in production.
import { env } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import Stripe from "stripe";
import { describe, expect, inject, it, vi } from "vitest";
import { app } from "../../worker/app";
import { BILLING_MESSAGES } from "../../worker/contract/billing";
import { MOCK_PERIOD_END } from "../helpers/stripe-server";
import { newUser } from "../helpers/api";

const stripeEnv = () =>
  ({
    ...env,
    STRIPE_SECRET_KEY: "sk_test_mock",
    STRIPE_WEBHOOK_SECRET: "whsec_test_secret",
    STRIPE_API_BASE: inject("stripeApiBase"),
  }) as Env;

async function request(
  targetEnv: Env,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const res = await app.fetch(
    new Request(`http://localhost${path}`, {
      method,
      headers,
      body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      redirect: "manual",
    }),
    targetEnv,
    createExecutionContext(),
  );
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, json, headers: res.headers };
}

/** What the Stripe mock received, oldest first. */
const stripeRequests = async () =>
  (await (await fetch(`${inject("stripeApiBase")}/__requests`)).json()) as { method: string; path: string; form: Record<string, string> }[];

const status = (targetEnv: Env, token: string) => request(targetEnv, "POST", "/api/payment/subscription/status", { token, body: {} });

const cryptoProvider = Stripe.createSubtleCryptoProvider();
let eventCounter = 0;

async function sendEvent(
  type: string,
  object: object,
  options: { created?: number; id?: string; timestamp?: number; secret?: string; tamper?: boolean } = {},
) {
  const event = {
    id: options.id ?? `evt_test_${Date.now()}_${++eventCounter}`,
    object: "event",
    type,
    created: options.created ?? Math.floor(Date.now() / 1000),
    data: { object },
  };
  const payload = JSON.stringify(event);
  const header = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: options.secret ?? "whsec_test_secret",
    timestamp: options.timestamp,
    cryptoProvider,
  });
  const body = options.tamper ? payload.replace(type, "customer.subscription.deleted") : payload;
  return {
    event,
    res: await request(stripeEnv(), "POST", "/api/payment/webhook", {
      raw: body,
      headers: { "Stripe-Signature": header, "Content-Type": "application/json" },
    }),
  };
}

const subscriptionObject = (userId: string, fields: Record<string, unknown> = {}) => ({
  id: `sub_${userId.slice(0, 8)}`,
  object: "subscription",
  status: "active",
  cancel_at_period_end: false,
  customer: `cus_${userId.slice(0, 8)}`,
  metadata: { userId, planId: "premium_monthly" },
  items: { object: "list", data: [{ id: "si_1", current_period_end: MOCK_PERIOD_END }] },
  ...fields,
});

describe("plans", () => {
  it("serves the catalogue from the database", async () => {
    const res = await request(env, "GET", "/api/payment/plans");
    expect(res.json.plans.map((p: { id: string }) => p.id)).toEqual(["premium_monthly", "pro_annual", "monthly", "yearly"]);
    expect(res.json.plans[3]).toMatchObject({
      name: "Yearly Plan",
      price: 20,
      period: "year",
      note: "Save $16 compared to monthly",
      popular: true,
    });
  });
});

describe("Stripe checkout (loopback mock)", () => {
  it("creates a subscription checkout from the catalogue and reuses the customer", async () => {
    const u = await newUser("stripe");
    const first = await request(stripeEnv(), "POST", "/api/payment/create-checkout-session", {
      token: u.token,
      body: { planId: "premium_monthly", email: "ignored@example.com" },
    });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({
      sessionId: expect.stringMatching(/^cs_test_mock_/),
      url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//),
    });
    const second = await request(stripeEnv(), "POST", "/api/payment/create-checkout-session", {
      token: u.token,
      body: { planId: "pro_annual" },
    });
    expect(second.status).toBe(200);

    const received = (await (await fetch(`${inject("stripeApiBase")}/__requests`)).json()) as {
      path: string;
      form: Record<string, string>;
    }[];
    const mine = received.filter((r) => r.form.client_reference_id === u.user.id || r.form["metadata[userId]"] === u.user.id);
    expect(mine.filter((r) => r.path === "/v1/customers")).toHaveLength(1);
    expect(mine.find((r) => r.path === "/v1/customers")!.form.email).toBe(u.email);
    const [monthly, annual] = mine.filter((r) => r.path === "/v1/checkout/sessions");
    expect(monthly!.form).toMatchObject({
      mode: "subscription",
      client_reference_id: u.user.id,
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "2999",
      "line_items[0][price_data][recurring][interval]": "month",
      "line_items[0][price_data][product_data][name]": "Premium (Monthly)",
      success_url: "http://localhost/app/subscription/success?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "http://localhost/app/payment",
    });
    expect(annual!.form["line_items[0][price_data][unit_amount]"]).toBe("29999");
    expect(annual!.form.customer).toBe(monthly!.form.customer);
  });

  it("expires the checkout a new one replaces, so two open tabs cannot both be paid", async () => {
    const u = await newUser("two-tabs");
    const open = (planId: string) =>
      request(stripeEnv(), "POST", "/api/payment/create-checkout-session", { token: u.token, body: { planId } });
    const first = await open("premium_monthly");
    const second = await open("pro_annual");
    expect([first.status, second.status]).toEqual([200, 200]);
    const stripeSession = async (id: string) =>
      (await (
        await fetch(`${inject("stripeApiBase")}/v1/checkout/sessions/${id}`, { headers: { Authorization: "Bearer sk_test_mock" } })
      ).json()) as {
        status: string;
      };
    expect((await stripeSession(first.json.sessionId)).status).toBe("expired");
    expect((await stripeSession(second.json.sessionId)).status).toBe("open");
  });

  it("refuses a new checkout when the one it replaces was paid before its webhook arrived, and expires the new one", async () => {
    const u = await newUser("paid-tab");
    const open = (planId: string) =>
      request(stripeEnv(), "POST", "/api/payment/create-checkout-session", { token: u.token, body: { planId } });
    const first = await open("premium_monthly");
    await fetch(`${inject("stripeApiBase")}/__complete/${first.json.sessionId}`, { method: "POST" });
    const before = (await stripeRequests()).length;
    const second = await open("pro_annual");
    expect(second.status).toBe(409);
    expect(second.json).toEqual({ status: "error", message: BILLING_MESSAGES.alreadySubscribed });
    const calls = (await stripeRequests()).slice(before).map((r) => `${r.method} ${r.path.replace(/cs_test_mock_\d+/, "cs")}`);
    // the new session, the paid one refusing to expire, then the new one expired
    expect(calls).toEqual([
      "POST /v1/checkout/sessions",
      "POST /v1/checkout/sessions/cs/expire",
      "GET /v1/checkout/sessions/cs",
      "POST /v1/checkout/sessions/cs/expire",
    ]);
    const expired = (await stripeRequests()).slice(before).filter((r) => r.path.endsWith("/expire"));
    expect(expired[0]!.path).toContain(first.json.sessionId);
    expect(expired[1]!.path).not.toContain(first.json.sessionId);
  });

  it.each(["platinum", "y".repeat(3_000_000)])("refuses an unknown plan with 400", async (planId) => {
    const u = await newUser("badplan");
    const res = await request(stripeEnv(), "POST", "/api/payment/create-checkout-session", {
      token: u.token,
      body: { planId },
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: "error", message: BILLING_MESSAGES.unknownPlan });
  });
});

describe("webhook", () => {
  it("drives active -> cancelling -> canceled from verified events", async () => {
    const u = await newUser("hook");
    const t = Math.floor(Date.now() / 1000);
    const completed = await sendEvent(
      "checkout.session.completed",
      {
        id: "cs_1",
        object: "checkout.session",
        mode: "subscription",
        client_reference_id: u.user.id,
        customer: `cus_${u.user.id.slice(0, 8)}`,
        subscription: `sub_${u.user.id.slice(0, 8)}`,
        metadata: { userId: u.user.id, planId: "premium_monthly" },
      },
      { created: t },
    );
    expect(completed.res.json).toEqual({ received: true });
    expect((await status(env, u.token)).json).toMatchObject({ status: "active", planId: "premium_monthly" });

    await sendEvent("customer.subscription.updated", subscriptionObject(u.user.id), { created: t + 1 });
    expect((await status(env, u.token)).json).toEqual({
      status: "active",
      planId: "premium_monthly",
      currentPeriodEnd: new Date(MOCK_PERIOD_END * 1000).toISOString(),
    });
    await sendEvent("customer.subscription.updated", subscriptionObject(u.user.id, { cancel_at_period_end: true }), { created: t + 2 });
    expect((await status(env, u.token)).json.status).toBe("cancelling");
    await sendEvent("customer.subscription.deleted", subscriptionObject(u.user.id, { status: "canceled" }), { created: t + 3 });
    expect((await status(env, u.token)).json.status).toBe("canceled");
  });

  it("rejects tampered, stale and wrongly signed payloads with 400 and changes nothing", async () => {
    const u = await newUser("hook-bad");
    const object = subscriptionObject(u.user.id);
    expect((await sendEvent("customer.subscription.created", object, { tamper: true })).res.status).toBe(400);
    expect((await sendEvent("customer.subscription.created", object, { timestamp: Math.floor(Date.now() / 1000) - 600 })).res.status).toBe(
      400,
    );
    expect((await sendEvent("customer.subscription.created", object, { secret: "whsec_someone_else" })).res.status).toBe(400);
    const unsigned = await request(stripeEnv(), "POST", "/api/payment/webhook", { raw: "{}" });
    expect(unsigned.status).toBe(400);
    expect((await status(env, u.token)).json.status).toBe("none");
  });

  it("treats a replayed event as a no-op and keeps the newer state when events arrive out of order", async () => {
    const u = await newUser("hook-order");
    const t = Math.floor(Date.now() / 1000);
    const newer = await sendEvent("customer.subscription.updated", subscriptionObject(u.user.id, { cancel_at_period_end: true }), {
      created: t + 10,
    });
    const older = await sendEvent("customer.subscription.created", subscriptionObject(u.user.id), { created: t });
    expect(older.res.status).toBe(200);
    expect((await status(env, u.token)).json.status).toBe("cancelling");

    // the same event id again, even with a newer timestamp, is ignored
    const replay = await sendEvent("customer.subscription.deleted", subscriptionObject(u.user.id), { id: newer.event.id, created: t + 20 });
    expect(replay.res.json).toEqual({ received: true, duplicate: true });
    expect((await status(env, u.token)).json.status).toBe("cancelling");
  });

  it("processes one event delivered five times at once exactly once", async () => {
    const u = await newUser("hook-concurrent");
    const id = `evt_concurrent_${crypto.randomUUID()}`;
    const deliveries = await Promise.all(
      Array.from({ length: 5 }, () => sendEvent("customer.subscription.created", subscriptionObject(u.user.id), { id })),
    );
    expect(deliveries.map((d) => d.res.status)).toEqual([200, 200, 200, 200, 200]);
    expect(deliveries.filter((d) => !d.res.json.duplicate)).toHaveLength(1);
    expect((await status(env, u.token)).json.status).toBe("active");
  });

  it("marks a failed invoice as past due", async () => {
    const u = await newUser("hook-pastdue");
    const t = Math.floor(Date.now() / 1000);
    await sendEvent("customer.subscription.created", subscriptionObject(u.user.id), { created: t });
    await sendEvent(
      "invoice.payment_failed",
      { id: "in_1", object: "invoice", customer: `cus_${u.user.id.slice(0, 8)}` },
      { created: t + 1 },
    );
    expect((await status(env, u.token)).json.status).toBe("past_due");
  });

  it("cancels through Stripe at period end", async () => {
    const u = await newUser("stripe-cancel");
    await sendEvent("customer.subscription.created", subscriptionObject(u.user.id), { created: Math.floor(Date.now() / 1000) - 5 });
    const res = await request(stripeEnv(), "POST", "/api/payment/subscription/cancel", { token: u.token, body: {} });
    expect(res.json.message).toContain("You keep access until January 15, 2030.");
    const received = (await (await fetch(`${inject("stripeApiBase")}/__requests`)).json()) as {
      path: string;
      form: Record<string, string>;
    }[];
    expect(received.find((r) => r.path === `/v1/subscriptions/sub_${u.user.id.slice(0, 8)}`)?.form).toEqual({
      cancel_at_period_end: "true",
    });
    expect((await status(env, u.token)).json).toMatchObject({ status: "cancelling", currentPeriodEnd: "2030-01-15T00:00:00.000Z" });
  });
});

describe("local test checkout", () => {
  async function payWithTestCheckout(token: string, planId: string) {
    const checkout = await request(env, "POST", "/api/payment/create-checkout-session", { token, body: { planId } });
    expect(checkout.status).toBe(200);
    const url = new URL(checkout.json.url);
    expect(url.pathname).toBe("/dev/checkout");
    const page = await request(env, "GET", url.pathname + url.search);
    expect(page.status).toBe(200);
    const form = new URLSearchParams(url.search);
    const paid = await app.fetch(
      new Request("http://localhost/dev/checkout/pay", {
        method: "POST",
        body: form,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        redirect: "manual",
      }),
      env,
      createExecutionContext(),
    );
    expect(paid.status).toBe(303);
    expect(paid.headers.get("Location")).toMatch(/^\/app\/subscription\/success\?session_id=cs_test_local_/);
    return { page: page.json as string, form };
  }

  it.each([
    [undefined, "/app/payment"],
    ["/app/chat?session=s-1&settings=subscription", "/app/chat?session=s-1&settings=subscription"],
    ["/?settings=subscription", "/?settings=subscription"],
    ["//evil.example/app", "/app/payment"],
    ["https://evil.example/", "/app/payment"],
    ["/app/../../x", "/app/payment"],
    ["/app/chat?x=<script>", "/app/payment"],
  ])("Cancel returns a checkout started with returnTo %j to %s", async (returnTo, back) => {
    const u = await newUser("testcancel");
    const checkout = await request(env, "POST", "/api/payment/create-checkout-session", {
      token: u.token,
      body: { planId: "monthly", returnTo },
    });
    const page = await request(env, "GET", new URL(checkout.json.url).pathname + new URL(checkout.json.url).search);
    const cancelForm = /action="\/dev\/checkout\/cancel">(.*?)<button/.exec(page.json as string)![1]!;
    const fields = new URLSearchParams(
      [...cancelForm.matchAll(/name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, "&")]),
    );
    const cancelled = await app.fetch(
      new Request("http://localhost/dev/checkout/cancel", { method: "POST", body: fields, redirect: "manual" }),
      env,
      createExecutionContext(),
    );
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get("Location")).toBe(back);
  });

  it("sends a forged Cancel return to the upgrade page", async () => {
    const form = new URLSearchParams({ back: "https://evil.example/" });
    const cancelled = await app.fetch(
      new Request("http://localhost/dev/checkout/cancel", { method: "POST", body: form, redirect: "manual" }),
      env,
      createExecutionContext(),
    );
    expect(cancelled.headers.get("Location")).toBe("/app/payment");
  });

  it("shows the plan and price, and Pay activates it through the webhook's transitions", async () => {
    const u = await newUser("testpay");
    const { page, form } = await payWithTestCheckout(u.token, "yearly");
    expect(page).toContain("Yearly Plan");
    expect(page).toContain("$20 / year");
    const active = (await status(env, u.token)).json;
    expect(active).toMatchObject({ status: "active", planId: "yearly" });
    const days = (Date.parse(active.currentPeriodEnd) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThan(367);

    // paying twice changes nothing; a forged link is refused
    await app.fetch(
      new Request("http://localhost/dev/checkout/pay", {
        method: "POST",
        body: form,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      }),
      env,
      createExecutionContext(),
    );
    expect((await status(env, u.token)).json).toEqual(active);
    form.set("session", form.get("session")!.replace("yearly", "monthly"));
    const forged = await app.fetch(
      new Request("http://localhost/dev/checkout/pay", {
        method: "POST",
        body: form,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      }),
      env,
      createExecutionContext(),
    );
    expect(forged.status).toBe(400);
    const broken = await app.fetch(
      new Request("http://localhost/dev/checkout/pay", {
        method: "POST",
        body: "--b\r\n",
        headers: { "Content-Type": "multipart/form-data; boundary=b" },
      }),
      env,
      createExecutionContext(),
    );
    expect(broken.status).toBe(400);
    expect(await broken.text()).toContain("This checkout link is invalid or has expired.");

    const again = await request(env, "POST", "/api/payment/create-checkout-session", { token: u.token, body: { planId: "monthly" } });
    expect(again.status).toBe(409);

    const cancel = await request(env, "POST", "/api/payment/subscription/cancel", { token: u.token, body: {} });
    expect(cancel.json.message).toContain("You keep access until");
    expect((await status(env, u.token)).json.status).toBe("cancelling");
  });

  it("of several checkouts opened at once only the last opened can be paid; the others show the expired page", async () => {
    const u = await newUser("many-tabs");
    const opened = await Promise.all(
      ["monthly", "yearly", "monthly", "yearly", "monthly"].map((planId) =>
        request(env, "POST", "/api/payment/create-checkout-session", { token: u.token, body: { planId } }),
      ),
    );
    expect(opened.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const paid: string[] = [];
    for (const { json } of opened) {
      const url = new URL(json.url);
      const res = await app.fetch(
        new Request("http://localhost/dev/checkout/pay", {
          method: "POST",
          body: new URLSearchParams(url.search),
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          redirect: "manual",
        }),
        env,
        createExecutionContext(),
      );
      if (res.status === 303) paid.push(json.sessionId);
      else {
        expect(res.status).toBe(400);
        expect(await res.text()).toContain("This checkout link is invalid or has expired.");
      }
    }
    expect(paid).toHaveLength(1);
    expect((await status(env, u.token)).json.status).toBe("active");
  });

  it("takes a payment completed within the second a cancel was made (events are stamped in whole seconds)", async () => {
    const u = await newUser("cancel-then-pay");
    await payWithTestCheckout(u.token, "yearly");
    const now = Math.floor(Date.now() / 1000) * 1000 + 900;
    const clock = vi.spyOn(Date, "now").mockReturnValue(now);
    try {
      expect((await request(env, "POST", "/api/payment/subscription/cancel", { token: u.token, body: {} })).status).toBe(200);
      await payWithTestCheckout(u.token, "monthly");
    } finally {
      clock.mockRestore();
    }
    expect((await status(env, u.token)).json).toMatchObject({ status: "active", planId: "monthly" });
  });

  it("lifts the free quota after an upgrade", async () => {
    const u = await newUser("quota-upgrade");
    await env.DB.batch(
      Array.from({ length: 50 }, (_, i) =>
        env.DB.prepare("INSERT INTO documents (id, user_id, file_name, r2_key, status, file_hash) VALUES (?, ?, ?, ?, 'indexed', ?)").bind(
          `qu-${u.user.id}-${i}`,
          u.user.id,
          `f${i}.pdf`,
          `k-qu-${u.user.id}-${i}`,
          `h${i}`,
        ),
      ),
    );
    const link = "/api/documents/uploadLink?fileName=more.pdf&contentType=application/pdf";
    const before = await request(env, "GET", link, { token: u.token });
    expect(before.status).toBe(403);
    expect(before.json.message).toContain("/app/payment");
    await payWithTestCheckout(u.token, "monthly");
    expect((await request(env, "GET", link, { token: u.token })).status).toBe(200);
  });

  it("is absent in production and when Stripe is configured", async () => {
    const production = { ...env, ENVIRONMENT: "production" } as Env;
    expect((await request(production, "GET", "/dev/checkout?session=x")).status).toBe(404);
    expect((await request(production, "POST", "/dev/checkout/pay")).status).toBe(404);
    expect((await request(stripeEnv(), "GET", "/dev/checkout?session=x")).status).toBe(404);
    const u = await newUser("prod-pay");
    expect(
      (await request(production, "POST", "/api/payment/create-checkout-session", { token: u.token, body: { planId: "monthly" } })).status,
    ).toBe(503);
  });
});

describe("isolation", () => {
  it("one user can neither read nor cancel another's subscription", async () => {
    const a = await newUser("sub-a");
    const b = await newUser("sub-b");
    await sendEvent("customer.subscription.created", subscriptionObject(a.user.id), { created: Math.floor(Date.now() / 1000) });
    expect((await status(env, b.token)).json).toEqual({ status: "none", planId: null, currentPeriodEnd: null });
    const cancel = await request(env, "POST", "/api/payment/subscription/cancel", { token: b.token, body: {} });
    expect(cancel.status).toBe(400);
    expect(cancel.json.message).toBe(BILLING_MESSAGES.noSubscription);
    expect((await status(env, a.token)).json.status).toBe("active");
    expect((await request(env, "POST", "/api/payment/subscription/status", { body: {} })).status).toBe(401);
  });
});
