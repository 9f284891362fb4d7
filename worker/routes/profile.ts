// The signed-in user's own profile and referral link.
import { Hono } from "hono";
import { saveUserInfoSchema } from "../contract/validation";
import { MESSAGES } from "../contract/messages";
import type { AppEnv } from "../env";
import { requireUser } from "../middleware/auth";
import { valid } from "../middleware/validate";
import { getUserInfo, referralLink, saveUserInfo } from "../services/accounts";

// Mounted at /api root, so authentication is per route (not `.use`) to keep unknown paths a 404.
export const profileRoutes = new Hono<AppEnv>()
  .get("/getUserInfo", requireUser, async (c) => {
    const { email, name, phone } = await getUserInfo(c.var.db, c.var.user.id);
    return c.json({ data: { email, name, phone } }, 200);
  })
  .post("/saveUserInfo", requireUser, valid("json", saveUserInfoSchema), async (c) => {
    await saveUserInfo(c.var.db, c.var.user.id, c.req.valid("json"));
    return c.json({ status: "success" as const, message: MESSAGES.userInfoUpdated }, 200);
  })
  .get("/getReferralLink", requireUser, async (c) => {
    const origin = c.env.APP_URL || new URL(c.req.url).origin;
    return c.json({ referral_link: await referralLink(c.var.db, c.var.user.id, origin) }, 200);
  });
