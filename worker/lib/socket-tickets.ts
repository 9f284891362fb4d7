// Socket tickets: what the chat websocket's URL carries instead of the sign-in
// token (a URL ends up in request logs). A ticket is minted for one user's
// signed-in session and one chat session, lives SOCKET_TICKET_TTL_MS and is
// HMAC-SHA256 signed with a key of its own derived from JWT_SECRET. Its nonce
// makes it single use: the chat's Durable Object records the nonces it took
// (chat/used-tickets.ts). Nothing in it is a credential on its own.
import { base64url, fromBase64url } from "./encoding";

export const SOCKET_TICKET_TTL_MS = 60_000;

const VERSION = "t1";
const encoder = new TextEncoder();

export interface SocketTicket {
  /** the user it was minted for */
  userId: string;
  /** that user's signed-in session (the sign-in token's jti) */
  authSessionId: string;
  /** the chat session it opens */
  sessionId: string;
  /** single use: the chat's object refuses a nonce it has seen */
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

export async function mintSocketTicket(
  secret: string | undefined,
  { userId, authSessionId, sessionId }: Pick<SocketTicket, "userId" | "authSessionId" | "sessionId">,
  ttlMs = SOCKET_TICKET_TTL_MS,
): Promise<string> {
  const claims = { u: userId, j: authSessionId, s: sessionId, n: crypto.randomUUID(), x: Date.now() + ttlMs };
  const payload = `${VERSION}.${base64url(encoder.encode(JSON.stringify(claims)))}`;
  const signature = base64url(await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(payload)));
  return `${payload}.${signature}`;
}

/** The ticket's claims when we signed it and it has not expired; null for anything else (a sign-in token included). */
export async function readSocketTicket(secret: string | undefined, ticket: string): Promise<SocketTicket | null> {
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
