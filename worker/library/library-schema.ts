// The schema of a user's Library (its own SQLite), versioned: each migration
// takes it from the version before to its own, inside one transaction, when a
// Library opens with an older version.

export type SqlParam = string | number | null;

/** A synchronous SQLite: one statement, its parameters, its rows. */
export interface SyncSql {
  rows<T>(query: string, ...params: SqlParam[]): T[];
  transaction(fn: () => void): void;
}

const SCHEMA_VERSION = 7;

/** The triggers that keep a full-text index over one of the chunks' columns (`content='chunks'`) in step with them. */
const keptInStep = (fts: string, column: string) => [
  `CREATE TRIGGER IF NOT EXISTS ${fts}_after_insert AFTER INSERT ON chunks BEGIN
    INSERT INTO ${fts}(rowid, ${column}) VALUES (new.rowid, new.${column});
  END`,
  `CREATE TRIGGER IF NOT EXISTS ${fts}_after_delete AFTER DELETE ON chunks BEGIN
    INSERT INTO ${fts}(${fts}, rowid, ${column}) VALUES ('delete', old.rowid, old.${column});
  END`,
  `CREATE TRIGGER IF NOT EXISTS ${fts}_after_update AFTER UPDATE ON chunks BEGIN
    INSERT INTO ${fts}(${fts}, rowid, ${column}) VALUES ('delete', old.rowid, old.${column});
    INSERT INTO ${fts}(rowid, ${column}) VALUES (new.rowid, new.${column});
  END`,
];

const CHUNKS_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS chunks (
    rowid INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    document_id TEXT NOT NULL,
    page INTEGER NOT NULL,
    ord INTEGER NOT NULL,
    text TEXT NOT NULL,
    char_start INTEGER NOT NULL,
    char_end INTEGER NOT NULL
  )`,
  "CREATE INDEX IF NOT EXISTS chunks_document_idx ON chunks (document_id)",
  `CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(text, content='chunks', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2')`,
  ...keptInStep("chunks_fts", "text"),
];

// 'removed' is a tombstone: an indexer still running for a deleted document finds it and stops.
const DOCUMENTS_V2 = `CREATE TABLE IF NOT EXISTS documents (
    id TEXT PRIMARY KEY,
    file_name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'processing', 'indexed', 'failed', 'removed')),
    pages_done INTEGER NOT NULL DEFAULT 0,
    pages_total INTEGER,
    error TEXT,
    updated_at INTEGER NOT NULL
  )`;

/** Each step takes the schema from the version before it to its own (exported for the upgrade test). */
export const MIGRATIONS: Record<number, string[]> = {
  1: [
    "CREATE TABLE IF NOT EXISTS documents (id TEXT PRIMARY KEY, file_name TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('processing', 'indexed')))",
    ...CHUNKS_SCHEMA,
  ],
  // v2: the lifecycle moves in (pending, failed, progress, the stale rule's clock, tombstones)
  2: [
    "ALTER TABLE documents RENAME TO documents_v1",
    DOCUMENTS_V2,
    "INSERT INTO documents (id, file_name, status, updated_at) SELECT id, file_name, status, 0 FROM documents_v1",
    "DROP TABLE documents_v1",
  ],
  // v3: leases. `run_id` names the indexer run that holds the document (a run whose
  // lease expired is fenced out); `attempts` counts recoveries after a lost run.
  3: ["ALTER TABLE documents ADD COLUMN run_id TEXT", "ALTER TABLE documents ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0"],
  // v4: scanned pages. `needs_ocr` documents list in `ocr_pages` (a JSON array of
  // 1-based pages) the pages that are pictures of text, waiting for recognition in
  // the owner's browser; chunks of recognised text are marked `recognised`.
  4: [
    "ALTER TABLE documents RENAME TO documents_v3",
    `CREATE TABLE documents (
      id TEXT PRIMARY KEY,
      file_name TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'processing', 'needs_ocr', 'indexed', 'failed', 'removed')),
      pages_done INTEGER NOT NULL DEFAULT 0,
      pages_total INTEGER,
      error TEXT,
      updated_at INTEGER NOT NULL,
      run_id TEXT,
      attempts INTEGER NOT NULL DEFAULT 0,
      ocr_pages TEXT NOT NULL DEFAULT '[]'
    )`,
    `INSERT INTO documents (id, file_name, status, pages_done, pages_total, error, updated_at, run_id, attempts)
     SELECT id, file_name, status, pages_done, pages_total, error, updated_at, run_id, attempts FROM documents_v3`,
    "DROP TABLE documents_v3",
    "ALTER TABLE chunks ADD COLUMN recognised INTEGER NOT NULL DEFAULT 0",
  ],
  // v5: what a question's admission needs, so it costs no D1 round trip: each
  // document's upload key (a question may name its file by it), the user's
  // messages per day (UTC), and the signed-in sessions signed out (kept until they
  // would have expired anyway).
  5: [
    "ALTER TABLE documents ADD COLUMN upload_key TEXT",
    "CREATE INDEX IF NOT EXISTS documents_upload_key_idx ON documents (upload_key)",
    "CREATE TABLE IF NOT EXISTS daily_messages (day TEXT PRIMARY KEY, messages INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS signed_out_sessions (id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)",
  ],
  // v6: the column heads a chunk inherits from the start of its table (chunker.ts): chunks indexed
  // before have none and read as before
  6: ["ALTER TABLE chunks ADD COLUMN column_heads TEXT"],
  // v7: the labels of a chunk's table rows, searched on their own (LibraryIndex.search): chunks
  // indexed before have none and are found by their text alone, as before
  7: [
    "ALTER TABLE chunks ADD COLUMN row_labels TEXT",
    `CREATE VIRTUAL TABLE IF NOT EXISTS row_labels_fts USING fts5(row_labels, content='chunks', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2')`,
    ...keptInStep("row_labels_fts", "row_labels"),
  ],
};

/** Brings the Library's schema up to SCHEMA_VERSION. */
export function migrate(sql: SyncSql): void {
  sql.rows("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
  const version = sql.rows<{ version: number }>("SELECT version FROM schema_version")[0]?.version ?? 0;
  if (version >= SCHEMA_VERSION) return;
  sql.transaction(() => {
    for (let step = version + 1; step <= SCHEMA_VERSION; step++) for (const statement of MIGRATIONS[step]!) sql.rows(statement);
    sql.rows("DELETE FROM schema_version");
    sql.rows("INSERT INTO schema_version (version) VALUES (?)", SCHEMA_VERSION);
  });
}
