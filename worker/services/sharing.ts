// Sharing a chat: the owner invites e-mail addresses; each invitee gets an
// e-mail with a link and may open the chat read-only after signing in with that
// address; removing a member cuts their access at once.
import { and, asc, eq, isNotNull, isNull } from "drizzle-orm";
import { chatSession } from "../chat/stub";
import { MEMO_MESSAGES, SHARE_MESSAGES, recipientCapMessage } from "../contract/mail";
import { getDb } from "../db/client";
import { chatShares, chats } from "../db/schema";
import { ApiError } from "../errors";
import type { EnvDeps } from "./deps";
import { deliverMail, dropQueuedMail, emailHtml, escapeHtml, queueMail, type MailRequest } from "./mail";

/** The chat row when the caller owns it; any other caller gets the same 404 as a missing chat. */
async function ownedChat(env: Env, sessionId: string, userId: string) {
  const chat = await getDb(env)
    .select({ sessionId: chats.sessionId, summary: chats.summary })
    .from(chats)
    .where(and(eq(chats.sessionId, sessionId), eq(chats.userId, userId)))
    .get();
  if (!chat) throw new ApiError(404, SHARE_MESSAGES.notFound);
  return chat;
}

/**
 * Deletes a chat of its owner: its Durable Object is emptied (open sockets are
 * told and closed), then the chats row, whose shares go with it.
 */
export async function deleteChat({ env }: EnvDeps, { ownerId, sessionId }: { ownerId: string; sessionId: string }): Promise<void> {
  await ownedChat(env, sessionId, ownerId);
  await chatSession(env, sessionId).erase();
  await getDb(env)
    .delete(chats)
    .where(and(eq(chats.sessionId, sessionId), eq(chats.userId, ownerId)));
}

export function chatLink(origin: string, sessionId: string): string {
  const url = new URL("/app/chat", origin);
  url.searchParams.set("session", sessionId);
  return url.toString();
}

export async function shareChat(
  { env }: EnvDeps,
  { owner, sessionId, emails, origin }: { owner: { id: string; email: string }; sessionId: string; emails: string[]; origin: string },
) {
  const chat = await ownedChat(env, sessionId, owner.id);
  const shared: string[] = [];
  const errors: { email: string; error: string }[] = [];
  const title = chat.summary || "Untitled Chat";
  const link = chatLink(origin, sessionId);
  for (const email of new Set(emails)) {
    if (email === owner.email) {
      errors.push({ email, error: SHARE_MESSAGES.cannotShareWithSelf });
      continue;
    }
    // a member already has the chat and its invitation: sharing again sends nothing
    if (await isMember(env, sessionId, email)) {
      shared.push(email);
      continue;
    }
    // the invitation is an e-mail of the owner's words: it is queued under the daily caps before access is granted
    const invitation = invitationMail(owner, email, title, link);
    const queued = await queueMail({ env }, invitation);
    if ("capReached" in queued) {
      errors.push({ email, error: queued.capReached === "sender" ? MEMO_MESSAGES.dailySenderCap : recipientCapMessage(email) });
      continue;
    }
    // a new share, or a revoked one restored; 0 changes when a share running at
    // the same time granted it first, and that one sends the invitation
    const granted = await getDb(env)
      .insert(chatShares)
      .values({ sessionId, email, invitedBy: owner.id, createdAt: Date.now() })
      .onConflictDoUpdate({
        target: [chatShares.sessionId, chatShares.email],
        set: { revokedAt: null, invitedBy: owner.id },
        setWhere: isNotNull(chatShares.revokedAt),
      })
      .run();
    shared.push(email);
    if (granted.meta.changes === 0) {
      await dropQueuedMail({ env }, queued.outboxId);
      continue;
    }
    const sent = await deliverMail({ env }, queued.outboxId, invitation);
    if (!sent.ok) errors.push({ email, error: "Access was granted, but the invitation e-mail could not be sent." });
  }
  return { shared, errors };
}

function invitationMail(owner: { id: string; email: string }, email: string, title: string, link: string): MailRequest {
  return {
    kind: "share",
    to: email,
    senderId: owner.id,
    subject: `${owner.email} shared a chat with you: ${title}`,
    text: `${owner.email} shared the chat "${title}" with you on DocChat.\n\nOpen it here (sign in with ${email}): ${link}\n\nYou can read the chat; only its owner can ask new questions in it.`,
    html: emailHtml(
      "A chat was shared with you",
      `<p>${escapeHtml(owner.email)} shared the chat <strong>${escapeHtml(title)}</strong> with you.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#4f46e5;color:#fff;padding:10px 16px;border-radius:8px;text-decoration:none">Open the chat</a></p>
<p style="color:#6b7280">Sign in with ${escapeHtml(email)} to open it. You can read the chat; only its owner can ask new questions in it.</p>`,
    ),
  };
}

async function isMember(env: Env, sessionId: string, email: string): Promise<boolean> {
  const row = await getDb(env)
    .select({ email: chatShares.email })
    .from(chatShares)
    .where(and(eq(chatShares.sessionId, sessionId), eq(chatShares.email, email), isNull(chatShares.revokedAt)))
    .get();
  return row !== undefined;
}

export async function listMembers({ env }: EnvDeps, { ownerId, sessionId }: { ownerId: string; sessionId: string }) {
  await ownedChat(env, sessionId, ownerId);
  return getDb(env)
    .select({ email: chatShares.email, created_at: chatShares.createdAt })
    .from(chatShares)
    .where(and(eq(chatShares.sessionId, sessionId), isNull(chatShares.revokedAt)))
    .orderBy(asc(chatShares.createdAt))
    .all();
}

export async function revokeMember(
  { env }: EnvDeps,
  { ownerId, sessionId, email }: { ownerId: string; sessionId: string; email: string },
): Promise<boolean> {
  await ownedChat(env, sessionId, ownerId);
  const result = await getDb(env)
    .update(chatShares)
    .set({ revokedAt: Date.now() })
    .where(and(eq(chatShares.sessionId, sessionId), eq(chatShares.email, email), isNull(chatShares.revokedAt)))
    .run();
  // open sockets of that member are closed now, not at their next message
  await chatSession(env, sessionId).dropMember(email);
  return result.meta.changes > 0;
}
