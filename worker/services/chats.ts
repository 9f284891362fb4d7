// The chats table: who owns a chat session, who may open it, its title and
// last activity (the sidebar history).
import { and, desc, eq, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { CHAT_MESSAGES, type ChatListItem } from "../contract/protocol";
import { chatShares, chats } from "../db/schema";
import { SEARCH_TEXT_MAX } from "./chat-search";
import type { DbDeps } from "./deps";

export type SessionAccess = "owner" | "member" | "denied";
type Caller = { id: string; email: string };

/** The chat row of a session (any owner), if the chat exists yet. */
export async function findChat({ db }: DbDeps, { sessionId }: { sessionId: string }) {
  return db.select().from(chats).where(eq(chats.sessionId, sessionId)).get();
}

/** A new chat's session is named after its owner's e-mail (spec: "email-uniqueid"). */
export const namedAfter = (sessionId: string, email: string) => sessionId.startsWith(`${email}-`);

/**
 * A signed-in caller may open a session they own, one shared with their e-mail,
 * or a new one named after their own e-mail (spec: "email-uniqueid").
 */
export async function sessionAccess({ db }: DbDeps, { sessionId, user }: { sessionId: string; user: Caller }): Promise<SessionAccess> {
  const chat = await findChat({ db }, { sessionId });
  if (chat) {
    if (chat.userId === user.id) return "owner";
    const share = await db
      .select({ email: chatShares.email })
      .from(chatShares)
      .where(and(eq(chatShares.sessionId, sessionId), eq(chatShares.email, user.email), isNull(chatShares.revokedAt)))
      .get();
    return share ? "member" : "denied";
  }
  return namedAfter(sessionId, user.email) ? "owner" : "denied";
}

/** Why a signed-in user may not open a chat: their access was removed, or it was never theirs. */
export async function noAccessReason({ db }: DbDeps, { sessionId, user }: { sessionId: string; user: { email: string } }): Promise<string> {
  const removed = await db
    .select({ email: chatShares.email })
    .from(chatShares)
    .where(and(eq(chatShares.sessionId, sessionId), eq(chatShares.email, user.email), isNotNull(chatShares.revokedAt)))
    .get();
  return removed ? CHAT_MESSAGES.accessRemoved : CHAT_MESSAGES.notYourSession;
}

type Turn = { sessionId: string; userId: string; title?: string; retitle?: boolean; text?: string };

/** The statement behind recordTurn, for a caller that sends it in one D1 batch with others. */
export function recordTurnQuery({ db }: DbDeps, turn: Turn) {
  const now = Date.now();
  const text = (turn.text ?? "").slice(0, SEARCH_TEXT_MAX);
  return db
    .insert(chats)
    .values({ sessionId: turn.sessionId, userId: turn.userId, summary: turn.title ?? "", searchText: text, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: chats.sessionId,
      set: {
        updatedAt: now,
        searchText: sql`substr(${chats.searchText} || excluded.search_text, 1, ${SEARCH_TEXT_MAX})`,
        summary: turn.retitle
          ? sql`excluded.summary`
          : sql`CASE WHEN ${chats.summary} = '' THEN excluded.summary ELSE ${chats.summary} END`,
      },
      // another user's session id never touches their chat
      setWhere: eq(chats.userId, turn.userId),
    });
}

/**
 * A chat's first question lists it in its owner's history (titled by the question)
 * unless it is listed already: one small insert, nothing read. The turn's end
 * (recordTurnQuery) then sets its updated_at, search text and a model's title.
 */
export function listChatQuery({ db }: DbDeps, { sessionId, userId, title }: { sessionId: string; userId: string; title: string }) {
  const now = Date.now();
  return db.insert(chats).values({ sessionId, userId, summary: title, createdAt: now, updatedAt: now }).onConflictDoNothing();
}

/**
 * Records a turn: creates the chat on its first question (with its title) and
 * bumps updated_at; `retitle` replaces the title (a model's better name);
 * `text` (the turn's question and answer) is added to the chat's searchable text.
 */
export async function recordTurn(deps: DbDeps, turn: Turn): Promise<void> {
  await recordTurnQuery(deps, turn).run();
}

/** Renames a chat of its owner; false when the caller does not own it (or it does not exist). */
export async function renameChat(
  { db }: DbDeps,
  { ownerId, sessionId, title }: { ownerId: string; sessionId: string; title: string },
): Promise<boolean> {
  const renamed = await db
    .update(chats)
    .set({ summary: title })
    .where(and(eq(chats.sessionId, sessionId), eq(chats.userId, ownerId)))
    .run();
  return renamed.meta.changes > 0;
}

/** The caller's chats (owned and shared with them), most recently active first. */
export async function listChats(deps: DbDeps, request: { user: Caller; limit?: number }): Promise<ChatListItem[]> {
  return listChatsQuery(deps, request).all();
}

/** The statement behind listChats, for a caller that sends it in one D1 batch with others. */
export function listChatsQuery({ db }: DbDeps, { user, limit = 50 }: { user: Caller; limit?: number }) {
  const sharedWithMe = db
    .select({ sessionId: chatShares.sessionId })
    .from(chatShares)
    .where(and(eq(chatShares.email, user.email), isNull(chatShares.revokedAt)));
  return db
    .select({ session_id: chats.sessionId, updated_at: chats.updatedAt, summary: chats.summary })
    .from(chats)
    .where(or(eq(chats.userId, user.id), inArray(chats.sessionId, sharedWithMe)))
    .orderBy(desc(chats.updatedAt))
    .limit(limit);
}
