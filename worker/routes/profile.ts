// The signed-in user's own profile, referral link and account deletion.
import { Hono } from "hono";
import { deleteAccountSchema, saveUserInfoSchema } from "../contract/validation";
import { MESSAGES } from "../contract/messages";
import type { AppEnv } from "../env";
import { requireUser } from "../middleware/auth";
import { valid } from "../middleware/validate";
import { choosePaymentProvider } from "../providers/payments";
import { deleteAccount } from "../services/account-deletion";
import { getUserInfo, referralLink, saveUserInfo } from "../services/accounts";
import { appOrigin } from "../lib/origin";
import type { ReferralLinkResponse, UserInfoResponse } from "../contract/validation";
import type { StatusMessage } from "../contract/messages";

// Mounted at /api root, so authentication is per route (not `.use`) to keep unknown paths a 404.
export const profileRoutes = new Hono<AppEnv>()
  .get("/getUserInfo", requireUser, async (c) => {
    const { email, name, phone } = await getUserInfo({ db: c.var.db }, { userId: c.var.user.id });
    return c.json({ data: { email, name, phone } } satisfies UserInfoResponse, 200);
  })
  .post("/saveUserInfo", requireUser, valid("json", saveUserInfoSchema), async (c) => {
    await saveUserInfo({ db: c.var.db }, { userId: c.var.user.id, ...c.req.valid("json") });
    return c.json({ status: "success" as const, message: MESSAGES.userInfoUpdated } satisfies StatusMessage, 200);
  })
  .get("/getReferralLink", requireUser, async (c) => {
    const referral: ReferralLinkResponse = {
      referral_link: await referralLink({ db: c.var.db }, { userId: c.var.user.id, appOrigin: appOrigin(c.env, c.req.url) }),
    };
    return c.json(referral, 200);
  })
  .delete("/account", requireUser, valid("json", deleteAccountSchema), async (c) => {
    await deleteAccount(
      {
        db: c.var.db,
        bucket: c.env.DOCUMENTS,
        LIBRARY: c.env.LIBRARY,
        CHAT_SESSION: c.env.CHAT_SESSION,
        AI: c.env.AI,
        VECTORIZE: c.env.VECTORIZE,
        payments: choosePaymentProvider(c.env, appOrigin(c.env, c.req.url)),
      },
      { userId: c.var.user.id, confirmEmail: c.req.valid("json").email },
    );
    return c.json({ status: "success" as const, message: MESSAGES.accountDeleted } satisfies StatusMessage, 200);
  });
