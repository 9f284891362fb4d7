// Counts the D1 statements the Worker prepares, by the module that asked: one D1
// binding serves every object of the test run, so each statement is told apart
// by its call stack (e.g. "/worker/chat/" for a chat's Durable Object).
import { env } from "cloudflare:workers";

export interface D1Calls {
  /** the statements prepared since counting started whose stack names `path`, with the frame that did */
  from(path: string): string[];
  /** stops counting */
  stop(): void;
}

/** Starts counting every statement prepared on env.DB (prepare, and exec's SQL). */
export function countD1Calls(): D1Calls {
  const db = env.DB as unknown as { prepare: D1Database["prepare"]; exec: D1Database["exec"] };
  const { prepare, exec } = db;
  const stacks: { sql: string; stack: string }[] = [];
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  const record = (sql: string) => stacks.push({ sql, stack: new Error().stack ?? "" });
  db.prepare = (sql: string) => {
    record(sql);
    return prepare.call(env.DB, sql);
  };
  db.exec = (sql: string) => {
    record(sql);
    return exec.call(env.DB, sql);
  };
  return {
    from: (path) => stacks.filter((s) => s.stack.includes(path)).map((s) => `${s.sql.slice(0, 80)} <- ${frameOf(s.stack, path)}`),
    stop: () => {
      db.prepare = prepare;
      db.exec = exec;
      Error.stackTraceLimit = limit;
    },
  };
}

const frameOf = (stack: string, path: string) =>
  stack
    .split("\n")
    .find((line) => line.includes(path))
    ?.trim() ?? "";
