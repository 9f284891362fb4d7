// The one way to reach a chat's Durable Object. Signed-in chats and anonymous
// ones live in separate name spaces, so an anonymous visitor can never reach a
// user's object, whatever session id they send.
import type { ChatSession } from "./ChatSession";

export interface ChatSessionBinding {
  CHAT_SESSION: DurableObjectNamespace<ChatSession>;
}

export function chatSession(env: ChatSessionBinding, sessionId: string, owner: "user" | "guest" = "user") {
  return env.CHAT_SESSION.get(env.CHAT_SESSION.idFromName(`${owner}:${sessionId}`));
}
