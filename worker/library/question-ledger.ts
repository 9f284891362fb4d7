// What a user's Library keeps for admitting their questions without a D1 round
// trip: the messages they sent each day (UTC; the daily quota counts them) and
// their signed-in sessions that were signed out (sign-out and password change
// tell the Library before they tell D1, so a socket of such a session asks
// nothing more). Runs on the Library's SQLite (schema in ./library-schema.ts).
import type { LibraryIndex } from "./library-index";
import type { SyncSql } from "./library-schema";
import type { AdmissionFacts, AdmissionRequest } from "./types";

const isComplete = (file: { status: string }) => file.status === "indexed" || file.status === "needs_ocr";

/**
 * A question's admission facts in one call (chat/admission.ts decides): counts the
 * message unless the asker was signed out, says which sessions were, reads the
 * documents the question names and, when they are complete, searches them.
 */
export function admissionFacts(
  index: LibraryIndex,
  ledger: QuestionLedger,
  { day, askerSessionId, sessionIds, files, search }: AdmissionRequest,
): AdmissionFacts {
  const signedOut = ledger.signedOut(askerSessionId ? [...sessionIds, askerSessionId] : sessionIds);
  const askerSignedOut = askerSessionId !== null && signedOut.includes(askerSessionId);
  const named = index.namedFiles(files.ids, files.uploadKey);
  const searchNow = search && named?.every(isComplete) && !askerSignedOut;
  return {
    messages: askerSignedOut ? 0 : ledger.countMessage(day),
    signedOut,
    files: named,
    hits: searchNow ? index.search(search.question, named!.map((f) => f.fileId), search.limit) : null,
    indexing: files.ids.length === 0 && !files.uploadKey ? index.indexingFiles() : [],
  };
}

export class QuestionLedger {
  constructor(
    private readonly sql: SyncSql,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one message on `day`; returns the day's count with it. A day's first message drops the days before. */
  countMessage(day: string): number {
    const { messages } = this.sql.rows<{ messages: number }>(
      `INSERT INTO daily_messages (day, messages) VALUES (?, 1)
       ON CONFLICT(day) DO UPDATE SET messages = messages + 1 RETURNING messages`,
      day,
    )[0]!;
    if (messages === 1) this.sql.rows("DELETE FROM daily_messages WHERE day < ?", day);
    return messages;
  }

  /** Takes back a message counted on `day` that was then refused for another reason. */
  uncountMessage(day: string): void {
    this.sql.rows("UPDATE daily_messages SET messages = max(messages - 1, 0) WHERE day = ?", day);
  }

  /** These sessions are signed out (each kept until it would have expired). */
  signOut(sessions: readonly { id: string; expiresAt: number }[]): void {
    this.sql.transaction(() => {
      for (const { id, expiresAt } of sessions)
        this.sql.rows(
          "INSERT INTO signed_out_sessions (id, expires_at) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET expires_at = excluded.expires_at",
          id,
          expiresAt,
        );
      this.sql.rows("DELETE FROM signed_out_sessions WHERE expires_at < ?", this.now());
    });
  }

  /** Which of these sessions were signed out. */
  signedOut(ids: readonly string[]): string[] {
    if (ids.length === 0) return [];
    return this.sql
      .rows<{ id: string }>(`SELECT id FROM signed_out_sessions WHERE id IN (${ids.map(() => "?").join(", ")})`, ...ids)
      .map((r) => r.id);
  }
}
