// One Durable Object per chat session: it will hold that chat's websockets
// (Hibernation API) and messages. The chat issue fills in the protocol; until
// then the class exists so the binding and its SQLite migration are in place.
import { DurableObject } from "cloudflare:workers";

export class ChatSession extends DurableObject<Env> {
  override async fetch(): Promise<Response> {
    return Response.json({ status: "error", message: "Chat is not available yet." }, { status: 503 });
  }
}
