// A WebSocket stand-in for client tests: records what the app sends and lets a
// test open the socket, push server frames and close it from the server side.
import { act } from "@testing-library/react";
import { PING, type ServerMessage } from "../../worker/contract/protocol";

export class FakeWebSocket {
  static instances: FakeWebSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  closedWith: number | undefined;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number; wasClean: boolean; reason: string }) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  constructor(readonly url: string) {
    FakeWebSocket.instances.push(this);
  }
  send(data: string) {
    if (this.readyState !== 1) throw new Error("InvalidStateError: not open");
    this.sent.push(data);
  }
  close(code?: number) {
    this.closedWith = code ?? 1005;
    this.readyState = 3;
  }
  // --- test controls
  // valtio notifies React after a microtask: let act flush it.
  async open() {
    await act(async () => {
      this.readyState = 1;
      this.onopen?.(new Event("open"));
    });
  }
  async emit(message: ServerMessage) {
    await act(async () => this.onmessage?.({ data: JSON.stringify(message) }));
  }
  async serverClose(code: number, wasClean = true) {
    await act(async () => {
      this.readyState = 3;
      this.onclose?.({ code, wasClean, reason: "" });
    });
  }
  /** The JSON frames sent so far, pings left out. */
  frames(): Record<string, unknown>[] {
    return this.sent.filter((s) => s !== PING).map((s) => JSON.parse(s) as Record<string, unknown>);
  }
}

/** Where a signed-in connection asks for its socket ticket, and what a stubbed server answers there. */
export const TICKET_PATH = "/api/chat/ticket";
let ticketsMinted = 0;
export const ticketReply = () => ({ status: 200, body: { ticket: `ticket-${++ticketsMinted}` } });

/**
 * The newest socket not closed, once it exists: a signed-in connection opens it
 * only after its ticket arrives (a fetch), an anonymous one at once.
 */
export async function latestSocket(): Promise<FakeWebSocket> {
  for (let turn = 0; turn < 50; turn++) {
    const last = FakeWebSocket.instances.filter((s) => s.closedWith === undefined).at(-1);
    if (last) return last;
    await act(async () => {
      await Promise.resolve();
    });
  }
  throw new Error("no open socket");
}
