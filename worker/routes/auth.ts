// /api/auth: sign-up, sign-in, sign-out, password change.
import { Hono } from "hono";
import { changePasswordSchema, signinSchema, signupSchema } from "../contract/validation";
import { MESSAGES } from "../contract/messages";
import type { AppEnv } from "../env";
import { requireUser } from "../middleware/auth";
import { clientIp, enforceRateLimit } from "../middleware/rate-limit";
import { valid } from "../middleware/validate";
import { changePassword, signIn, signOut, signUp } from "../services/accounts";
import type { AuthResponse } from "../contract/validation";
import type { StatusMessage } from "../contract/messages";

export const authRoutes = new Hono<AppEnv>()
  .post("/signup", valid("json", signupSchema), async (c) => {
    const input = c.req.valid("json");
    await enforceRateLimit(c.env.AUTH_RATE_LIMITER, [`signup:ip:${clientIp(c.req.raw)}`, `signup:email:${input.email}`]);
    const { user, token } = await signUp({ db: c.var.db, jwtSecret: c.env.JWT_SECRET }, input);
    return c.json({ status: "success" as const, user, token } satisfies AuthResponse, 201);
  })
  .post("/signin", valid("json", signinSchema), async (c) => {
    const input = c.req.valid("json");
    await enforceRateLimit(c.env.AUTH_RATE_LIMITER, [`signin:ip:${clientIp(c.req.raw)}`, `signin:email:${input.email}`]);
    const { user, token } = await signIn({ db: c.var.db, jwtSecret: c.env.JWT_SECRET }, input);
    return c.json({ status: "success" as const, user, token } satisfies AuthResponse, 200);
  })
  .post("/signout", requireUser, async (c) => {
    const { id: userId, sessionId, expiresAt } = c.var.user;
    await signOut({ db: c.var.db, LIBRARY: c.env.LIBRARY }, { userId, sessionId, expiresAt });
    return c.json({ status: "success" as const, message: "Signed out." } satisfies StatusMessage, 200);
  })
  .post("/password", requireUser, valid("json", changePasswordSchema), async (c) => {
    await changePassword({ db: c.var.db, LIBRARY: c.env.LIBRARY }, { userId: c.var.user.id, sessionId: c.var.user.sessionId, ...c.req.valid("json") });
    return c.json({ status: "success" as const, message: MESSAGES.passwordChanged } satisfies StatusMessage, 200);
  });
