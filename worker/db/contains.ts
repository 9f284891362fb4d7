// "Contains these characters" for search boxes: a LIKE pattern in which the
// user's own `%` and `_` are letters, not wildcards. SQLite's LIKE ignores ASCII case.
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

export function contains(column: SQLiteColumn, text: string): SQL {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`${column} LIKE ${pattern} ESCAPE '\\'`;
}
