// The chat's open websockets, which the runtime keeps while the object
// hibernates (tagged with their user's id, their identity attached): frames to
// all of them, and the closing of those whose signed-in session ended. A sign-out
// (or password change, or deleted account) reaches them as it happens: each
// signed-in socket is registered with its user's Library, which tells this chat
// (`revoke`); a session that runs out of time is seen from the socket's own
// attachment while frames flow. Neither reads D1.
import { CLOSE_NO_ACCESS, type ServerMessage } from "../contract/protocol";
import { REMEMBER_ME_TTL_MS } from "../lib/tokens";
import { library } from "../library/stub";
import type { SocketIdentity } from "./identity";
import { chatSessions, closeRevoked, send } from "./socket-access";

/** While frames flow, how often the sockets' sessions are checked for having run out of time (no read: the attachment says). */
const EXPIRY_CHECK_MS = 1000;

export class ChatSockets {
  /** the session this object serves (known from its sockets) */
  private servedSession = "";
  /** when the sockets' sessions were last checked for having run out of time */
  private expiryCheckedAt = 0;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
  ) {}

  /** The session this object serves: set by each socket's message, else read from a socket (after a wake by RPC). */
  get sessionId(): string {
    if (!this.servedSession) {
      const first = this.ctx.getWebSockets()[0];
      this.servedSession = first ? (first.deserializeAttachment() as SocketIdentity).sessionId : "";
    }
    return this.servedSession;
  }

  set sessionId(sessionId: string) {
    this.servedSession = sessionId;
  }

  /**
   * Takes a new socket in, its identity attached so it survives hibernation; a
   * signed-in socket is registered with its user's Library (see hold).
   */
  accept(server: WebSocket, identity: SocketIdentity): void {
    this.sessionId = identity.sessionId;
    this.ctx.acceptWebSocket(server, [identity.userId ?? "anonymous"]);
    server.serializeAttachment(identity);
    if (identity.userId && identity.authSessionId) this.ctx.waitUntil(this.hold(server, identity));
  }

  /** Whether anyone is connected (watching the chat). */
  watched(): boolean {
    return this.ctx.getWebSockets().length > 0;
  }

  /** The open sockets of one user. */
  ofUser(userId: string): WebSocket[] {
    return this.ctx.getWebSockets(userId);
  }

  /** The open sockets and their signed-in sessions, for a question's admission to check in its own read. */
  forAdmission(userId: string | null, liveNow?: string) {
    const sockets = this.ctx.getWebSockets();
    return { sockets, sessions: chatSessions(sockets, userId, liveNow) };
  }

  /** Sends to every socket of this session (or only to one user's sockets). */
  broadcast(message: ServerMessage, onlyUserId?: string): void {
    if (Date.now() - this.expiryCheckedAt > EXPIRY_CHECK_MS) this.closeExpired();
    const json = JSON.stringify(message);
    for (const ws of onlyUserId ? this.ctx.getWebSockets(onlyUserId) : this.ctx.getWebSockets()) {
      try {
        ws.send(json);
      } catch {
        // a socket closing right now; it will get full_chat when it comes back
      }
    }
  }

  /** Tells the sockets (all, or those `only` picks) why they lose the chat, and closes them. */
  shut(error: { code: number; message: string }, reason: string, only?: (who: SocketIdentity) => boolean): void {
    for (const ws of this.ctx.getWebSockets()) {
      if (only && !only(ws.deserializeAttachment() as SocketIdentity)) continue;
      send(ws, { type: "error", ...error });
      ws.close(CLOSE_NO_ACCESS, reason);
    }
  }

  /** These signed-in sessions were signed out: their sockets are told (401) and closed (4001). */
  revoke(sessionIds: readonly string[]): void {
    closeRevoked(this.ctx.getWebSockets(), sessionIds, new Set());
  }

  /**
   * Tells the socket's user's Library that this chat holds a socket of that
   * session, so a sign-out reaches it; a session signed out meanwhile closes it now.
   */
  private async hold(ws: WebSocket, who: SocketIdentity): Promise<void> {
    const session = { id: who.authSessionId!, expiresAt: who.sessionExpiresAt ?? Date.now() + REMEMBER_ME_TTL_MS };
    try {
      if (!(await library(this.env, who.userId!).holdSession(who.sessionId, session))) this.revoke([session.id]);
    } catch (err) {
      // the next question's admission still checks the session
      console.warn("could not register a chat socket with its Library", err);
    }
  }

  /** A deleted account's sockets: told (401) and closed (4001), as if each of its sessions were signed out. */
  revokeUser(userId: string): void {
    this.revoke(this.ctx.getWebSockets(userId).flatMap((ws) => (ws.deserializeAttachment() as SocketIdentity).authSessionId ?? []));
  }

  /** Closes (4001) the sockets whose signed-in session ran out of time. */
  private closeExpired(): void {
    this.expiryCheckedAt = Date.now();
    const sockets = this.ctx.getWebSockets();
    const expired = sockets.flatMap((ws) => {
      const who = ws.deserializeAttachment() as SocketIdentity;
      return who.authSessionId && who.sessionExpiresAt && who.sessionExpiresAt <= this.expiryCheckedAt ? [who.authSessionId] : [];
    });
    if (expired.length) closeRevoked(sockets, expired, new Set());
  }
}
