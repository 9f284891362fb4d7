// Sends mail through one provider chosen from config: an HTTP mail API when
// MAIL_API_URL is set, otherwise the `send_email` binding (Cloudflare Email
// Routing in production; simulated locally, which writes each message to disk).
import { EmailMessage } from "cloudflare:email";
import { optionalSecrets } from "../../config";
import { buildMime, type OutgoingMail } from "./mime";

export interface Mailer {
  readonly name: "send_email" | "http";
  send(mail: OutgoingMail): Promise<void>;
}

export function sendEmailMailer(binding: SendEmail, domain: string): Mailer {
  return {
    name: "send_email",
    async send(mail) {
      const raw = buildMime(mail, `${crypto.randomUUID()}@${domain}`);
      await binding.send(new EmailMessage(mail.from, mail.to, raw));
    },
  };
}

export function httpMailer(url: string, apiKey: string | undefined): Mailer {
  return {
    name: "http",
    async send(mail) {
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}) },
        body: JSON.stringify({
          from: mail.from,
          to: [mail.to],
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          reply_to: mail.replyTo,
        }),
      });
      if (!response.ok) throw new Error(`mail API answered ${response.status}`);
    },
  };
}

export function chooseMailer(env: Env): Mailer {
  const s = optionalSecrets(env);
  if (s.MAIL_API_URL) return httpMailer(s.MAIL_API_URL, s.MAIL_API_KEY);
  return sendEmailMailer(env.EMAIL, env.MAIL_FROM.split("@")[1] ?? "docchat.local");
}

export type { OutgoingMail } from "./mime";
