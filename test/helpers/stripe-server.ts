// vitest globalSetup (Node side): a loopback server speaking Stripe's wire format
// (form-encoded requests, JSON responses) for the calls the product makes, so the
// real `stripe` client is exercised. GET /__requests returns what it received.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    stripeApiBase: string;
  }
}

export const MOCK_PERIOD_END = Math.floor(Date.UTC(2030, 0, 15) / 1000);

export default async function setup(project: TestProject) {
  const received: { method: string; path: string; form: Record<string, string> }[] = [];
  let counter = 0;
  // checkout session id -> status, as Stripe keeps it ("open", "complete", "expired")
  const sessions = new Map<string, string>();
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(value));
      if (url.pathname === "/__requests") return json(200, received);
      // a test completes a checkout as a customer paying on Stripe's page would
      const complete = url.pathname.match(/^\/__complete\/([\w-]+)$/);
      if (complete) {
        sessions.set(complete[1]!, "complete");
        return json(200, { ok: true });
      }
      const form = Object.fromEntries(new URLSearchParams(body));
      received.push({ method: req.method ?? "", path: url.pathname, form });
      if (!req.headers.authorization?.startsWith("Bearer sk_test_")) {
        return json(401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } });
      }
      const n = ++counter;
      if (req.method === "POST" && url.pathname === "/v1/customers") {
        return json(200, { id: `cus_mock_${n}`, object: "customer", email: form.email, metadata: { userId: form["metadata[userId]"] } });
      }
      if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
        const id = `cs_test_mock_${n}`;
        sessions.set(id, "open");
        return json(200, {
          id,
          object: "checkout.session",
          mode: form.mode,
          customer: form.customer,
          client_reference_id: form.client_reference_id,
          metadata: { userId: form["metadata[userId]"], planId: form["metadata[planId]"] },
          url: `https://checkout.stripe.com/c/pay/${id}`,
        });
      }
      const session = url.pathname.match(/^\/v1\/checkout\/sessions\/([\w-]+)(\/expire)?$/);
      if (session && sessions.has(session[1]!)) {
        const id = session[1]!;
        if (req.method === "POST" && session[2]) {
          if (sessions.get(id) !== "open") {
            return json(400, {
              error: { type: "invalid_request_error", message: `Only Checkout Sessions with a status in ["open"] can be expired.` },
            });
          }
          sessions.set(id, "expired");
        }
        return json(200, { id, object: "checkout.session", status: sessions.get(id) });
      }
      const sub = url.pathname.match(/^\/v1\/subscriptions\/([\w-]+)$/);
      if (req.method === "POST" && sub) {
        return json(200, {
          id: sub[1],
          object: "subscription",
          status: "active",
          cancel_at_period_end: form.cancel_at_period_end === "true",
          customer: "cus_mock",
          metadata: {},
          items: { object: "list", data: [{ id: "si_mock", object: "subscription_item", current_period_end: MOCK_PERIOD_END }] },
        });
      }
      return json(404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${url.pathname})` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  project.provide("stripeApiBase", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
