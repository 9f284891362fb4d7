// Proves the migrations create every table of DESIGN.md section 3, that the plan
// catalogue is seeded per spec sections 3 and 9, and that the chunks full-text
// index follows inserts, updates and deletes.
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
      "chunks",
      "chunks_fts",
      "chats",
      "chat_shares",
      "drive_connections",
      "plans",
      "subscriptions",
      "webhook_events",
      "usage",
      "contact_messages",
      "email_outbox",
    ]) {
      expect(names).toContain(table);
    }
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

  it("keeps chunks_fts in step with chunks on insert, update and delete", async () => {
    await env.DB.batch([
      env.DB.prepare("INSERT INTO users (id, email, referral_code) VALUES ('u1', 'fts@example.com', 'FTSCODE001')"),
      env.DB.prepare("INSERT INTO documents (id, user_id, file_name, r2_key) VALUES ('d1', 'u1', 'a.pdf', 'k1')"),
      env.DB.prepare(
        "INSERT INTO chunks (id, document_id, user_id, page, ord, text, char_start, char_end) VALUES ('d1:1:0', 'd1', 'u1', 1, 0, 'Depreciation schedules for rental property', 0, 42)",
      ),
    ]);
    const search = async (term: string) =>
      (
        await env.DB.prepare(
          "SELECT c.id FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid WHERE chunks_fts MATCH ? ORDER BY bm25(chunks_fts)",
        )
          .bind(term)
          .all()
      ).results;
    expect(await search("depreciation")).toHaveLength(1);

    await env.DB.prepare("UPDATE chunks SET text = 'Payroll withholding tables' WHERE id = 'd1:1:0'").run();
    expect(await search("depreciation")).toHaveLength(0);
    expect(await search("payroll")).toHaveLength(1);

    await env.DB.prepare("DELETE FROM documents WHERE id = 'd1'").run();
    expect(await search("payroll")).toHaveLength(0);
  });
});
