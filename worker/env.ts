import type { Db } from "./db/client";

/** The signed-in caller, set by the auth middleware. */
export interface CurrentUser {
  id: string;
  email: string;
  /** The auth session (JWT jti) this request came with. */
  sessionId: string;
  /** when that session expires (ms) */
  expiresAt: number;
}

export type AppEnv = {
  Bindings: Env;
  Variables: { db: Db; user: CurrentUser };
};
