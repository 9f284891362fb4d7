// /api/chat: the memo e-mail and sharing. Only the owner shares; the owner or a
// member may have a memo sent. Other callers get 404, as for a missing chat.
import { Hono } from "hono";
import { z } from "zod";
import { MEMO_MESSAGES, SHARE_MESSAGES, memoSchema, shareSchema, unshareSchema } from "../contract/mail";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { requireUser } from "../middleware/auth";
import { enforceRateLimit } from "../middleware/rate-limit";
import { valid } from "../middleware/validate";
import { chooseChatProvider } from "../providers/llm";
import { listChats, sessionAccess } from "../services/chats";
import { sendMail } from "../services/mail";
import { memoHtml, writeMemo } from "../services/memo";
import { listMembers, revokeMember, shareChat } from "../services/sharing";
import { chatSession } from "../chat/stub";

const origin = (c: { env: Env; req: { url: string } }) => c.env.APP_URL || new URL(c.req.url).origin;

export const chatRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/list", async (c) => c.json({ chats: await listChats(c.env.DB, c.var.user) }, 200))
  .post("/sendMemo", valid("json", memoSchema), async (c) => {
    const { session_id, email } = c.req.valid("json");
    const user = c.var.user;
    const chat = await c.env.DB.prepare("SELECT summary FROM chats WHERE session_id = ?").bind(session_id).first<{ summary: string }>();
    const access = chat ? await sessionAccess(c.env.DB, session_id, user) : "denied";
    if (access === "denied") throw new ApiError(404, SHARE_MESSAGES.notFound);
    await enforceRateLimit(c.env.MAIL_RATE_LIMITER, [`memo:${user.id}`], MEMO_MESSAGES.tooMany);

    const title = chat!.summary || "Untitled Chat";
    let memo: string;
    try {
      const session = chatSession(c.env, session_id);
      const [transcript, files] = await Promise.all([session.transcript(), session.documents()]);
      memo = await writeMemo(chooseChatProvider(c.env), title, transcript, files);
    } catch (err) {
      console.error("memo generation failed", err);
      throw new ApiError(500, MEMO_MESSAGES.generationFailed);
    }
    if (!memo) throw new ApiError(422, MEMO_MESSAGES.empty);

    const to = email || user.email;
    const sent = await sendMail(c.env, { kind: "memo", to, subject: `Chat memo: ${title}`, text: memo, html: memoHtml(title, memo) });
    if (!sent.ok) throw new ApiError(502, MEMO_MESSAGES.sendFailed);
    return c.json({ status: "success" as const, message: MEMO_MESSAGES.sent, memo }, 200);
  })
  .post("/share", valid("json", shareSchema), async (c) => {
    const { session_id, emails } = c.req.valid("json");
    await enforceRateLimit(c.env.MAIL_RATE_LIMITER, [`share:${c.var.user.id}`], MEMO_MESSAGES.tooMany);
    const { shared, errors } = await shareChat(c.env, c.var.user, session_id, emails, origin(c));
    const status = errors.length === 0 ? "success" : shared.length === 0 ? "error" : "partial";
    return c.json(
      { status, message: shared.length ? SHARE_MESSAGES.shared : (errors[0]?.error ?? SHARE_MESSAGES.selectAtLeastOne), shared, errors },
      200,
    );
  })
  .get(
    "/share",
    valid("query", z.object({ session_id: z.string({ error: MEMO_MESSAGES.sessionMissing }).min(1, MEMO_MESSAGES.sessionMissing) })),
    async (c) => {
      return c.json({ members: await listMembers(c.env, c.var.user.id, c.req.valid("query").session_id) }, 200);
    },
  )
  .delete("/share", valid("json", unshareSchema), async (c) => {
    const { session_id, email } = c.req.valid("json");
    const removed = await revokeMember(c.env, c.var.user.id, session_id, email);
    if (!removed) throw new ApiError(404, "This address is not a member of the chat.");
    return c.json({ status: "success" as const, message: SHARE_MESSAGES.revoked }, 200);
  });
