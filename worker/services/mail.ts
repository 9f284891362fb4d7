// Every e-mail goes through here: recorded in the D1 outbox first, then sent by
// the configured mailer; the outcome (sent, or failed with the error) is written
// back and returned, so a failure is reported and never silently dropped. One a
// user has sent (memo, share) is recorded only under the daily caps, checked in
// the same statement, so requests at once cannot pass a cap together.
import { and, count, eq, gt, isNotNull, sql } from "drizzle-orm";
import { DAILY_MAILS_PER_RECIPIENT, DAILY_MAILS_PER_SENDER } from "../contract/mail";
import { getDb } from "../db/client";
import { emailOutbox } from "../db/schema";
import { chooseMailer, type Mailer } from "../providers/mail";
import type { EnvDeps } from "./deps";

export type MailKind = "memo" | "share" | "contact";

export interface MailRequest {
  to: string;
  /** the user who had it sent (memo, share): counted against the daily caps */
  senderId?: string;
  subject: string;
  text: string;
  html: string;
  kind: MailKind;
  replyTo?: string;
}

export interface MailOutcome {
  ok: boolean;
  /** null when it was not recorded: a daily cap was reached */
  outboxId: number | null;
  error?: string;
  capReached?: CapReached;
}

/** Which daily cap keeps a user's e-mail from being sent. */
export type CapReached = "sender" | "recipient";

/**
 * Records the e-mail as queued and returns its outbox id; one with a sender only
 * while the sender and the recipient are under their daily caps, else which is reached.
 */
export async function queueMail({ env }: EnvDeps, mail: MailRequest): Promise<{ outboxId: number } | { capReached: CapReached }> {
  const db = getDb(env);
  const { to, senderId = null, subject, kind, text, html } = mail;
  if (!senderId) {
    const [row] = await db
      .insert(emailOutbox)
      .values({ to, subject, kind, status: "queued", textBody: text, htmlBody: html })
      .returning({ id: emailOutbox.id });
    return { outboxId: row!.id };
  }
  const now = Date.now();
  const since = now - DAY_MS;
  const row = await db.get<{ id: number } | undefined>(sql`
    INSERT INTO email_outbox ("to", sender_id, subject, kind, status, text_body, html_body, created_at)
    SELECT ${to}, ${senderId}, ${subject}, ${kind}, 'queued', ${text}, ${html}, ${now}
    WHERE (SELECT COUNT(*) FROM email_outbox WHERE sender_id = ${senderId} AND created_at > ${since}) < ${DAILY_MAILS_PER_SENDER}
      AND (SELECT COUNT(*) FROM email_outbox WHERE "to" = ${to} AND sender_id IS NOT NULL AND created_at > ${since}) < ${DAILY_MAILS_PER_RECIPIENT}
    RETURNING id`);
  if (row) return { outboxId: row.id };
  return { capReached: (await senderUnderDailyCap({ env }, { senderId })) ? "recipient" : "sender" };
}

/** Sends an e-mail queued by queueMail and records how it went. */
export async function deliverMail(
  { env, mailer = chooseMailer(env) }: EnvDeps & { mailer?: Mailer },
  outboxId: number,
  mail: MailRequest,
): Promise<MailOutcome> {
  const db = getDb(env);
  try {
    await mailer.send({ from: env.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, replyTo: mail.replyTo });
    await db.update(emailOutbox).set({ status: "sent" }).where(eq(emailOutbox.id, outboxId));
    return { ok: true, outboxId };
  } catch (err) {
    const error = (err as Error)?.message || String(err);
    console.error("mail send failed", mail.kind, outboxId, error);
    await db
      .update(emailOutbox)
      .set({ status: "failed", error: error.slice(0, 500) })
      .where(eq(emailOutbox.id, outboxId));
    return { ok: false, outboxId, error };
  }
}

/** A queued e-mail that is no longer to be sent (another request sent its like). */
export async function dropQueuedMail({ env }: EnvDeps, outboxId: number): Promise<void> {
  await getDb(env).delete(emailOutbox).where(eq(emailOutbox.id, outboxId));
}

export async function sendMail(deps: EnvDeps & { mailer?: Mailer }, mail: MailRequest): Promise<MailOutcome> {
  const queued = await queueMail(deps, mail);
  if ("capReached" in queued) return { ok: false, outboxId: null, capReached: queued.capReached };
  return deliverMail(deps, queued.outboxId, mail);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** True when the user may have one more memo or share e-mail sent (DAILY_MAILS_PER_SENDER in 24 hours). */
export async function senderUnderDailyCap({ env }: EnvDeps, { senderId }: { senderId: string }): Promise<boolean> {
  const row = await getDb(env)
    .select({ n: count() })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.senderId, senderId), gt(emailOutbox.createdAt, Date.now() - DAY_MS)))
    .get();
  return (row?.n ?? 0) < DAILY_MAILS_PER_SENDER;
}

/** True when this address may receive one more memo or share e-mail (DAILY_MAILS_PER_RECIPIENT in 24 hours). */
export async function recipientUnderDailyCap({ env }: EnvDeps, { address }: { address: string }): Promise<boolean> {
  const row = await getDb(env)
    .select({ n: count() })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, address), isNotNull(emailOutbox.senderId), gt(emailOutbox.createdAt, Date.now() - DAY_MS)))
    .get();
  return (row?.n ?? 0) < DAILY_MAILS_PER_RECIPIENT;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** The shared HTML frame of our e-mails; `bodyHtml` must already be escaped. */
export function emailHtml(title: string, bodyHtml: string): string {
  return `<!doctype html><html><body style="margin:0;background:#f9fafb;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#111827">
<div style="max-width:640px;margin:0 auto;padding:24px">
<div style="font-weight:800;font-size:18px;color:#4f46e5;margin-bottom:16px">DocChat</div>
<div style="background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:24px">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>
${bodyHtml}
</div>
<p style="font-size:12px;color:#6b7280;margin-top:16px">Sent by DocChat. Answers quote your own documents; check important figures against the source.</p>
</div></body></html>`;
}
