// GET /ws: checks who is connecting, then hands the websocket to the chat
// session's Durable Object. A signed-in socket's URL carries, as the spec's
// `token` query parameter, a single-use ticket minted for this chat by
// `POST /api/chat/ticket` (lib/tickets.ts), never the sign-in token (a URL
// ends up in request logs); the object takes the ticket once (chat/used-tickets.ts).
// Bad, used, expired or other-session tickets are closed with 4001 (the client
// logs out) and chats the caller may not open with 4403 (the client stays signed
// in and says why), each after an `error` frame saying why.
import type { Context } from "hono";
import { chatSession } from "../chat/stub";
import { CHAT_MESSAGES, CLOSE_NO_ACCESS, CLOSE_UNAUTHORIZED } from "../contract/protocol";
import { MEMO_MESSAGES } from "../contract/mail";
import { MESSAGES } from "../contract/messages";
import { IDENTITY_HEADER, type SocketIdentity } from "../chat/identity";
import { refusedSocket } from "../chat/socket-access";
import { TICKET_HEADER } from "../chat/used-tickets";
import { getDb } from "../db/client";
import type { AppEnv } from "../env";
import { readTicket } from "../lib/tickets";
import { clientIp } from "../middleware/rate-limit";
import { sessionUser } from "../services/accounts";
import { noAccessReason, sessionAccess } from "../services/chats";

/** Anonymous visitors' session ids; their objects live in a separate name space. */
export const GUEST_PREFIX = "guest-";

export async function openChatSocket(c: Context<AppEnv>): Promise<Response> {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
    return c.json({ status: "error", message: "Expected a websocket upgrade." }, 426);
  }
  const sessionId = c.req.query("session_id") ?? "";
  const token = c.req.query("token");
  // a client's fault, no reason to sign its user out (1008 would): the chat cannot be opened
  if (!sessionId || sessionId.length > 400)
    return refusedSocket(CLOSE_NO_ACCESS, { type: "error", code: 400, message: MEMO_MESSAGES.sessionMissing });

  const headers = new Headers(c.req.raw.headers);
  headers.delete(TICKET_HEADER);
  let identity: SocketIdentity;
  if (token) {
    const unauthorized = () => refusedSocket(CLOSE_UNAUTHORIZED, { type: "error", code: 401, message: MESSAGES.unauthorized });
    const ticket = await readTicket(c.env.JWT_SECRET, token);
    if (!ticket || ticket.sessionId !== sessionId) return unauthorized();
    const db = getDb(c.env);
    const row = await sessionUser({ db }, ticket);
    if (!row) return unauthorized();
    const user = { id: row.id, email: row.email };
    const access = await sessionAccess({ db }, { sessionId, user });
    if (access === "denied")
      return refusedSocket(CLOSE_NO_ACCESS, { type: "error", code: 403, message: await noAccessReason({ db }, { sessionId, user }) });
    identity = {
      sessionId,
      access,
      userId: user.id,
      email: user.email,
      authSessionId: ticket.authSessionId,
      sessionExpiresAt: row.expiresAt,
      ip: clientIp(c.req.raw),
    };
    headers.set(TICKET_HEADER, JSON.stringify({ nonce: ticket.nonce, expiresAt: ticket.expiresAt }));
  } else {
    if (!sessionId.startsWith(GUEST_PREFIX))
      return refusedSocket(CLOSE_NO_ACCESS, { type: "error", code: 403, message: CHAT_MESSAGES.notYourSession });
    identity = { sessionId, access: "anonymous", userId: null, email: null, authSessionId: null, ip: clientIp(c.req.raw) };
  }

  const stub = chatSession(c.env, sessionId, identity.userId ? "user" : "guest");
  headers.set(IDENTITY_HEADER, JSON.stringify(identity));
  return stub.fetch(new Request(c.req.raw, { headers }));
}
