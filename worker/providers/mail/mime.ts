// A small RFC 5322 / MIME writer for outgoing mail: multipart/alternative with
// plain text and HTML, both base64. Header values never carry CR or LF (no header
// injection through names or subjects) and non-ASCII uses RFC 2047 words.
import { isEmailAddress } from "../../contract/email";

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
}

/** One header line's value: control characters (CR, LF included) become spaces. */
export function headerValue(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
}

function encodeWord(value: string): string {
  const clean = headerValue(value);
  if (/^[\x20-\x7e]*$/.test(clean)) return clean;
  const bytes = new TextEncoder().encode(clean);
  return `=?UTF-8?B?${btoa(String.fromCharCode(...bytes))}?=`;
}

function base64Lines(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return (btoa(binary).match(/.{1,76}/g) ?? []).join("\r\n");
}

export function buildMime(mail: OutgoingMail, messageId: string, date = new Date()): string {
  for (const address of [mail.from, mail.to, ...(mail.replyTo ? [mail.replyTo] : [])]) {
    if (!isEmailAddress(address)) throw new Error(`invalid e-mail address: ${JSON.stringify(address)}`);
  }
  const boundary = `docchat-${crypto.randomUUID()}`;
  const headers = [
    `From: ${mail.from}`,
    `To: ${mail.to}`,
    ...(mail.replyTo ? [`Reply-To: ${mail.replyTo}`] : []),
    `Subject: ${encodeWord(mail.subject)}`,
    `Date: ${date.toUTCString()}`,
    `Message-ID: <${messageId}>`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
  ];
  const part = (type: string, body: string) =>
    [`--${boundary}`, `Content-Type: ${type}; charset=UTF-8`, "Content-Transfer-Encoding: base64", "", base64Lines(body)].join("\r\n");
  return [...headers, "", part("text/plain", mail.text), part("text/html", mail.html), `--${boundary}--`, ""].join("\r\n");
}
