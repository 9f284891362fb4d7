// The bindings a turn profile's turn uses (bench/turn-profile.ts), over node:sqlite: the catalogue
// (D1 schema, every migration) behind a D1-shaped shim, the chat's own SQLite behind a
// SqlStorage-shaped shim, and the 1040 instructions (i1040gi.pdf) indexed in a Library.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { LibraryIndex, type SqlParam } from "../worker/library/library-index";
import { chunkPage } from "../worker/library/chunker";
import { QuestionLedger } from "../worker/library/question-ledger";
import { cachedPages, CORPUS } from "./ingest";

export const FILE = join(CORPUS, "irs/i1040gi.pdf");
export const USER = "user-1";
export const DOC = "doc-1";
export const R2_KEY = "uploads/user-1/i1040gi.pdf";
export const AUTH_SESSION = "auth-1";

// ---- shims: the bindings a turn uses, over node:sqlite ----

function run(db: DatabaseSync, query: string, params: unknown[], arrays: boolean) {
  const statement = db.prepare(query);
  if (arrays) statement.setReturnArrays(true);
  const values = params as SQLInputValue[];
  if (statement.columns().length) return { rows: statement.all(...values) as unknown[], changes: 0 };
  const result = statement.run(...values);
  return { rows: [], changes: Number(result.changes) };
}

/** Queries sent to the D1 shim (the whole-turn run counts them). */
export const d1Calls = { count: 0 };

/** The D1 API as drizzle's D1 driver calls it. */
export function d1(db: DatabaseSync): D1Database {
  const statement = (query: string, params: unknown[] = []): Record<string, unknown> => ({
    bind: (...p: unknown[]) => statement(query, p),
    all: async () => (d1Calls.count++, { results: run(db, query, params, false).rows, success: true, meta: {} }),
    raw: async () => (d1Calls.count++, run(db, query, params, true).rows),
    run: async () => {
      d1Calls.count++;
      const { changes, rows } = run(db, query, params, false);
      return { results: rows, success: true, meta: { changes } };
    },
    first: async () => (d1Calls.count++, run(db, query, params, false).rows[0] ?? null),
  });
  // a batch is one call: its statements run in order, as D1 runs them
  const batch = async (statements: { all: () => Promise<unknown> }[]) => {
    const results = [];
    for (const s of statements) results.push(await s.all());
    d1Calls.count -= statements.length - 1;
    return results;
  };
  return { prepare: (query: string) => statement(query), batch, exec: async () => ({}) } as unknown as D1Database;
}

/** A Durable Object's SqlStorage (exec -> cursor.toArray()). */
export function sqlStorage(db: DatabaseSync): SqlStorage {
  return {
    exec: (query: string, ...params: unknown[]) => {
      const { rows } = run(db, query, params, false);
      return { toArray: () => rows, one: () => rows[0] };
    },
  } as unknown as SqlStorage;
}

export function catalogue(): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  const dir = join(import.meta.dirname, "../migrations");
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort())
    db.exec(readFileSync(join(dir, file), "utf8"));
  const now = Date.now();
  const later = now + 24 * 3600 * 1000;
  db.prepare("INSERT INTO users (id, email, password_hash, referral_code) VALUES (?, ?, 'x', 'REF1')").run(USER, "a@example.com");
  db.prepare("INSERT INTO auth_sessions (id, user_id, expires_at) VALUES (?, ?, ?)").run(AUTH_SESSION, USER, later);
  db.prepare("INSERT INTO subscriptions (user_id, status, current_period_end) VALUES (?, 'active', ?)").run(USER, later);
  db.prepare(
    "INSERT INTO documents (id, user_id, file_name, r2_key, page_count, indexed_pages, status) VALUES (?, ?, 'i1040gi.pdf', ?, 100, 100, 'indexed')",
  ).run(DOC, USER, R2_KEY);
  return db;
}

export async function library(): Promise<{ index: LibraryIndex; ledger: QuestionLedger; db: DatabaseSync }> {
  const db = new DatabaseSync(":memory:");
  const sql = {
    rows: <T>(query: string, ...params: SqlParam[]) => run(db, query, params, false).rows as T[],
    transaction: (fn: () => void) => {
      db.exec("BEGIN");
      fn();
      db.exec("COMMIT");
    },
  };
  const index = new LibraryIndex(sql);
  const ledger = new QuestionLedger(sql);
  const pages = await cachedPages(FILE);
  index.enqueue(DOC, "i1040gi.pdf", R2_KEY);
  const started = index.begin(DOC)!;
  index.addChunks(
    pages.flatMap((text, i) => chunkPage(text).map((c) => ({ ...c, id: `${DOC}:${i + 1}:${c.ord}`, documentId: DOC, page: i + 1 }))),
  );
  index.finish(DOC, started.runId);
  return { index, ledger, db };
}
