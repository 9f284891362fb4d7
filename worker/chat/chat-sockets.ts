// The chat's open websockets, which the runtime keeps while the object
// hibernates (tagged with their user's id, their identity attached): frames to
// all of them, and, while frames flow, the closing of those whose signed-in
// session was revoked since they connected.
import { CLOSE_NO_ACCESS, type ServerMessage } from "../contract/protocol";
import type { SocketIdentity } from "./identity";
import { chatSessions, closeRevokedSockets, send } from "./socket-access";

/** While frames flow, how often the sockets' signed-in sessions are checked (sign-out, password change). */
const REVOCATION_CHECK_MS = 1000;

export class ChatSockets {
  /** the session this object serves (known from its first socket) */
  sessionId = "";
  /** when the sockets' signed-in sessions were last checked */
  private revocationCheckedAt = 0;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
  ) {}

  /** Takes a new socket in, its identity attached so it survives hibernation. */
  accept(server: WebSocket, identity: SocketIdentity): void {
    this.sessionId = identity.sessionId;
    this.ctx.acceptWebSocket(server, [identity.userId ?? "anonymous"]);
    server.serializeAttachment(identity);
  }

  /** Whether anyone is connected (watching the chat). */
  watched(): boolean {
    return this.ctx.getWebSockets().length > 0;
  }

  /**
   * The open sockets and their signed-in sessions, for a question's admission to
   * check in its own read (so the sockets count as checked now).
   */
  forAdmission(userId: string | null, liveNow?: string) {
    const sockets = this.ctx.getWebSockets();
    const sessions = chatSessions(sockets, userId, liveNow);
    this.revocationCheckedAt = Date.now();
    return { sockets, sessions };
  }

  /** Sends to every socket of this session (or only to one user's sockets). */
  broadcast(message: ServerMessage, onlyUserId?: string): void {
    if (Date.now() - this.revocationCheckedAt > REVOCATION_CHECK_MS) {
      this.ctx.waitUntil(this.closeRevokedSockets().catch((err) => console.warn("revocation check failed", err)));
    }
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

  /** Closes (4001) the sockets whose signed-in session was revoked since they connected. */
  private closeRevokedSockets(): Promise<Set<string>> {
    this.revocationCheckedAt = Date.now();
    return closeRevokedSockets(this.env, this.ctx.getWebSockets());
  }
}
