// A signed-in chat socket's ticket: asked with the sign-in token before each
// connect and reconnect (POST /api/chat/ticket), single use, and carried in the
// socket address's `token` parameter in the sign-in token's place.
import { SOCKET_TICKET_PATH, type TicketResponse } from "../../worker/contract/protocol";

/** The socket's address: the spec's `token` query parameter carries a socket ticket (anonymous: none). */
export function socketUrl(sessionId: string, ticket: string | null): string {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const auth = ticket ? `&token=${encodeURIComponent(ticket)}` : "";
  return `${scheme}://${location.host}/ws?session_id=${encodeURIComponent(sessionId)}${auth}`;
}

/** Why no ticket came: the sign-in was refused (401: log out), or anything else (try again later). */
export class TicketRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A single-use ticket for one socket of this session (60 s), asked with the sign-in token. */
export async function socketTicket(sessionId: string, token: string): Promise<string> {
  const response = await fetch(SOCKET_TICKET_PATH, {
    method: "POST",
    headers: { Accept: "application/json", "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ session_id: sessionId }),
  });
  const data = (await response.json().catch(() => null)) as (Partial<TicketResponse> & { message?: string }) | null;
  if (!response.ok || !data?.ticket) throw new TicketRefused(response.status, data?.message ?? `Request failed (${response.status})`);
  return data.ticket;
}
