// Opens chat websockets through the real Worker entry point (a signed-in one with
// a ticket minted for it, as the client does) and collects what the server sends,
// with helpers to wait for a given frame or the close.
import { exports } from "cloudflare:workers";
import { vi } from "vitest";
import type { ServerMessage } from "../../worker/contract/protocol";
import { call } from "./api";

export interface TestSocket {
  ws: WebSocket;
  received: ServerMessage[];
  closed: Promise<{ code: number; reason: string }>;
  send(message: object | string): void;
  next<T extends ServerMessage["type"]>(type: T, after?: number): Promise<Extract<ServerMessage, { type: T }>>;
  all<T extends ServerMessage["type"]>(type: T): Extract<ServerMessage, { type: T }>[];
}

/**
 * The ticket a signed-in socket's URL carries (POST /api/chat/ticket with the token),
 * as the client gets one before each connect; when the token is refused (bad,
 * signed out) the URL carries what was given, which the upgrade refuses the same way.
 */
export async function socketTicket(sessionId: string, token: string): Promise<string> {
  const minted = await call("POST", "/api/chat/ticket", { token, body: { session_id: sessionId } });
  return minted.status === 200 ? (minted.json.ticket as string) : token;
}

/** Opens a chat socket: anonymous without a token, else with a ticket minted for it (the token never goes in the URL). */
export async function openSocket(sessionId: string, token?: string): Promise<TestSocket> {
  return openSocketWith(sessionId, token ? await socketTicket(sessionId, token) : undefined);
}

/** Opens a chat socket whose URL carries `ticket` as it is (a used, expired or forged one included). */
export async function openSocketWith(sessionId: string, ticket?: string): Promise<TestSocket> {
  const query = new URLSearchParams({ session_id: sessionId, ...(ticket ? { token: ticket } : {}) });
  const res = await exports.default.fetch(`http://localhost/ws?${query}`, { headers: { Upgrade: "websocket" } });
  const ws = res.webSocket;
  if (!ws) throw new Error(`no websocket: ${res.status}`);
  const received: ServerMessage[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.addEventListener("close", (e) => resolve({ code: e.code, reason: e.reason })),
  );
  ws.addEventListener("message", (e) => {
    received.push(JSON.parse(e.data as string));
  });
  ws.accept();
  const all = <T extends ServerMessage["type"]>(type: T) =>
    received.filter((m): m is Extract<ServerMessage, { type: T }> => m.type === type);
  return {
    ws,
    received,
    closed,
    send: (message) => ws.send(typeof message === "string" ? message : JSON.stringify(message)),
    all,
    next: (type, after = 0) =>
      vi.waitFor(
        () => {
          const found = all(type)[after];
          if (!found) throw new Error(`no ${type} yet`);
          return found;
        },
        { timeout: 15_000, interval: 10 },
      ),
  };
}
