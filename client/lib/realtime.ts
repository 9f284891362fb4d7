// The chat websocket (spec sections 4, 7, 8 and 9): one connection per chat
// session. Messages sent while the socket is connecting wait in a queue and go
// out on open; sending on a closed socket only logs. While open, PING goes out
// every 120000 ms. An unclean close reconnects after 3000 ms; close codes 1008
// and 4001, and an `error` frame with code 401, force a logout instead; close
// code 4403 (a chat this user may not open) only ends this connection.
// A signed-in connection asks for a single-use ticket before each connect and
// reconnect (POST /api/chat/ticket): the URL's `token` parameter carries that
// ticket, never the sign-in token, which goes only in the frames.
import {
  CLOSE_NO_ACCESS,
  CLOSE_POLICY,
  CLOSE_UNAUTHORIZED,
  PING,
  type ClientMessage,
  type ServerMessage,
} from "../../worker/contract/protocol";
import { forceLogout, getToken } from "./api";
import { socketTicket, socketUrl, TicketRefused } from "./socketTicket";

export const PING_INTERVAL_MS = 120_000;
export const RECONNECT_DELAY_MS = 3_000;

/** A client message without its token: the connection adds the token itself. */
export type OutgoingMessage = ClientMessage extends infer M ? (M extends unknown ? Omit<M, "token"> : never) : never;

export type ConnectionState = "idle" | "connecting" | "open" | "reconnecting" | "closed";

// WebSocket.readyState values (kept local so a stubbed WebSocket needs no statics).
const CONNECTING = 0;
const OPEN = 1;

export interface RealtimeOptions {
  /** Called on close 1008/4001 or an `error` frame with code 401 (default: forceLogout, which also tells the user why). */
  onUnauthorized?: (reason?: string) => void;
  /** Called on close 4403 with the server's reason: this chat may not be opened; the user stays signed in. */
  onNoAccess?: (reason?: string) => void;
  /** Called when the connection is lost (true: reconnecting) and when it is back or closed (false). */
  onLost?: (lost: boolean) => void;
}

export class RealtimeConnection {
  private socket: WebSocket | null = null;
  private sessionId: string | null = null;
  private queue: string[] = [];
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly messageListeners = new Set<(message: ServerMessage) => void>();
  private readonly openListeners = new Set<() => void>();
  private readonly onUnauthorized: (reason?: string) => void;
  private readonly onNoAccess: (reason?: string) => void;
  /** counts the opens: a ticket that arrives after a newer open (or a close) is dropped */
  private opening = 0;
  /** the last error frame, the reason shown when the server then closes the socket */
  private lastError: string | undefined;
  /** the sign-in token this connection was opened with */
  private openedWith: string | null = null;
  state: ConnectionState = "idle";
  private readonly onLost: (lost: boolean) => void;
  /** from an unclean close until a socket opens again, or the connection is closed */
  private lost = false;

  constructor(options: RealtimeOptions = {}) {
    this.onUnauthorized = options.onUnauthorized ?? forceLogout;
    this.onNoAccess = options.onNoAccess ?? (() => {});
    this.onLost = options.onLost ?? (() => {});
  }

  private setLost(lost: boolean): void {
    if (lost === this.lost) return;
    this.lost = lost;
    this.onLost(lost);
  }

  /**
   * The server refused this connection's sign-in. When the session it was opened with has already
   * ended here (the user signed out: the server closes that session's sockets as it signs it out),
   * there is nothing to force and nothing to explain.
   */
  private unauthorized(reason?: string): void {
    if (this.openedWith && getToken() !== this.openedWith) return;
    this.onUnauthorized(reason);
  }

  /** Opens a socket for this session (closing any previous one first). */
  connect(sessionId: string): void {
    this.teardown();
    this.sessionId = sessionId;
    this.open();
  }

  /** JSON with the token added when signed in. Returns false when it could not be sent or queued. */
  send(message: OutgoingMessage): boolean {
    const token = getToken();
    return this.sendRaw(JSON.stringify(token ? { ...message, token } : message));
  }

  onMessage(listener: (message: ServerMessage) => void): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  /** Runs on every open, reconnects included. */
  onOpen(listener: () => void): () => void {
    this.openListeners.add(listener);
    return () => this.openListeners.delete(listener);
  }

  /** A deliberate close: no reconnect, queued messages dropped, listeners kept. */
  close(): void {
    this.teardown();
    this.sessionId = null;
    this.state = "closed";
    this.setLost(false);
  }

  private sendRaw(frame: string): boolean {
    const socket = this.socket;
    if (socket && socket.readyState === OPEN) {
      try {
        socket.send(frame);
        return true;
      } catch (err) {
        console.error("Sending on the chat connection failed", err);
        return false;
      }
    }
    // connecting: the socket is opening, or its ticket is on its way
    if ((socket && socket.readyState === CONNECTING) || (!socket && this.state === "connecting")) {
      this.queue.push(frame);
      return true;
    }
    console.error("The chat connection is not open; the message was not sent.");
    return false;
  }

  /** Opens the socket: at once for an anonymous visitor, after its ticket for a signed-in user. */
  private open(): void {
    const sessionId = this.sessionId;
    if (!sessionId) return;
    const token = getToken();
    this.openedWith = token;
    const attempt = ++this.opening;
    this.state = "connecting";
    if (!token) return this.openSocket(sessionId, null);
    socketTicket(sessionId, token).then(
      (ticket) => {
        if (attempt === this.opening) this.openSocket(sessionId, ticket);
      },
      (err: unknown) => {
        if (attempt !== this.opening) return;
        if (err instanceof TicketRefused && err.status === 401) {
          // the sign-in token was refused: as a socket closed with 4001
          this.close();
          this.unauthorized(err.message);
          return;
        }
        console.error("Getting a ticket for the chat connection failed", err);
        this.scheduleReconnect();
      },
    );
  }

  private openSocket(sessionId: string, ticket: string | null): void {
    let socket: WebSocket;
    try {
      socket = new WebSocket(socketUrl(sessionId, ticket));
    } catch (err) {
      console.error("Opening the chat connection failed", err);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.state = "connecting";

    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.state = "open";
      this.setLost(false);
      const queued = this.queue.splice(0);
      for (const listener of [...this.openListeners]) listener();
      for (const frame of queued) this.sendRaw(frame);
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => {
        if (this.socket === socket && socket.readyState === OPEN) socket.send(PING);
      }, PING_INTERVAL_MS);
    };

    socket.onmessage = (event: MessageEvent) => {
      if (this.socket !== socket) return;
      let message: ServerMessage;
      try {
        message = JSON.parse(String(event.data)) as ServerMessage;
      } catch (err) {
        console.error("Could not parse a chat message", err);
        return;
      }
      if (!message || typeof message !== "object" || typeof message.type !== "string") return;
      if (message.type === "error") {
        console.error(`Chat error ${message.code}: ${message.message}`);
        this.lastError = message.message;
        if (message.code === 401) {
          this.close();
          this.unauthorized(message.message);
          return;
        }
      }
      for (const listener of [...this.messageListeners]) {
        try {
          listener(message);
        } catch (err) {
          console.error("A chat message handler failed", err);
        }
      }
    };

    socket.onerror = (event) => {
      if (this.socket === socket) console.error("Chat connection error", event);
    };

    socket.onclose = (event: CloseEvent) => {
      if (this.socket !== socket) return;
      this.detach(socket);
      this.socket = null;
      clearInterval(this.pingTimer);
      if (event.code === CLOSE_POLICY || event.code === CLOSE_UNAUTHORIZED) {
        this.close();
        this.unauthorized(this.lastError ?? event.reason);
        return;
      }
      if (event.code === CLOSE_NO_ACCESS) {
        this.close();
        this.onNoAccess(this.lastError ?? event.reason);
        return;
      }
      if (!event.wasClean || event.code !== 1000) this.scheduleReconnect();
      else this.state = "closed";
    };
  }

  private scheduleReconnect(): void {
    this.state = "reconnecting";
    this.setLost(true);
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.open(), RECONNECT_DELAY_MS);
  }

  private detach(socket: WebSocket): void {
    socket.onopen = null;
    socket.onmessage = null;
    socket.onerror = null;
    socket.onclose = null;
  }

  private teardown(): void {
    this.opening++; // a ticket still on its way opens nothing
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pingTimer);
    this.queue = [];
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      this.detach(socket);
      if (socket.readyState === CONNECTING || socket.readyState === OPEN) {
        try {
          socket.close(1000);
        } catch {
          // already closing
        }
      }
    }
  }
}
