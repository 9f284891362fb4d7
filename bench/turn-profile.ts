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
import { existsSync, writeFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
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
import { admissionFacts } from "../worker/library/question-ledger";
import type { AdmissionRequest } from "../worker/library/types";
import { localAnswer } from "../worker/answer/writer/local-writer";
import { turnSearchText } from "../worker/services/chat-search";
import { authenticate } from "../worker/services/accounts";
import { resolveChatFiles } from "../worker/services/chat-files";
import { listChats, recordTurn } from "../worker/services/chats";
import { bySentence, onePerPage, RETRIEVAL_TUNING, toPassage } from "../worker/answer/ranking/retrieval";
import { signToken } from "../worker/lib/tokens";
import { AUTH_SESSION, catalogue, d1, d1Calls, DOC, FILE, library, R2_KEY, sqlStorage, USER } from "./turn-bindings";
import { profileTable } from "./turn-profile-report";

const QUESTION = "When is my tax return due?";
const SECRET = "turn-profile-secret-turn-profile-secret";

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
    untilLibraryIndexed: async () => [],
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
