// Whom a user's Library tells, and when (push, not poll), kept in the Library's SQLite:
// - document watchers: a chat showing some of the user's documents (its chips,
//   watched by id) or all of them (My Files open on one of the user's sockets, a
//   question over all files waiting for one still being indexed), each until a
//   time. A change of a watched document is pushed to the chat (ChatSession.
//   documentProgress) at most once per PUSH_INTERVAL_MS, a final status at once,
//   one push after another per chat, each reading the documents as they are then.
//   A watch by id lasts while the chat is open (a tab showing its chips) or a turn
//   waits on it, indexed documents included: a document removed (deleted from My
//   Files in another tab, or dropped as a duplicate) is told at once, with the
//   document that replaces it, which the chat then watches in its place.
// - held sessions: the chats holding a socket of one of the user's signed-in
//   sessions, told when that session is signed out or the account deleted.
// These tables are the object's working state, not its index: created here, not versioned.
import { indexingFiles, watchedFiles } from "./document-rows";
import type { SyncSql } from "./library-schema";
import type { DocumentProgress, KeepWatching, WatchRequest } from "./types";

/** At most one push per chat this often (a final status goes at once). */
export const PUSH_INTERVAL_MS = 500;
/** A watch neither renewed (by a push the chat kept, or asked again) nor ended lasts this long. */
export const WATCH_MS = 15 * 60 * 1000;
const ALL = "*";

/** A chat's pushes: the documents changed since the last one, its timer, and the pushes in flight (in order). */
interface Outbox {
  /** whose documents (the chat watches one user's Library per push) */
  userId: string;
  changed: Set<string>;
  /** documents removed since the last push, each with the one that replaces it (null: none) */
  replaced: Map<string, string | null>;
  timer: ReturnType<typeof setTimeout> | null;
  sentAt: number;
  queue: Promise<void>;
}

export class Watchers {
  private readonly outboxes = new Map<string, Outbox>();

  constructor(
    private readonly sql: SyncSql,
    /** tells a chat (ChatSession.documentProgress); answers what it still watches */
    private readonly tell: (chatId: string, progress: DocumentProgress) => Promise<KeepWatching>,
    private readonly now: () => number = Date.now,
  ) {
    // user_id: whose documents (the Library's own user, as the chat named it)
    sql.rows(`CREATE TABLE IF NOT EXISTS document_watchers (
      chat_id TEXT NOT NULL, document_id TEXT NOT NULL, user_id TEXT NOT NULL, expires_at INTEGER NOT NULL,
      PRIMARY KEY (chat_id, document_id))`);
    sql.rows("CREATE INDEX IF NOT EXISTS document_watchers_document_idx ON document_watchers (document_id)");
    sql.rows(`CREATE TABLE IF NOT EXISTS held_sessions (
      session_id TEXT NOT NULL, chat_id TEXT NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (session_id, chat_id))`);
  }

  /**
   * A chat watches these documents (in place of those it watched by id) or all of
   * them; answers them as they are now. A watch lasts while the chat keeps it (its
   * answer to each push), indexed documents too: one may still be deleted.
   */
  watch(chatId: string, userId: string, request: WatchRequest): DocumentProgress {
    const now = this.now();
    const until = now + WATCH_MS;
    this.sql.transaction(() => {
      this.sql.rows("DELETE FROM document_watchers WHERE expires_at <= ?", now);
      if ("all" in request) {
        this.sql.rows(
          "INSERT OR REPLACE INTO document_watchers (chat_id, document_id, user_id, expires_at) VALUES (?, ?, ?, ?)",
          chatId,
          ALL,
          userId,
          until,
        );
        return;
      }
      this.sql.rows("DELETE FROM document_watchers WHERE chat_id = ? AND document_id != ?", chatId, ALL);
      for (const id of new Set(request.documentIds))
        this.sql.rows(
          "INSERT INTO document_watchers (chat_id, document_id, user_id, expires_at) VALUES (?, ?, ?, ?)",
          chatId,
          id,
          userId,
          until,
        );
    });
    if ("all" in request) return { userId, files: watchedFiles(this.sql, request.current ?? []), indexing: indexingFiles(this.sql) };
    return { userId, files: watchedFiles(this.sql, request.documentIds) };
  }

  /** A document's status or progress changed: each chat watching it is told (`final`: at once). */
  changed(documentId: string, final: boolean): void {
    const now = this.now();
    const chats = this.sql.rows<{ chat_id: string; user_id: string }>(
      "SELECT DISTINCT chat_id, user_id FROM document_watchers WHERE document_id IN (?, ?) AND expires_at > ?",
      documentId,
      ALL,
      now,
    );
    for (const { chat_id: chatId, user_id: userId } of chats) {
      const box = this.outbox(chatId, userId);
      box.changed.add(documentId);
      const wait = box.sentAt + PUSH_INTERVAL_MS - now;
      if (final || wait <= 0) this.flush(chatId, box);
      else box.timer ??= setTimeout(() => this.flush(chatId, box), wait);
    }
  }

  /**
   * A document was removed (deleted, or dropped as a duplicate of `replacedBy`): the
   * chats watching it by id watch its replacement instead and are told at once, as
   * are those watching all documents (it is no longer being indexed).
   */
  removed(documentId: string, replacedBy: string | null): void {
    const chats = this.sql.rows<{ chat_id: string; user_id: string; expires_at: number }>(
      "SELECT chat_id, user_id, expires_at FROM document_watchers WHERE document_id = ?",
      documentId,
    );
    this.sql.transaction(() => {
      for (const row of chats)
        if (replacedBy)
          this.sql.rows(
            "INSERT OR IGNORE INTO document_watchers (chat_id, document_id, user_id, expires_at) VALUES (?, ?, ?, ?)",
            row.chat_id,
            replacedBy,
            row.user_id,
            row.expires_at,
          );
      this.sql.rows("DELETE FROM document_watchers WHERE document_id = ?", documentId);
    });
    for (const row of chats) this.outbox(row.chat_id, row.user_id).replaced.set(documentId, replacedBy);
    for (const row of chats) this.flush(row.chat_id, this.outbox(row.chat_id, row.user_id));
    this.changed(documentId, true); // those watching all of them
  }

  /** A chat holds a socket of this signed-in session (until it expires). */
  hold(chatId: string, session: { id: string; expiresAt: number }): void {
    this.sql.rows("DELETE FROM held_sessions WHERE expires_at <= ?", this.now());
    this.sql.rows(
      "INSERT OR IGNORE INTO held_sessions (session_id, chat_id, expires_at) VALUES (?, ?, ?)",
      session.id,
      chatId,
      session.expiresAt,
    );
  }

  /** Forgets the chats holding sockets of these sessions (of any, with null); returns each with the sessions it holds. */
  release(sessionIds: readonly string[] | null): Map<string, string[]> {
    const where = sessionIds ? `WHERE session_id IN (${sessionIds.map(() => "?").join(", ")})` : "";
    const params = sessionIds ?? [];
    if (sessionIds?.length === 0) return new Map();
    const held = new Map<string, string[]>();
    for (const row of this.sql.rows<{ session_id: string; chat_id: string }>(
      `SELECT session_id, chat_id FROM held_sessions ${where}`,
      ...params,
    ))
      held.set(row.chat_id, [...(held.get(row.chat_id) ?? []), row.session_id]);
    this.sql.rows(`DELETE FROM held_sessions ${where}`, ...params);
    return held;
  }

  private outbox(chatId: string, userId: string): Outbox {
    let box = this.outboxes.get(chatId);
    if (!box)
      this.outboxes.set(
        chatId,
        (box = { userId, changed: new Set(), replaced: new Map(), timer: null, sentAt: 0, queue: Promise.resolve() }),
      );
    return box;
  }

  private flush(chatId: string, box: Outbox): void {
    if (box.timer) clearTimeout(box.timer);
    box.timer = null;
    box.sentAt = this.now();
    box.queue = box.queue.then(() => this.push(chatId, box)).catch((err: unknown) => console.warn("document progress push failed", err));
  }

  /** One push: the chat's watched documents as they are now (a push queued behind another may find nothing new). */
  private async push(chatId: string, box: Outbox): Promise<void> {
    const changed = [...box.changed];
    const replaced = new Map(box.replaced);
    box.changed.clear();
    box.replaced.clear();
    const watched = this.sql
      .rows<{ document_id: string }>("SELECT document_id FROM document_watchers WHERE chat_id = ? AND expires_at > ?", chatId, this.now())
      .map((r) => r.document_id);
    const all = watched.includes(ALL);
    const ids = watched.filter((id) => id !== ALL);
    if (replaced.size === 0 && !(all && changed.length) && !ids.some((id) => changed.includes(id))) {
      if (watched.length === 0 && !box.timer && box.changed.size === 0) this.outboxes.delete(chatId);
      return;
    }
    const files = watchedFiles(this.sql, all ? [...ids, ...changed] : ids);
    const keep = await this.tell(chatId, {
      userId: box.userId,
      files,
      ...(replaced.size ? { replaced: Object.fromEntries(replaced) } : {}),
      ...(all ? { indexing: indexingFiles(this.sql) } : {}),
    });
    this.kept(chatId, keep);
  }

  /** After a push: the watches the chat keeps last longer; the others end. */
  private kept(chatId: string, keep: KeepWatching): void {
    const until = this.now() + WATCH_MS;
    if (!keep.ids) this.endWatchById(chatId);
    else this.sql.rows("UPDATE document_watchers SET expires_at = ? WHERE chat_id = ? AND document_id != ?", until, chatId, ALL);
    if (!keep.all) this.sql.rows("DELETE FROM document_watchers WHERE chat_id = ? AND document_id = ?", chatId, ALL);
    else this.sql.rows("UPDATE document_watchers SET expires_at = ? WHERE chat_id = ? AND document_id = ?", until, chatId, ALL);
    const box = this.outboxes.get(chatId);
    const watching = this.sql.rows("SELECT 1 FROM document_watchers WHERE chat_id = ? LIMIT 1", chatId).length > 0;
    if (!watching && box && box.changed.size === 0 && !box.timer) this.outboxes.delete(chatId);
  }

  private endWatchById(chatId: string): void {
    this.sql.rows("DELETE FROM document_watchers WHERE chat_id = ? AND document_id != ?", chatId, ALL);
  }
}
