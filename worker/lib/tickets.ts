// Tickets: what a URL the browser opens carries instead of the sign-in token (a
// URL ends up in request logs): the chat websocket's, and the Google Drive
// connection's. A ticket is minted for one user's signed-in session and one
// thing it opens (a chat session, or DRIVE_CONNECT), lives TICKET_TTL_MS and is
// HMAC-SHA256 signed with a key of its own derived from JWT_SECRET. Its nonce
// makes it single use: the chat's Durable Object records the nonces it took
// (chat/used-tickets.ts); a Drive connection's nonce becomes its OAuth state's,
// which is used once. Nothing in it is a credential on its own.
import { base64url, fromBase64url } from "./encoding";

export const TICKET_TTL_MS = 60_000;
/** What a Drive connection's ticket opens (no chat session id has this form: they start with an e-mail address). */
export const DRIVE_CONNECT = "drive:connect";

const VERSION = "t1";
const encoder = new TextEncoder();

export interface Ticket {
  /** the user it was minted for */
  userId: string;
  /** that user's signed-in session (the sign-in token's jti) */
  authSessionId: string;
  /** the chat session it opens, or DRIVE_CONNECT */
  sessionId: string;
  /** single use: the chat's object (or the OAuth states table) refuses a nonce it has seen */
  nonce: string;
  expiresAt: number;
}

async function hmacKey(secret: string | undefined): Promise<CryptoKey> {
  if (!secret || secret.length < 32) throw new Error("JWT_SECRET must be set to at least 32 characters");
  return crypto.subtle.importKey("raw", encoder.encode(`socket-tickets:${secret}`), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
}

export async function mintTicket(
  secret: string | undefined,
  { userId, authSessionId, sessionId }: Pick<Ticket, "userId" | "authSessionId" | "sessionId">,
  ttlMs = TICKET_TTL_MS,
): Promise<string> {
  const claims = { u: userId, j: authSessionId, s: sessionId, n: crypto.randomUUID(), x: Date.now() + ttlMs };
  const payload = `${VERSION}.${base64url(encoder.encode(JSON.stringify(claims)))}`;
  const signature = base64url(await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(payload)));
  return `${payload}.${signature}`;
}

/** The ticket's claims when we signed it and it has not expired; null for anything else (a sign-in token included). */
export async function readTicket(secret: string | undefined, ticket: string): Promise<Ticket | null> {
  const [version, body, signature, ...rest] = ticket.split(".");
  if (version !== VERSION || !body || !signature || rest.length) return null;
  const sig = fromBase64url(signature);
  const bytes = fromBase64url(body);
  if (!sig || !bytes) return null;
  if (!(await crypto.subtle.verify("HMAC", await hmacKey(secret), sig, encoder.encode(`${version}.${body}`)))) return null;
  let claims: { u?: unknown; j?: unknown; s?: unknown; n?: unknown; x?: unknown };
  try {
    claims = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
  const { u, j, s, n, x } = claims;
  if (typeof u !== "string" || typeof j !== "string" || typeof s !== "string" || typeof n !== "string" || typeof x !== "number")
    return null;
  if (x <= Date.now()) return null;
  return { userId: u, authSessionId: j, sessionId: s, nonce: n, expiresAt: x };
}
