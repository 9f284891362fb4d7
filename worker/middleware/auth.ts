// Bearer authentication: every protected route gets `c.var.user` or a 401 JSON.
import { createMiddleware } from "hono/factory";
import { authenticate } from "../services/accounts";
import { unauthorized } from "../errors";
import type { AppEnv } from "../env";

export function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match ? match[1]! : null;
}

export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c.req.header("Authorization"));
  if (!token) throw unauthorized();
  const user = await authenticate({ db: c.var.db, jwtSecret: c.env.JWT_SECRET }, { token });
  if (!user) throw unauthorized();
  c.set("user", user);
  await next();
});
