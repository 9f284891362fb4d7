// GET /ws: checks who is connecting, then hands the websocket to the chat
// session's Durable Object. Bad tokens are closed with 4001 (the client logs
// out) and chats the caller may not open with 4403 (the client stays signed in
// and says why), each after an `error` frame saying why.
import type { Context } from "hono";
import { chatSession } from "../chat/stub";
import { CHAT_MESSAGES, CLOSE_NO_ACCESS, CLOSE_POLICY, CLOSE_UNAUTHORIZED, type ServerMessage } from "../contract/protocol";
import { MESSAGES } from "../contract/messages";
import { IDENTITY_HEADER, type SocketIdentity } from "../chat/identity";
import { getDb } from "../db/client";
import type { AppEnv } from "../env";
import { clientIp } from "../middleware/rate-limit";
import { authenticate } from "../services/accounts";
import { noAccessReason, sessionAccess } from "../services/chats";

/** Anonymous visitors' session ids; their objects live in a separate name space. */
export const GUEST_PREFIX = "guest-";

function refuse(closeCode: number, error: ServerMessage & { type: "error" }): Response {
  const { 0: client, 1: server } = new WebSocketPair();
  server.accept();
  server.send(JSON.stringify(error));
  server.close(closeCode, error.message.slice(0, 120));
  return new Response(null, { status: 101, webSocket: client });
}

export async function openChatSocket(c: Context<AppEnv>): Promise<Response> {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
    return c.json({ status: "error", message: "Expected a websocket upgrade." }, 426);
  }
  const sessionId = c.req.query("session_id") ?? "";
  const token = c.req.query("token");
  if (!sessionId || sessionId.length > 400) return refuse(CLOSE_POLICY, { type: "error", code: 400, message: "session_id is required." });

  let identity: SocketIdentity;
  if (token) {
    const user = await authenticate({ db: getDb(c.env), jwtSecret: c.env.JWT_SECRET }, { token });
    if (!user) return refuse(CLOSE_UNAUTHORIZED, { type: "error", code: 401, message: MESSAGES.unauthorized });
    const access = await sessionAccess({ db: getDb(c.env) }, { sessionId, user });
    if (access === "denied")
      return refuse(CLOSE_NO_ACCESS, {
        type: "error",
        code: 403,
        message: await noAccessReason({ db: getDb(c.env) }, { sessionId, user }),
      });
    identity = { sessionId, access, userId: user.id, email: user.email, authSessionId: user.sessionId, ip: clientIp(c.req.raw) };
  } else {
    if (!sessionId.startsWith(GUEST_PREFIX))
      return refuse(CLOSE_NO_ACCESS, { type: "error", code: 403, message: CHAT_MESSAGES.notYourSession });
    identity = { sessionId, access: "anonymous", userId: null, email: null, authSessionId: null, ip: clientIp(c.req.raw) };
  }

  const stub = chatSession(c.env, sessionId, identity.userId ? "user" : "guest");
  const headers = new Headers(c.req.raw.headers);
  headers.set(IDENTITY_HEADER, JSON.stringify(identity));
  return stub.fetch(new Request(c.req.raw, { headers }));
}
