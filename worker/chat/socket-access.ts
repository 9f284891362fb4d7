// Who may go on talking on a chat socket: the token in each message must still
// be valid and belong to the socket's user (else 4001, or 1008 for another
// account's token), and sockets whose signed-in session was revoked since they
// connected (signed out, or signed out by a password change elsewhere) are closed:
// as it happens when their Library tells the chat (./chat-sockets.ts), and at
// the latest at the next question's admission.
import { MESSAGES } from "../contract/messages";
import { CHAT_MESSAGES, CLOSE_POLICY, CLOSE_UNAUTHORIZED, type ServerMessage } from "../contract/protocol";
import { getDb } from "../db/client";
import { readToken } from "../lib/tokens";
import { authenticate } from "../services/accounts";
import type { SocketIdentity } from "./identity";

/** Sends one frame; a socket that closed meanwhile is left alone. */
export function send(ws: WebSocket, message: ServerMessage): void {
  try {
    ws.send(JSON.stringify(message));
  } catch {
    // the socket closed meanwhile
  }
}

/**
 * A socket refused at its upgrade: accepted only to carry the `error` frame that
 * says why, then closed with `closeCode` (4001 logs the client out, 4403 does not).
 */
export function refusedSocket(closeCode: number, error: ServerMessage & { type: "error" }): Response {
  const { 0: client, 1: server } = new WebSocketPair();
  server.accept();
  server.send(JSON.stringify(error));
  server.close(closeCode, error.message.slice(0, 120));
  return new Response(null, { status: 101, webSocket: client });
}

function refuse(ws: WebSocket, code: 401 | 403): false {
  send(ws, { type: "error", code, message: code === 401 ? MESSAGES.unauthorized : CHAT_MESSAGES.tokenMismatch });
  ws.close(code === 401 ? CLOSE_UNAUTHORIZED : CLOSE_POLICY, code === 401 ? "unauthorized" : "token mismatch");
  return false;
}

/**
 * The token each socket last showed, checked in full. The same token again needs
 * no database read while it has not expired: a revoked session's sockets are closed
 * when its Library tells the chat (sign-out tells the Library first), and caught
 * before every turn (admission asks the user's Library); a woken object starts with none.
 */
const checkedTokens = new WeakMap<WebSocket, { token: string; expiresAt: number }>();

/**
 * Whether the message may be handled: "read" when the token was checked against the
 * database just now (its signed-in session is live this moment), "known" when it
 * was checked earlier on this socket, false when the socket has been told and closed.
 * `signatureEnough`: the socket's own token, whose session was read when the socket
 * connected, needs only its signature and expiry checked here: the caller checks the
 * session in its own read right after (a question's admission does), or the message
 * can harm nothing should the session have been signed out (a Stop).
 */
export async function tokenMatches(
  env: Env,
  ws: WebSocket,
  who: SocketIdentity,
  token: string | undefined,
  { signatureEnough = false } = {},
): Promise<false | "read" | "known"> {
  if (!who.userId) return token ? refuse(ws, 403) : "known";
  const known = checkedTokens.get(ws);
  if (token && known?.token === token && known.expiresAt > Date.now()) return "known";
  if (token && signatureEnough) {
    const claims = await readToken(env.JWT_SECRET, token);
    if (claims && claims.jti === who.authSessionId && claims.sub === who.userId) {
      checkedTokens.set(ws, { token, expiresAt: claims.expiresAt });
      return "known";
    }
  }
  const caller = token ? await authenticate({ db: getDb(env), jwtSecret: env.JWT_SECRET }, { token }) : null;
  if (!caller) return refuse(ws, 401);
  if (caller.id !== who.userId) return refuse(ws, 403);
  checkedTokens.set(ws, { token: token!, expiresAt: caller.expiresAt });
  return "read";
}

/** The signed-in sessions behind these sockets, but `liveNow` (a session the caller has just read as live). */
export function signedInSessions(sockets: readonly WebSocket[], liveNow?: string): string[] {
  const ids = sockets.map((ws) => (ws.deserializeAttachment() as SocketIdentity).authSessionId);
  return [...new Set(ids.filter((id): id is string => Boolean(id) && id !== liveNow))];
}

/** A chat's signed-in sessions to check: one user's own (their Library knows which were signed out), and other users'. */
export interface ChatSessions {
  own: readonly string[];
  others: readonly string[];
}

/** The signed-in sessions behind these sockets, `userId`'s apart from other users' (but `liveNow`, as signedInSessions). */
export function chatSessions(sockets: readonly WebSocket[], userId: string | null, liveNow?: string): ChatSessions {
  const ofUser = (ws: WebSocket) => userId !== null && (ws.deserializeAttachment() as SocketIdentity).userId === userId;
  return {
    own: signedInSessions(sockets.filter(ofUser), liveNow),
    others: signedInSessions(
      sockets.filter((ws) => !ofUser(ws)),
      liveNow,
    ),
  };
}

/** Closes (4001) the sockets of `checked` sessions that are not `live`; returns the revoked sessions' ids. */
export function closeRevoked(sockets: readonly WebSocket[], checked: readonly string[], live: ReadonlySet<string>): Set<string> {
  const revoked = new Set(checked.filter((id) => !live.has(id)));
  if (revoked.size === 0) return revoked;
  for (const ws of sockets) {
    const who = ws.deserializeAttachment() as SocketIdentity;
    if (who.authSessionId && revoked.has(who.authSessionId)) refuse(ws, 401);
  }
  return revoked;
}
