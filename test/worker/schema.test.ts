// Proves the migrations create every D1 table of DESIGN.md section 3 (chunks and
// their full-text index live in each user's Library, not in D1) and that the
// plan catalogue is seeded per spec sections 3 and 9.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

describe("schema", () => {
  it("has every table", async () => {
    const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all<{ name: string }>();
    const names = results.map((r) => r.name);
    for (const table of [
      "users",
      "auth_sessions",
      "documents",
      "upload_aliases",
      "chats",
      "chat_shares",
      "drive_connections",
      "plans",
      "subscriptions",
      "webhook_events",
      "contact_messages",
      "email_outbox",
    ]) {
      expect(names).toContain(table);
    }
    expect(names.filter((n) => n.startsWith("chunks"))).toEqual([]);
    // the daily message count lives in each user's Library
    expect(names).not.toContain("usage");
  });

  it("seeds the plan catalogue", async () => {
    const { results } = await env.DB.prepare("SELECT * FROM plans ORDER BY sort_order").all<Record<string, unknown>>();
    expect(results.map((p) => [p.id, p.name, p.price, p.period, p.popular, p.note])).toEqual([
      ["premium_monthly", "Premium (Monthly)", 29.99, "month", 0, null],
      ["pro_annual", "Pro (Annual)", 299.99, "year", 0, null],
      ["monthly", "Monthly Plan", 3, "month", 0, null],
      ["yearly", "Yearly Plan", 20, "year", 1, "Save $16 compared to monthly"],
    ]);
    const features = Object.fromEntries(results.map((p) => [p.id, JSON.parse(p.features as string)]));
    expect(features.premium_monthly).toEqual([
      "Unlimited access to all features",
      "Priority customer support",
      "Advanced analytics",
      "Custom integrations",
    ]);
    expect(features.pro_annual).toEqual(["All Premium features", "2 months free", "Dedicated account manager", "Custom training sessions"]);
    expect(features.monthly).toEqual(["Full access to all features", "Unlimited messages", "Priority support", "Advanced AI capabilities"]);
    expect(features.yearly).toEqual(["Everything in Monthly plan", "Best value for money", "Annual billing"]);
    expect(results.every((p) => typeof p.button_text === "string" && (p.button_text as string).length > 0)).toBe(true);
  });
});
