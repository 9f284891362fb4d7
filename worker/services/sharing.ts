// Sharing a chat: the owner invites e-mail addresses; each invitee gets an
// e-mail with a link and may open the chat read-only after signing in with that
// address; removing a member cuts their access at once.
import { chatSession } from "../chat/stub";
import { SHARE_MESSAGES } from "../contract/mail";
import { ApiError } from "../errors";
import { emailHtml, escapeHtml, sendMail } from "./mail";

/** The chat row when the caller owns it; any other caller gets the same 404 as a missing chat. */
export async function ownedChat(env: Env, sessionId: string, userId: string) {
  const chat = await env.DB.prepare("SELECT session_id, summary FROM chats WHERE session_id = ? AND user_id = ?")
    .bind(sessionId, userId)
    .first<{ session_id: string; summary: string }>();
  if (!chat) throw new ApiError(404, SHARE_MESSAGES.notFound);
  return chat;
}

export function chatLink(origin: string, sessionId: string): string {
  const url = new URL("/app/chat", origin);
  url.searchParams.set("session", sessionId);
  return url.toString();
}

export async function shareChat(env: Env, owner: { id: string; email: string }, sessionId: string, emails: string[], origin: string) {
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
    await env.DB.prepare(
      `INSERT INTO chat_shares (session_id, email, invited_by, created_at) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT(session_id, email) DO UPDATE SET revoked_at = NULL, invited_by = ?3`,
    )
      .bind(sessionId, email, owner.id, Date.now())
      .run();
    const sent = await sendMail(env, {
      kind: "share",
      to: email,
      subject: `${owner.email} shared a chat with you: ${title}`,
      text: `${owner.email} shared the chat "${title}" with you on DocChat.\n\nOpen it here (sign in with ${email}): ${link}\n\nYou can read the chat; only its owner can ask new questions in it.`,
      html: emailHtml(
        "A chat was shared with you",
        `<p>${escapeHtml(owner.email)} shared the chat <strong>${escapeHtml(title)}</strong> with you.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#4f46e5;color:#fff;padding:10px 16px;border-radius:8px;text-decoration:none">Open the chat</a></p>
<p style="color:#6b7280">Sign in with ${escapeHtml(email)} to open it. You can read the chat; only its owner can ask new questions in it.</p>`,
      ),
    });
    shared.push(email);
    if (!sent.ok) errors.push({ email, error: "Access was granted, but the invitation e-mail could not be sent." });
  }
  return { shared, errors };
}

export async function listMembers(env: Env, ownerId: string, sessionId: string) {
  await ownedChat(env, sessionId, ownerId);
  const { results } = await env.DB.prepare(
    "SELECT email, created_at FROM chat_shares WHERE session_id = ? AND revoked_at IS NULL ORDER BY created_at",
  )
    .bind(sessionId)
    .all<{ email: string; created_at: number }>();
  return results;
}

export async function revokeMember(env: Env, ownerId: string, sessionId: string, email: string): Promise<boolean> {
  await ownedChat(env, sessionId, ownerId);
  const result = await env.DB.prepare("UPDATE chat_shares SET revoked_at = ? WHERE session_id = ? AND email = ? AND revoked_at IS NULL")
    .bind(Date.now(), sessionId, email)
    .run();
  // open sockets of that member are closed now, not at their next message
  await chatSession(env, sessionId).dropMember(email);
  return result.meta.changes > 0;
}
