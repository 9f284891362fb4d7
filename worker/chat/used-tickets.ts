// The socket tickets a chat's Durable Object has taken (lib/tickets.ts),
// in its own SQLite: a ticket opens one socket, once. A nonce is kept until its
// ticket expires; the check and the record are one synchronous step of the
// object, so two upgrades with one ticket cannot both pass.
export interface UsedTicket {
  nonce: string;
  expiresAt: number;
}

export class UsedTickets {
  constructor(private readonly sql: SqlStorage) {
    sql.exec("CREATE TABLE IF NOT EXISTS used_tickets (nonce TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)");
  }

  /** Takes the ticket: true the first time, false when it was used before (or has expired). */
  take({ nonce, expiresAt }: UsedTicket, now = Date.now()): boolean {
    this.sql.exec("DELETE FROM used_tickets WHERE expires_at <= ?", now);
    if (expiresAt <= now) return false;
    if (this.sql.exec("SELECT 1 FROM used_tickets WHERE nonce = ?", nonce).toArray().length > 0) return false;
    this.sql.exec("INSERT INTO used_tickets (nonce, expires_at) VALUES (?, ?)", nonce, expiresAt);
    return true;
  }

  /** The tickets taken that have not expired (kept across an erase of the chat). */
  unexpired(now = Date.now()): UsedTicket[] {
    return this.sql
      .exec<{ nonce: string; expires_at: number }>("SELECT nonce, expires_at FROM used_tickets WHERE expires_at > ?", now)
      .toArray()
      .map((r) => ({ nonce: r.nonce, expiresAt: r.expires_at }));
  }

  /** Records tickets taken before (an erased chat's). */
  restore(tickets: readonly UsedTicket[]): void {
    for (const t of tickets) this.sql.exec("INSERT OR IGNORE INTO used_tickets (nonce, expires_at) VALUES (?, ?)", t.nonce, t.expiresAt);
  }
}

/** The header the Worker hands a socket's ticket to the chat's object in (never taken from the client). */
export const TICKET_HEADER = "X-Chat-Ticket";
