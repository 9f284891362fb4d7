// /api/chat: the chat list, the memo e-mail, the export, sharing, rename and delete, and the
// websocket's single-use tickets. Only the owner shares, renames or deletes; the
// owner or a member may have a memo sent or export the chat. Other callers get 404, as for a missing chat.
import { Hono } from "hono";
import { z } from "zod";
import { MEMO_MESSAGES, SHARE_MESSAGES } from "../contract/mail";
import { memoSchema, shareSchema, unshareSchema } from "../contract/mail-schemas";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { requireUser } from "../middleware/auth";
import { enforceRateLimit } from "../middleware/rate-limit";
import { valid } from "../middleware/validate";
import { listChats, renameChat } from "../services/chats";
import { CHAT_MESSAGES, type ChatSearchResponse, type TicketResponse } from "../contract/protocol";
import { chatSearchQuery, renameChatSchema } from "../contract/protocol-schemas";
import { searchChats } from "../services/chat-search";
import { sendChatMemo } from "../services/memo";
import { contentDisposition, exportChat } from "../services/chat-export";
import { EXPORT_FORMATS, EXPORT_MESSAGES } from "../contract/chat-export";
import { deleteChat, listMembers, revokeMember, shareChat } from "../services/sharing";
import { appOrigin } from "../lib/origin";
import { mintTicket } from "../lib/tickets";
import type { MemoResponse, ShareMembersResponse, ShareResponse } from "../contract/mail";
import type { StatusMessage } from "../contract/messages";

const sessionIdBody = z.object({
  session_id: z.string({ error: MEMO_MESSAGES.sessionMissing }).min(1, MEMO_MESSAGES.sessionMissing).max(400),
});

const exportQuery = z.object({ format: z.enum(EXPORT_FORMATS, { error: EXPORT_MESSAGES.badFormat }) });

export const chatRoutes = new Hono<AppEnv>()
  .use(requireUser)
  // the websocket URL carries this ticket, never the sign-in token; the upgrade checks the caller may open the chat
  .post("/ticket", valid("json", sessionIdBody), async (c) => {
    const { id: userId, sessionId: authSessionId } = c.var.user;
    const ticket = await mintTicket(c.env.JWT_SECRET, { userId, authSessionId, sessionId: c.req.valid("json").session_id });
    return c.json({ ticket } satisfies TicketResponse, 200);
  })
  .get("/list", async (c) => c.json({ chats: await listChats({ db: c.var.db }, { user: c.var.user }) }, 200))
  .get("/search", valid("query", chatSearchQuery), async (c) => {
    const chats = await searchChats({ db: c.var.db }, { userId: c.var.user.id, query: c.req.valid("query").q });
    return c.json({ chats } satisfies ChatSearchResponse, 200);
  })
  .post("/sendMemo", valid("json", memoSchema), async (c) => {
    const { session_id, email } = c.req.valid("json");
    const user = c.var.user;
    const memo = await sendChatMemo(
      { env: c.env, beforeSending: () => enforceRateLimit(c.env.MAIL_RATE_LIMITER, [`memo:${user.id}`], MEMO_MESSAGES.tooMany) },
      { caller: user, sessionId: session_id, to: email },
    );
    return c.json({ status: "success" as const, message: MEMO_MESSAGES.sent, memo } satisfies MemoResponse, 200);
  })
  .get("/:session_id/export", valid("query", exportQuery), async (c) => {
    const file = await exportChat(
      { env: c.env },
      { caller: c.var.user, sessionId: c.req.param("session_id"), format: c.req.valid("query").format },
    );
    return c.body(file.body, 200, {
      "Content-Type": file.contentType,
      "Content-Disposition": contentDisposition(file.fileName),
      "Cache-Control": "no-store",
    });
  })
  .post("/share", valid("json", shareSchema), async (c) => {
    const { session_id, emails } = c.req.valid("json");
    await enforceRateLimit(c.env.MAIL_RATE_LIMITER, [`share:${c.var.user.id}`], MEMO_MESSAGES.tooMany);
    const { shared, errors } = await shareChat(
      { env: c.env },
      { owner: c.var.user, sessionId: session_id, emails, origin: appOrigin(c.env, c.req.url) },
    );
    const status = errors.length === 0 ? "success" : shared.length === 0 ? "error" : "partial";
    const body: ShareResponse = {
      status,
      message: shared.length ? SHARE_MESSAGES.shared : (errors[0]?.error ?? SHARE_MESSAGES.selectAtLeastOne),
      shared,
      errors,
    };
    return c.json(body, 200);
  })
  .get(
    "/share",
    valid("query", z.object({ session_id: z.string({ error: MEMO_MESSAGES.sessionMissing }).min(1, MEMO_MESSAGES.sessionMissing) })),
    async (c) => {
      const members: ShareMembersResponse = {
        members: await listMembers({ env: c.env }, { ownerId: c.var.user.id, sessionId: c.req.valid("query").session_id }),
      };
      return c.json(members, 200);
    },
  )
  .patch("/:session_id", valid("json", renameChatSchema), async (c) => {
    const renamed = await renameChat(
      { db: c.var.db },
      { ownerId: c.var.user.id, sessionId: c.req.param("session_id"), title: c.req.valid("json").title },
    );
    if (!renamed) throw new ApiError(404, SHARE_MESSAGES.notFound);
    return c.json({ status: "success" as const, message: CHAT_MESSAGES.renamed } satisfies StatusMessage, 200);
  })
  .delete("/share", valid("json", unshareSchema), async (c) => {
    const { session_id, email } = c.req.valid("json");
    const removed = await revokeMember({ env: c.env }, { ownerId: c.var.user.id, sessionId: session_id, email });
    if (!removed) throw new ApiError(404, "This address is not a member of the chat.");
    return c.json({ status: "success" as const, message: SHARE_MESSAGES.revoked } satisfies StatusMessage, 200);
  })
  .delete("/:session_id", async (c) => {
    await deleteChat({ env: c.env }, { ownerId: c.var.user.id, sessionId: c.req.param("session_id") });
    return c.json({ status: "success" as const, message: CHAT_MESSAGES.deleted } satisfies StatusMessage, 200);
  });
