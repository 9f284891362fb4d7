import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

const build = (d1: D1Database) => drizzle(d1, { schema });
export type Db = ReturnType<typeof build>;

// drizzle works out the schema's relations each time it is built: one client per binding, not one per call
const clients = new WeakMap<D1Database, Db>();

export function getDb(env: { DB: D1Database }): Db {
  let db = clients.get(env.DB);
  if (!db) clients.set(env.DB, (db = build(env.DB)));
  return db;
}
