// Where one chat turn's time goes, measured by running the product's own modules
// in Node over realistic data: the 1040 instructions (i1040gi.pdf) indexed in a
// Library over node:sqlite, the catalogue (D1 schema, every migration) over
// node:sqlite behind a D1-shaped shim, the chat's own SQLite behind a
// SqlStorage-shaped shim. Each step is the code a turn runs, in the order it
// runs; a step's figure is its mean CPU time over many repetitions.
//
// Locally one workerd thread runs every Durable Object (and D1), so this CPU is
// what 50 sessions asking at once queue behind. What Node cannot show: the
// cost of crossing to the D1 and Library objects (serialising the call and its
// rows), listed apart as "calls per turn".
//
// `npm run bench:profile` prints the table; `benchTurnProfile()` returns it for bench/run.ts.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import type { ChatFile, ServerMessage } from "../worker/contract/protocol";
import { clientMessageSchema } from "../worker/contract/protocol-schemas";
import { getDb } from "../worker/db/client";
import type { SocketIdentity } from "../worker/chat/identity";
import { MessageStore } from "../worker/chat/message-store";
import { ChatDocuments } from "../worker/chat/chat-documents";
import { citeAnswer } from "../worker/answer/citations";
import { headingSuggestions } from "../worker/answer/suggestions";
import { admitQuestion } from "../worker/chat/admission";
import { runTurn, type ChatRoom } from "../worker/chat/turn";
import { chatSessions, tokenMatches } from "../worker/chat/socket-access";
import { LibraryIndex, type SqlParam } from "../worker/library/library-index";
import { chunkPage } from "../worker/library/chunker";
import { admissionFacts, QuestionLedger } from "../worker/library/question-ledger";
import type { AdmissionRequest } from "../worker/library/types";
import { localAnswer } from "../worker/answer/writer/local-writer";
import { turnSearchText } from "../worker/services/chat-search";
import { authenticate } from "../worker/services/accounts";
import { resolveChatFiles } from "../worker/services/chat-files";
import { listChats, recordTurn } from "../worker/services/chats";
import { bySentence, onePerPage, RETRIEVAL_TUNING, toPassage } from "../worker/answer/ranking/retrieval";
import { signToken } from "../worker/lib/tokens";
import { cachedPages, CORPUS } from "./ingest";

const FILE = join(CORPUS, "irs/i1040gi.pdf");
const QUESTION = "When is my tax return due?";
const SECRET = "turn-profile-secret-turn-profile-secret";
const USER = "user-1";
const DOC = "doc-1";
const R2_KEY = "uploads/user-1/i1040gi.pdf";
const AUTH_SESSION = "auth-1";

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
const d1Calls = { count: 0 };

/** The D1 API as drizzle's D1 driver calls it. */
function d1(db: DatabaseSync): D1Database {
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
function sqlStorage(db: DatabaseSync): SqlStorage {
  return {
    exec: (query: string, ...params: unknown[]) => {
      const { rows } = run(db, query, params, false);
      return { toArray: () => rows, one: () => rows[0] };
    },
  } as unknown as SqlStorage;
}

function catalogue(): DatabaseSync {
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

async function library(): Promise<{ index: LibraryIndex; ledger: QuestionLedger; db: DatabaseSync }> {
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

// ---- timing ----

/** Mean ms per call of `fn` over `reps` calls (after a warm-up), awaiting each. */
async function mean(reps: number, fn: () => unknown): Promise<number> {
  for (let i = 0; i < Math.min(20, reps); i++) await fn();
  const start = performance.now();
  for (let i = 0; i < reps; i++) await fn();
  return (performance.now() - start) / reps;
}

export interface ProfileRow {
  step: string;
  /** before the first `stream` frame (true) or after it */
  beforeFirstChunk: boolean;
  ms: number;
  /** calls to D1 / the Library object this step makes (each also costs a crossing Node cannot show) */
  calls?: string;
  /** the row before it in another case (left out of the sums) */
  instead?: boolean;
}

export interface TurnProfile {
  rows: ProfileRow[];
  /** a chat frame end to end as ChatSession runs it, over the shims, CPU ms */
  wholeTurnMs: number;
  chunks: number;
  /** D1 queries of that whole turn, before its first `stream` frame and after it */
  d1Calls?: { beforeFirstChunk: number; afterIt: number };
}

export async function benchTurnProfile(reps = 200): Promise<TurnProfile | null> {
  if (!existsSync(FILE)) return null;
  const catalogueDb = catalogue();
  const { index, ledger, db: libraryDb } = await library();
  const chunks = index.chunkIds(DOC).length;
  const env = {
    DB: d1(catalogueDb),
    JWT_SECRET: SECRET,
    CHAT_RATE_LIMITER: { limit: async () => ({ success: true }) },
    LIBRARY: {
      idFromName: () => USER,
      get: () => ({
        // an RPC result is copied to the caller
        admit: async (request: AdmissionRequest) => structuredClone(admissionFacts(index, ledger, request)),
        uncountMessage: async (day: string) => ledger.uncountMessage(day),
        search: async (q: string, ids: string[] | null, limit: number) => structuredClone(index.search(q, ids, limit)),
        chunks: async (ids: string[], scope: string[] | null) => structuredClone(index.chunks(ids, scope)),
      }),
    },
  } as unknown as Env;
  const db = getDb(env);
  const token = await signToken(SECRET, { sub: USER, email: "a@example.com", jti: AUTH_SESSION }, Date.now() + 3600_000);
  const frame = JSON.stringify({ action: "chat", query: QUESTION, session_id: "chat-1", s3_key: R2_KEY, token });
  const who: SocketIdentity = {
    sessionId: "chat-1",
    access: "owner",
    userId: USER,
    email: "a@example.com",
    authSessionId: AUTH_SESSION,
    ip: "127.0.0.1",
  };

  const chatDb = new DatabaseSync(":memory:");
  const storage = { sql: sqlStorage(chatDb), transactionSync: <T>(fn: () => T) => fn() } as unknown as DurableObjectStorage;
  const messages = new MessageStore(storage.sql);
  const documents = new ChatDocuments(storage);
  const sent: string[] = [];
  const room: ChatRoom = {
    env,
    messages,
    documentIds: () => documents.ids(),
    files: (read) => documents.current(getDb(env), read),
    takeNewFiles: (files) => documents.takeNew(files),
    storeFiles: (ownerId, files) => {
      documents.replace(ownerId, files);
      sent.push(JSON.stringify({ type: "files", session_id: who.sessionId, files }));
    },
    untilIndexed: async () => documents.current(getDb(env)),
    broadcast: (message: ServerMessage) => void sent.push(JSON.stringify(message)),
  };
  const files: ChatFile[] = await resolveChatFiles({ db }, { ownerId: USER, ids: [DOC] });
  documents.replace(USER, files);

  const hits = index.search(QUESTION, [DOC], RETRIEVAL_TUNING.candidates);
  const ranked = bySentence(QUESTION, hits);
  const passages = onePerPage(ranked, 8).map(toPassage);
  const answer = localAnswer({ question: QUESTION, passages, history: [], anonymous: false });
  const words = answer.split(/(?<=\s)/);
  const { sources } = citeAnswer(answer, passages);
  const streamFrame = (text: string) => JSON.stringify({ type: "stream", session_id: who.sessionId, message_id: "m-1", text });

  const rows: ProfileRow[] = [];
  const step = async (name: string, before: boolean, fn: () => unknown, calls?: string) =>
    rows.push({ step: name, beforeFirstChunk: before, ms: await mean(reps, fn), ...(calls ? { calls } : {}) });

  // before the first chunk, in the order a turn runs them
  await step("frame: JSON.parse + zod (clientMessageSchema)", true, () => clientMessageSchema.safeParse(JSON.parse(frame)));
  await step(
    "token check, first message on a socket (JWT verify + session read)",
    true,
    () => authenticate({ db: getDb(env), jwtSecret: SECRET }, { token }),
    "D1 x1",
  );
  await step("drizzle client per getDb() call (schema walk)", true, () => getDb(env));
  const asked = { action: "chat" as const, query: QUESTION, session_id: who.sessionId, s3_key: R2_KEY };
  // (a new day each time: past the free allowance admission reads the plan from D1, which a day's first 50 do not)
  await step(
    "admission: one Library call (message counted, sessions signed out, s3_key -> documents, search) + files frame",
    true,
    () => {
      libraryDb.exec("DELETE FROM daily_messages");
      return admitQuestion(room, who, asked, { own: [AUTH_SESSION], others: [] });
    },
    "Library x1",
  );
  await step("turn: history + question stored + new files", true, () => {
    messages.history();
    return room.takeNewFiles(files);
  });
  // admission's call reads them (changed or kept); a turn queued behind another reads them again
  await step("turn: chat's documents as they are (files())", true, () => room.files(), "D1 x1");
  rows.at(-1)!.instead = true;
  // part of admission's call; on its own (one more call) when a document was still indexing
  await step(
    "retrieval: Library FTS5/BM25 SQL, 50 candidates",
    true,
    () => index.search(QUESTION, [DOC], RETRIEVAL_TUNING.candidates),
    "Library x1",
  );
  rows.at(-1)!.instead = true;
  await step("retrieval: RPC copy of the 50 candidates", true, () => structuredClone(hits));
  await step("retrieval: best-sentence re-rank (bySentence)", true, () => bySentence(QUESTION, hits));
  // the same work on passages never seen before (a trailing space makes each text new; sentences are trimmed)
  let fresh = 0;
  await step("retrieval: best-sentence re-rank, passages not seen before", true, () => {
    const pad = " ".repeat(++fresh);
    return bySentence(
      QUESTION,
      hits.map((h) => ({ ...h, text: h.text + pad })),
    );
  });
  rows.at(-1)!.instead = true;
  await step("retrieval: one per page, top 8", true, () => onePerPage(ranked, 8));
  await step("local responder: whole answer (sentence scoring over 8 passages)", true, () =>
    localAnswer({ question: QUESTION, passages, history: [], anonymous: false }),
  );
  await step("first stream frame: JSON + send", true, () => streamFrame(words[0]!));
  // after it
  await step(`remaining ${words.length - 1} stream frames: JSON + send`, false, () => words.slice(1).forEach((w) => streamFrame(w)));
  await step("citations (citeAnswer)", false, () => citeAnswer(answer, passages));
  await step(
    "chats row update (recordTurn)",
    false,
    () => recordTurn({ db: getDb(env) }, { sessionId: who.sessionId, userId: USER, text: turnSearchText(QUESTION, answer) }),
    "D1 x1",
  );
  await step(
    "end frame: files() again + JSON",
    false,
    () => room.files().then((f) => JSON.stringify({ type: "end", files: f, sources })),
    "D1 x1",
  );
  await step(
    "chat list (listChats) + frame",
    false,
    () => listChats({ db: getDb(env) }, { user: { id: USER, email: "a@example.com" } }).then((c) => JSON.stringify(c)),
    "D1 x1",
  );
  await step("follow-up suggestions (headings of cited passages)", false, () =>
    headingSuggestions(
      QUESTION,
      sources.map((s) => passages[s.n - 1]!),
    ),
  );

  // The whole turn as ChatSession runs it for a chat frame (parse, token check, admission beside the
  // revocation check, the turn), in a new chat each time, on a new socket: its CPU time, and the D1
  // queries before and after the first chunk.
  const socket = { deserializeAttachment: () => who, send: () => {}, close: () => {} } as unknown as WebSocket;
  const calls = { beforeFirstChunk: 0, afterIt: 0 };
  let chat = 0;
  const turn = async () => {
    const sessionId = `chat-${++chat}`;
    const asker = { ...who, sessionId };
    const frame = JSON.stringify({ action: "chat", query: QUESTION, session_id: sessionId, s3_key: R2_KEY, token });
    chatDb.exec("DELETE FROM messages; DELETE FROM chat_files");
    libraryDb.exec("DELETE FROM daily_messages");
    d1Calls.count = 0;
    let firstChunkAt = -1;
    const chatRoom: ChatRoom = {
      ...room,
      broadcast: (message: ServerMessage) => {
        if (message.type === "stream" && firstChunkAt < 0) firstChunkAt = d1Calls.count;
        sent.push(JSON.stringify(message));
      },
    };
    const parsed = clientMessageSchema.parse(JSON.parse(frame));
    if (parsed.action !== "chat") return;
    const checked: unknown = await tokenMatches(env, { ...socket } as WebSocket, asker, parsed.token);
    const liveNow = checked === "read" ? asker.authSessionId! : undefined; // (before: a plain true)
    const { admission: admitted } = await admitQuestion(chatRoom, asker, parsed, chatSessions([socket], asker.userId, liveNow));
    if (admitted.ok) await runTurn(chatRoom, asker, admitted.query, undefined, { files: admitted.files, hits: admitted.hits });
    calls.beforeFirstChunk = firstChunkAt;
    calls.afterIt = d1Calls.count - firstChunkAt;
    sent.length = 0;
  };
  // the local responder's pause between words waits without CPU: skipped here, so wall time is the turn's CPU
  const realSetTimeout = globalThis.setTimeout;
  globalThis.setTimeout = ((fn: () => void) => setImmediate(fn)) as unknown as typeof setTimeout;
  let wholeTurnMs: number;
  try {
    wholeTurnMs = await mean(Number(process.env.TURNS ?? 50), turn);
  } finally {
    globalThis.setTimeout = realSetTimeout;
  }
  return { rows, wholeTurnMs, chunks, d1Calls: calls };
}

/** The figures before issue 16's changes (PROFILE_OUT=bench/turn-profile-before.json at commit 06268ab). */
export function profileBefore(): TurnProfile {
  return JSON.parse(readFileSync(join(import.meta.dirname, "turn-profile-before.json"), "utf8")) as TurnProfile;
}

/** Markdown rows: each step before and now (matched by name; "-" where a step was not measured then). */
export function profileTable(now: TurnProfile, before: TurnProfile = profileBefore()): string[] {
  const fmt = (n: number | undefined) => (n === undefined ? "-" : n.toFixed(n < 1 ? 3 : 2));
  const sum = (p: TurnProfile, first: boolean) =>
    p.rows.filter((r) => r.beforeFirstChunk === first && !r.instead).reduce((s, r) => s + r.ms, 0);
  const then = new Map(before.rows.map((r) => [r.step, r.ms]));
  const calls = (p: TurnProfile) => (p.d1Calls ? `${p.d1Calls.beforeFirstChunk} / ${p.d1Calls.afterIt}` : "-");
  return [
    "| step | before ms | now ms | calls |",
    "|---|---|---|---|",
    ...now.rows.map(
      (r) =>
        `| ${r.beforeFirstChunk ? "" : "(after the first chunk) "}${r.instead ? "(instead) " : ""}${r.step} | ${fmt(then.get(r.step))} | ${fmt(r.ms)} | ${r.calls ?? ""} |`,
    ),
    `| **sum to the first chunk** | **${fmt(sum(before, true))}** | **${fmt(sum(now, true))}** | |`,
    `| sum after it | ${fmt(sum(before, false))} | ${fmt(sum(now, false))} | |`,
    `| whole turn as ChatSession runs a chat frame, in a new chat (CPU ms) | ${fmt(before.wholeTurnMs)} | ${fmt(now.wholeTurnMs)} | |`,
    `| D1 queries of that turn before its first chunk / after it | ${calls(before)} | ${calls(now)} | |`,
  ];
}

/** docs/PERFORMANCE.md's Turn profile section. */
export function profileSection(profile: TurnProfile | null): string[] {
  const lines = ["## Turn profile: where one chat turn's CPU goes", ""];
  if (!profile) return [...lines, "Skipped: ../shared/corpus/irs/i1040gi.pdf is not present."];
  return [
    ...lines,
    "bench/turn-profile.ts (`node --import tsx --import ./bench/wasm-modules.mjs bench/turn-profile.ts`) runs each step of a turn with the product's own modules",
    `over i1040gi.pdf (${profile.chunks} chunks) in Node: the Library's index and the D1 schema over node:sqlite, the question`,
    '"When is my tax return due?" with the file attached by its upload key, as bench/load.ts asks it. Mean CPU ms per step, in',
    'the order a turn runs them; "before" is the same table before the performance issue\'s changes',
    "(bench/turn-profile-before.json, measured at 06268ab). Not in these figures: crossing to the D1 and Library objects (the",
    "calls column; locally one workerd thread serves them all) and the local responder's 8 ms pause between words, which",
    "uses no CPU. Each step row times a module as a turn calls it; the last two rows run a whole chat frame as ChatSession",
    "does, so they also show the steps a turn now skips (a first message's token read stands for its revocation check, and",
    "a turn that starts at once uses the documents its admission just checked).",
    "",
    ...profileTable(profile),
  ];
}

if (process.argv[1]?.endsWith("turn-profile.ts")) {
  const profile = await benchTurnProfile(Number(process.env.REPS ?? 200));
  if (!profile) {
    console.log(`Skipped: ${FILE} is not present.`);
  } else {
    console.log(`One turn over i1040gi.pdf (${profile.chunks} chunks), question "${QUESTION}"; mean ms per step:\n`);
    console.log(profileTable(profile).join("\n"));
    // PROFILE_OUT=file: keep the figures (bench/turn-profile-before.json is the table before issue 16's changes)
    if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, `${JSON.stringify(profile, null, 2)}\n`);
  }
}
