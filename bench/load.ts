// The performance issue's table, each figure with a reference measured in the
// same run on one local product (npm run dev on fresh state):
// - one session's own overhead to the first streamed chunk: first chunk minus a
//   Durable Object round trip (a ping with extra fields, answered by the object);
// - 50 sessions asking at once (5 users, each with the 1040 instructions indexed):
//   first chunk p50 / p99, against 50 round trips at once;
// - 200 sessions at once: first frame p99;
// - Pub 17 upload -> indexed, against a bare unpdf extraction, and how soon its
//   first pages are searchable;
// - GET /api/health p99 while Pub 17 is being indexed, against idle.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerMessage } from "../worker/contract/protocol";
import { CORPUS } from "./ingest";
import { api, chatSocket, PASSWORD, startProduct, subscribe, statusPoller, upload, waitIndexed } from "./product";
import { median } from "./retrieval";

const P17 = join(CORPUS, "irs/p17.pdf");
const INSTRUCTIONS = join(CORPUS, "irs/i1040gi.pdf");
const QUESTION = "When is my tax return due?";

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

interface User {
  email: string;
  token: string;
}

export async function account(base: string, prefix: string): Promise<User> {
  const email = `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const { token } = await api<{ token: string }>(base, "POST", "/api/auth/signup", { body: { email, password: PASSWORD } });
  await subscribe(base, token, email); // more questions than the free plan's daily messages
  return { email, token };
}

/** An open chat socket, with the time each next frame of a type arrives. */
export async function openChat(base: string, user: User) {
  const sessionId = `${user.email}-${crypto.randomUUID()}`;
  const ws = await chatSocket(base, user.token, sessionId);
  const waiting: { type: string; resolve: (at: number) => void }[] = [];
  ws.addEventListener("message", (event) => {
    const at = performance.now();
    const text = String(event.data);
    const type = text === '{"type":"pong"}' ? "pong" : (JSON.parse(text) as ServerMessage).type;
    for (const w of waiting.splice(0))
      if (w.type === type || w.type === "any") w.resolve(at);
      else waiting.push(w);
  });
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve);
    ws.addEventListener("error", reject);
  });
  const next = (type: string) => new Promise<number>((resolve) => waiting.push({ type, resolve }));
  return {
    /** a Durable Object round trip: a ping with an extra field is answered by the object itself */
    async roundTrip(): Promise<number> {
      const sent = performance.now();
      const pong = next("pong");
      ws.send(JSON.stringify({ type: "ping", at: sent }));
      return (await pong) - sent;
    },
    /** time to the first frame of `type` after asking */
    async ask(s3Key: string, type = "stream"): Promise<number> {
      const sent = performance.now();
      const first = next(type);
      const end = next("end");
      ws.send(JSON.stringify({ action: "chat", query: QUESTION, session_id: sessionId, s3_key: s3Key, token: user.token }));
      const at = await first;
      await end;
      return at - sent;
    },
    close: () => ws.close(),
  };
}

async function healthTimes(base: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await fetch(`${base}/api/health`);
    times.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return times;
}

export interface LoadFigures {
  /** the local product measured (npm run dev on fresh state) */
  server: string;
  oneSession: { firstChunkMs: number; roundTripMs: number; overheadMs: number };
  fifty: { p50: number; p99: number; roundTripP99: number };
  twoHundred: { firstFrameP99: number };
  indexing: { pages: number; indexedMs: number; referenceMs: number; firstPagesMs: number };
  health: { idleP99: number; indexingP99: number };
}

/** Targets of the performance issue: the run fails when one is missed. */
export function missedTargets(f: LoadFigures): string[] {
  const missed: string[] = [];
  if (f.oneSession.overheadMs > 15) missed.push(`own overhead to the first chunk ${f.oneSession.overheadMs.toFixed(0)} ms > 15 ms`);
  if (f.fifty.p99 > 500) missed.push(`50 sessions: first chunk p99 ${f.fifty.p99.toFixed(0)} ms > 500 ms`);
  if (f.twoHundred.firstFrameP99 > 2000)
    missed.push(`200 sessions: first frame p99 ${f.twoHundred.firstFrameP99.toFixed(0)} ms > 2,000 ms`);
  if (f.indexing.referenceMs / f.indexing.indexedMs < 0.9)
    missed.push(`Pub 17 indexed at ${(f.indexing.referenceMs / f.indexing.indexedMs).toFixed(2)}x a bare extraction < 0.9x`);
  if (f.indexing.firstPagesMs > 1500)
    missed.push(`Pub 17's first pages searchable after ${f.indexing.firstPagesMs.toFixed(0)} ms > 1,500 ms`);
  if (f.health.indexingP99 > f.health.idleP99 + 100)
    missed.push(`health p99 while indexing ${f.health.indexingP99.toFixed(0)} ms > idle ${f.health.idleP99.toFixed(0)} ms + 100 ms`);
  return missed;
}

async function benchLoad(): Promise<LoadFigures | null> {
  if (!existsSync(P17) || !existsSync(INSTRUCTIONS)) return null;
  const product = await startProduct();
  const { base } = product;
  try {
    // LOAD_ONLY=indexing: the Pub 17 rows only (indexing ratio, first pages, health), for a user who has
    // the 1040 instructions indexed (as in the whole run: that also loads the indexing code first)
    if (process.env.LOAD_ONLY === "indexing") {
      const skipped = { firstChunkMs: NaN, roundTripMs: NaN, overheadMs: NaN };
      const owner = await account(base, "load-indexing");
      const warm = await upload(base, owner.token, "i1040gi.pdf", new Uint8Array(readFileSync(INSTRUCTIONS)));
      await waitIndexed(base, owner.token, "i1040gi.pdf", warm.fileId);
      const owners = [owner];
      while (owners.length < INDEXING_OWNERS) owners.push(await account(base, "load-indexing"));
      const { indexing, health } = await indexingRows(base, owners);
      return {
        server: product.label,
        oneSession: skipped,
        fifty: { p50: NaN, p99: NaN, roundTripP99: NaN },
        twoHundred: { firstFrameP99: NaN },
        indexing,
        health,
      };
    }
    // five users, each with the 1040 instructions indexed
    const users: User[] = [];
    const keys: string[] = [];
    for (let i = 0; i < 5; i++) {
      const user = await account(base, `load-${i}`);
      const doc = await upload(base, user.token, "i1040gi.pdf", new Uint8Array(readFileSync(INSTRUCTIONS)));
      await waitIndexed(base, user.token, "i1040gi.pdf", doc.fileId);
      users.push(user);
      keys.push(doc.s3Key);
    }

    // one session: median of 30 first chunks and 30 round trips, after a warm-up
    const one = await openChat(base, users[0]!);
    for (let i = 0; i < 5; i++) await one.ask(keys[0]!);
    const chunks: number[] = [];
    const trips: number[] = [];
    for (let i = 0; i < 30; i++) {
      trips.push(await one.roundTrip());
      chunks.push(await one.ask(keys[0]!));
    }
    one.close();
    const oneSession = { firstChunkMs: median(chunks), roundTripMs: median(trips), overheadMs: median(chunks) - median(trips) };

    // 50 and 200 sessions asking at once
    const crowd = async (n: number, type: string) => {
      const chats = await Promise.all(Array.from({ length: n }, (_, i) => openChat(base, users[i % users.length]!)));
      const trips = await Promise.all(chats.map((c) => c.roundTrip()));
      const firsts = await Promise.all(chats.map((c, i) => c.ask(keys[i % keys.length]!, type)));
      chats.forEach((c) => c.close());
      return { firsts, trips };
    };
    const at50 = await crowd(50, "stream");
    const fifty = { p50: percentile(at50.firsts, 50), p99: percentile(at50.firsts, 99), roundTripP99: percentile(at50.trips, 99) };
    const at200 = await crowd(200, "any");
    const twoHundred = { firstFrameP99: percentile(at200.firsts, 99) };
    // LOAD_ONLY=turns: the chat-turn rows only (no Pub 17 indexing), for measuring a turn's cost quickly
    if (process.env.LOAD_ONLY === "turns") {
      const skipped = { pages: 0, indexedMs: NaN, referenceMs: NaN, firstPagesMs: NaN };
      return { server: product.label, oneSession, fifty, twoHundred, indexing: skipped, health: { idleP99: NaN, indexingP99: NaN } };
    }

    const { indexing, health } = await indexingRows(base, users);
    return { server: product.label, oneSession, fifty, twoHundred, indexing, health };
  } finally {
    await product.stop();
  }
}

/**
 * Pub 17 is indexed by five owners in turn (a second upload by one owner would be a duplicate):
 * three times with only its status polled (every 50 ms; My Files polls every 5 s) for the ratio to
 * a bare extraction and the first pages, twice with health checks back to back for the health row.
 */
const QUIET_RUNS = 3;
const HEALTH_RUNS = 2;
const INDEXING_OWNERS = QUIET_RUNS + HEALTH_RUNS;

/** Medians of the quiet runs (one run on this 2-core VM varies by +-15%); health p99 over both health runs' checks. */
async function indexingRows(base: string, owners: User[]): Promise<Pick<LoadFigures, "indexing" | "health">> {
  const quiet = [];
  for (const owner of owners.slice(0, QUIET_RUNS)) quiet.push(await indexingRun(base, owner, false));
  const checked = [];
  for (const owner of owners.slice(QUIET_RUNS, INDEXING_OWNERS)) checked.push(await indexingRun(base, owner, true));
  const ratios = quiet.map((r) => r.referenceMs / r.indexedMs);
  if (process.env.VERBOSE)
    console.error("runs", JSON.stringify([...quiet, ...checked].map((r) => [r.referenceMs, r.indexedMs, r.firstPagesMs].map(Math.round))));
  const middle = quiet[ratios.indexOf([...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!)]!;
  return {
    indexing: {
      pages: middle.pages,
      indexedMs: middle.indexedMs,
      referenceMs: middle.referenceMs,
      firstPagesMs: median(quiet.map((r) => r.firstPagesMs)),
    },
    health: {
      idleP99: percentile(
        checked.flatMap((r) => r.idle),
        99,
      ),
      indexingP99: percentile(
        checked.flatMap((r) => r.during),
        99,
      ),
    },
  };
}

/** One owner's Pub 17: the reference, then upload -> first pages searchable -> indexed (with health checks meanwhile when `withHealth`). */
async function indexingRun(base: string, owner: User, withHealth: boolean) {
  const bytes = new Uint8Array(readFileSync(P17));
  // the reference: a bare unpdf extraction inside the product's own workerd, just before (worker/dev/bench-reference.ts)
  const res = await fetch(`${base}/dev/bench/bare-extraction`, { method: "POST", body: bytes.slice() });
  if (!res.ok) throw new Error(`bare extraction: ${res.status} ${await res.text()}`);
  const { pages, ms: referenceMs } = (await res.json()) as { pages: number; ms: number };
  const idle = withHealth ? await healthTimes(base, 50) : [];
  const started = performance.now();
  const doc = await upload(base, owner.token, "p17.pdf", bytes.slice());
  let firstPagesMs = NaN;
  let indexedMs = NaN;
  const during: number[] = [];
  const poller = statusPoller(base, owner.token, doc.fileId);
  const polling = (async () => {
    for (;;) {
      const s = await poller.next();
      if (s && Number.isNaN(firstPagesMs) && s.pagesDone > 0) firstPagesMs = performance.now() - started;
      if (s?.status === "indexed" || s?.status === "failed") return (indexedMs = performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  while (withHealth && Number.isNaN(indexedMs)) during.push(...(await healthTimes(base, 5)));
  await polling;
  await waitIndexed(base, owner.token, "p17.pdf", doc.fileId);
  return { pages, indexedMs, referenceMs, firstPagesMs, idle, during };
}

// `node --import tsx --import ./bench/wasm-modules.mjs bench/load.ts` prints the figures (LOAD_OUT=<file>: writes them there; npm run bench does);
// LOAD_ONLY=turns: the chat-turn rows alone, LOAD_ONLY=indexing: the Pub 17 rows alone
if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = JSON.stringify(await benchLoad(), null, 2);
  if (process.env.LOAD_OUT) writeFileSync(process.env.LOAD_OUT, figures);
  else console.log(figures);
}
