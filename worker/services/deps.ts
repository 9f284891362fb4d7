// What services take from outside, shared by the modules that need only this.
// Every service call is `(deps, input)`: deps is what the caller provides (the
// database, the Worker's env, providers), input one object of the caller's values.
import type { Db } from "../db/client";

/** A service that reads and writes D1 only. */
export interface DbDeps {
  db: Db;
}

/** A service that reaches D1, Durable Objects or the mailer through the Worker's env. */
export interface EnvDeps {
  env: Env;
}
