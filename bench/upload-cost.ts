// What one upload costs on the request path (POST /api/documents/index): the product's own
// service (services/uploads.ts startIndexing) over the catalogue of every migration in node:sqlite,
// with the R2 bucket, the user's Library and the Queue as counting stand-ins. The sign-in check
// before it (a JWT verify and one D1 read of the session) is counted apart, as the turn profile does.
import { getDb } from "../worker/db/client";
import type { IngestMessage } from "../worker/ingest/consumer";
import { startIndexing } from "../worker/services/uploads";
import { catalogue, d1, d1Calls, USER } from "./turn-bindings";

export interface UploadCost {
  status: string;
  d1Statements: number;
  r2: string[];
  libraryCalls: string[];
  queueMessages: number;
}

/** A key of the shape an upload link gives (users/<user>/<document>.pdf). */
const KEY = `users/${USER}/upload-1.pdf`;
/** Pub 17's size: the request path never reads the bytes, only their size. */
const SIZE = 3_795_437;

export async function benchUploadCost(): Promise<UploadCost> {
  const db = catalogue();
  // the row an upload link leaves for a file that has arrived in R2
  db.prepare("INSERT INTO documents (id, user_id, file_name, r2_key, status) VALUES ('upload-1', ?, 'p17.pdf', ?, 'uploading')").run(
    USER,
    KEY,
  );
  const r2: string[] = [];
  const bucket = {
    head: async () => (r2.push("head"), { size: SIZE }),
    get: async () => (r2.push("get"), null),
    delete: async () => void r2.push("delete"),
  } as unknown as R2Bucket;
  const libraryCalls: string[] = [];
  const stub = new Proxy({}, { get: (_, method) => (method === "then" ? undefined : async () => void libraryCalls.push(String(method))) });
  const LIBRARY = { idFromName: (name: string) => name, get: () => stub } as unknown as Env["LIBRARY"];
  let queueMessages = 0;
  const queue = { send: async () => void queueMessages++ } as unknown as Queue<IngestMessage>;
  d1Calls.count = 0;
  const answer = await startIndexing({ db: getDb({ DB: d1(db) }), bucket, queue, LIBRARY }, { userId: USER, r2Key: KEY });
  return { status: answer.status, d1Statements: d1Calls.count, r2, libraryCalls, queueMessages };
}

export function uploadCostSection(cost: UploadCost): string[] {
  return [
    "## One upload on the request path (`POST /api/documents/index`)",
    "",
    "bench/upload-cost.ts runs the index call's service (services/uploads.ts) over the D1 schema of every migration in",
    "node:sqlite, with R2, the user's Library and the Queue counted; the sign-in check before it (one D1 read) is apart.",
    "The Queue consumer reads and hashes the bytes (one R2 read, one D1 write of the hash) off the request path.",
    "",
    "| answer | D1 statements | R2 operations | Library calls | Queue messages |",
    "|---|---|---|---|---|",
    `| ${cost.status} | ${cost.d1Statements} | ${cost.r2.join(", ") || "none"} | ${cost.libraryCalls.join(", ") || "none"} | ${cost.queueMessages} |`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) console.table([await benchUploadCost()]);
