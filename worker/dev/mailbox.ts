// The development mailbox (/dev/mailbox): lists the D1 outbox with each
// message's text, and shows its HTML body in a sandbox. Development only (see
// ../dev-tools.ts); everywhere else /dev is a 404 (a test proves it).
import { Hono } from "hono";
import { escapeHtml } from "../services/mail";

interface OutboxRow {
  id: number;
  to: string;
  subject: string;
  kind: string;
  status: string;
  error: string | null;
  text_body: string;
  created_at: number;
}

export const mailbox = new Hono<{ Bindings: Env }>()
  .get("/", async (c) => {
    const { results } = await c.env.DB.prepare(
      "SELECT id, `to`, subject, kind, status, error, text_body, created_at FROM email_outbox ORDER BY id DESC LIMIT 100",
    ).all<OutboxRow>();
    const items = results
      .map(
        (m) => `<article class="mail">
<h2>${escapeHtml(m.subject)}</h2>
<p class="meta">To <strong>${escapeHtml(m.to)}</strong> · ${escapeHtml(m.kind)} · <span class="status ${escapeHtml(m.status)}">${escapeHtml(m.status)}</span> · ${new Date(m.created_at).toLocaleString("en-US")}${m.error ? ` · ${escapeHtml(m.error)}` : ""}</p>
<pre>${escapeHtml(m.text_body)}</pre>
<p><a href="/dev/mailbox/${m.id}" target="_blank" rel="noopener">View the HTML e-mail</a></p>
</article>`,
      )
      .join("\n");
    return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Development mailbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:860px;margin:0 auto;padding:24px;color:#111827;background:#f9fafb}
.mail{background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:16px 20px;margin:16px 0}.mail h2{font-size:18px;margin:0 0 4px}
.meta{color:#6b7280;font-size:14px}pre{white-space:pre-wrap;font:14px/1.5 ui-monospace,monospace;background:#f3f4f6;padding:12px;border-radius:8px}
.status.sent{color:#15803d}.status.failed{color:#b91c1c}</style></head>
<body><h1>Development mailbox</h1><p>Every e-mail the product sent (memo, share, contact), newest first. Only in development.</p>
${items || "<p>No messages yet.</p>"}</body></html>`);
  })
  .get("/:id{[0-9]+}", async (c) => {
    const row = await c.env.DB.prepare("SELECT html_body FROM email_outbox WHERE id = ?")
      .bind(Number(c.req.param("id")))
      .first<{ html_body: string }>();
    if (!row) return c.json({ status: "error", message: "Not found." }, 404);
    // the body is our own template with escaped user content; still, no scripts
    c.header("Content-Security-Policy", "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    return c.html(row.html_body);
  });
