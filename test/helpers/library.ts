// Reads a user's Library Durable Object directly (its SQLite), for assertions
// about what is stored and searchable.
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { library } from "../../worker/library/stub";

export async function libraryRows<T>(userId: string, query: string, ...params: (string | number)[]): Promise<T[]> {
  return runInDurableObject(library(env, userId), (_object, state) => state.storage.sql.exec(query, ...params).toArray() as T[]);
}

/** Pages of the user's chunks whose text matches `term` in the full-text index, best first. */
export async function ftsPages(userId: string, term: string): Promise<number[]> {
  const rows = await libraryRows<{ page: number }>(
    userId,
    "SELECT c.page FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid WHERE chunks_fts MATCH ? ORDER BY bm25(chunks_fts)",
    term,
  );
  return rows.map((r) => r.page);
}

/** The Library's namespace, with `addPages` failing on the given call (a Library that goes away half-way). */
export function libraryFailingOnAddPages(failingCall: number): Pick<Env, "LIBRARY"> {
  let calls = 0;
  const namespace = {
    idFromName: (name: string) => env.LIBRARY.idFromName(name),
    get: (id: DurableObjectId) => {
      const stub = env.LIBRARY.get(id);
      return new Proxy(stub, {
        get(target, prop) {
          if (prop === "addPages")
            return async (...args: Parameters<typeof stub.addPages>) => {
              if (++calls === failingCall) throw new Error("Library went away");
              return target.addPages(...args);
            };
          return Reflect.get(target, prop);
        },
      });
    },
  };
  return { LIBRARY: namespace as unknown as Env["LIBRARY"] };
}
