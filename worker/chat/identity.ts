// Who a chat socket belongs to: set by the Worker after it checked the token,
// handed to the chat's Durable Object in a header, kept across hibernation.
export interface SocketIdentity {
  sessionId: string;
  access: "owner" | "member" | "anonymous";
  userId: string | null;
  email: string | null;
  /** the signed-in session (the token's jti): when it is revoked, the socket is closed */
  authSessionId: string | null;
  /** when that session expires (the socket is closed then); absent on sockets opened before it was kept */
  sessionExpiresAt?: number | null;
  /** the socket is told of its user's documents' indexing (My Files is open: `watch_files`) */
  watchesFiles?: boolean;
  ip: string;
}

export const IDENTITY_HEADER = "X-Chat-Identity";
