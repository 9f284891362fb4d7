// The chats table: who owns a chat session, who may open it, its title and
// last activity (the sidebar history).
import type { ChatListItem } from "../contract/protocol";

export type SessionAccess = "owner" | "member" | "denied";

/**
 * A signed-in caller may open a session they own, one shared with their e-mail,
 * or a new one named after their own e-mail (spec: "email-uniqueid").
 */
export async function sessionAccess(db: D1Database, sessionId: string, user: { id: string; email: string }): Promise<SessionAccess> {
  const chat = await db.prepare("SELECT user_id FROM chats WHERE session_id = ?").bind(sessionId).first<{ user_id: string }>();
  if (chat) {
    if (chat.user_id === user.id) return "owner";
    const share = await db
      .prepare("SELECT 1 AS ok FROM chat_shares WHERE session_id = ? AND email = ? AND revoked_at IS NULL")
      .bind(sessionId, user.email)
      .first();
    return share ? "member" : "denied";
  }
  return sessionId.startsWith(`${user.email}-`) ? "owner" : "denied";
}

/** Records a finished turn: creates the chat on its first turn (with its title) and bumps updated_at. */
export async function recordTurn(db: D1Database, turn: { sessionId: string; userId: string; title?: string }): Promise<void> {
  const now = Date.now();
  await db
    .prepare(
      `INSERT INTO chats (session_id, user_id, summary, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)
       ON CONFLICT(session_id) DO UPDATE SET updated_at = ?4,
         summary = CASE WHEN chats.summary = '' THEN excluded.summary ELSE chats.summary END
       WHERE chats.user_id = ?2`,
    )
    .bind(turn.sessionId, turn.userId, turn.title ?? "", now)
    .run();
}

/** The caller's chats (owned and shared with them), most recently active first. */
export async function listChats(db: D1Database, user: { id: string; email: string }, limit = 50): Promise<ChatListItem[]> {
  const { results } = await db
    .prepare(
      `SELECT session_id, updated_at, summary FROM chats
       WHERE user_id = ?1
          OR session_id IN (SELECT session_id FROM chat_shares WHERE email = ?2 AND revoked_at IS NULL)
       ORDER BY updated_at DESC LIMIT ?3`,
    )
    .bind(user.id, user.email, limit)
    .all<ChatListItem>();
  return results;
}
