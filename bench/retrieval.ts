// Retrieval-quality benchmark on the FinanceBench subset (23 questions whose
// evidence lies in the 8 SEC filings of ../shared/corpus/sec_financebench).
//
// "Ours" is the real product end to end: a local `wrangler dev` (fresh state),
// one signed-up user, the 8 PDFs through the real upload path (upload link ->
// PUT -> index -> Queue consumer), then one websocket chat per question with the
// question's filing attached, as a user would ask it. We score the sources the
// answer cites (end.message.sources, in citation order).
//
// The baseline, computed in the same run: page-level FTS5 BM25 over the same
// filings (one row per page, the naive OR-of-all-words query), top 5 pages.
//
// hit@1: the first cited source / top page is an evidence page.
// hit@5: any of the first 5 cited sources / top 5 pages is.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { extractText, getDocumentProxy } from "unpdf";
import type { ServerMessage, Source } from "../worker/contract/protocol";
import { CORPUS } from "./ingest";

const ROOT = join(import.meta.dirname, "..");
const FILINGS = join(CORPUS, "sec_financebench");
const QA_FILE = join(FILINGS, "qa_subset_for_included_pdfs.jsonl");
const PASSWORD = "Secret123";
const TOP = 5;
/** Ports the team's own dev servers use; never take them. */
const RESERVED_PORTS = new Set([5173, 5180]);

const SERVER_START_MS = 120_000;
const INDEX_TIMEOUT_MS = 180_000;
const CHAT_TIMEOUT_MS = 60_000;

interface Question {
  financebench_id: string;
  doc_name: string;
  question: string;
  /** 0-based: 0 is the PDF's first page (our pages are 1-based) */
  evidence_pages: number[];
}

export interface QuestionResult {
  id: string;
  doc: string;
  /** 1-based */
  evidence: number[];
  /** pages of the first 5 cited sources, in citation order */
  ours: number[];
  /** the baseline's top 5 pages, best first */
  baseline: number[];
  firstTokenMs: number | null;
  error?: string;
}

export interface Hits {
  at1: number;
  at5: number;
}

export interface RetrievalFigures {
  questions: number;
  server: string;
  ours: Hits;
  baseline: Hits;
  medianFirstTokenMs: number;
  medianBaselineQueryMs: number;
  results: QuestionResult[];
}

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/* ------------------------------------------------------------------ product */

/** A free loopback port (the OS picks one; the reserved dev ports are skipped). */
async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    if (!RESERVED_PORTS.has(port)) return port;
  }
}

interface Product {
  base: string;
  label: string;
  stop(): Promise<void>;
}

const childEnv = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" };

/** `wrangler d1 migrations apply` into persistTo (or .wrangler/state when omitted). */
function applyMigrations(persistTo?: string): void {
  // --config: without it wrangler follows .wrangler/deploy/config.json to the last
  // production build in dist/, not to the sources under test.
  const args = ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--config", "wrangler.jsonc"];
  if (persistTo) args.push("--persist-to", persistTo);
  const run = spawnSync("npx", args, { cwd: ROOT, env: childEnv, encoding: "utf8", timeout: 120_000 });
  if (run.status !== 0) throw new Error(`migrations failed:\n${run.stdout}\n${run.stderr}`);
}

/**
 * Spawns a dev server in its own process group (so stop() also ends workerd,
 * which wrangler/vite start as children) and waits for GET /api/health.
 * `cleanup` (synchronous) runs once the server is gone.
 */
async function serve(
  label: string,
  args: string[],
  port: number,
  extraEnv: Record<string, string> = {},
  cleanup = () => {},
): Promise<Product> {
  const child: ChildProcess = spawn("npx", args, {
    cwd: ROOT,
    env: { ...childEnv, ...extraEnv },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const keep = (data: Buffer) => {
    log = (log + data.toString()).slice(-8000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  let exited = false;
  const exitedPromise = new Promise<void>((resolve) => child.once("exit", () => ((exited = true), resolve())));

  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  // Last resort if the bench dies without reaching stop() (exit handlers must be
  // synchronous). Ctrl-C does not reach the child: it has its own process group.
  const onExit = () => (killGroup("SIGKILL"), cleanup());
  const onSignal = () => process.exit(130); // runs onExit
  process.once("exit", onExit);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const stop = async () => {
    process.off("exit", onExit);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    if (!exited) {
      killGroup("SIGTERM");
      await Promise.race([exitedPromise, sleep(5000)]);
      if (!exited) killGroup("SIGKILL");
    }
    cleanup();
  };

  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + SERVER_START_MS;
  while (Date.now() < deadline && !exited) {
    try {
      // a per-request timeout: workerd can accept a connection and never answer while a build is broken
      const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(3000) });
      if (res.ok) return { base, label, stop };
    } catch {
      // not listening yet
    }
    await sleep(300);
  }
  await stop();
  throw new Error(`${label} did not serve /api/health${exited ? " (it exited)" : ""}. Last output:\n${log.trim()}`);
}

/**
 * `wrangler dev` on fresh state in a temp dir; if it cannot serve the Worker,
 * `vite dev` instead (whose state lives in the project's .wrangler/state).
 */
async function startProduct(): Promise<Product> {
  const state = mkdtempSync(join(tmpdir(), "docchat-bench-"));
  const removeState = () => {
    try {
      rmSync(state, { recursive: true, force: true, maxRetries: 5 });
    } catch (err) {
      console.warn(`could not remove ${state}: ${(err as Error).message}`);
    }
  };
  try {
    applyMigrations(state);
    // wrangler.jsonc's `assets` has no directory (the vite plugin supplies the
    // built SPA); the API needs none, so an empty one satisfies wrangler.
    const assets = join(state, "assets");
    mkdirSync(assets);
    const [port, inspector] = [await freePort(), await freePort()];
    const product = await serve(
      "wrangler dev",
      [
        "wrangler",
        "dev",
        "--config",
        "wrangler.jsonc",
        "--assets",
        assets,
        "--port",
        String(port),
        "--ip",
        "127.0.0.1",
        "--inspector-port",
        String(inspector),
        "--persist-to",
        state,
        "--show-interactive-dev-session=false",
      ],
      port,
      {},
      removeState,
    );
    return product;
  } catch (err) {
    removeState();
    console.warn(`wrangler dev failed; falling back to vite dev (state in .wrangler/state).\n${(err as Error).message}`);
  }
  applyMigrations();
  const port = await freePort();
  const product = await serve("vite dev (state in .wrangler/state)", ["vite", "dev"], port, { PORT: String(port) });
  return product;
}

/* ---------------------------------------------------------------- API calls */

async function api<T = any>(base: string, method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** The real upload path: upload link -> PUT to it -> index. Returns the file id and s3Key. */
async function upload(
  base: string,
  token: string,
  fileName: string,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<{ fileId: string; s3Key: string }> {
  const link = await api<{ presignedUrl: string; s3Key: string }>(
    base,
    "GET",
    `/api/documents/uploadLink?fileName=${encodeURIComponent(fileName)}&contentType=application/pdf`,
    { token },
  );
  const put = await fetch(link.presignedUrl, { method: "PUT", headers: { "Content-Type": "application/pdf" }, body: bytes });
  if (!put.ok) throw new Error(`PUT ${fileName}: ${put.status} ${await put.text()}`);
  const indexed = await api<{ fileId: string }>(base, "POST", "/api/documents/index", { token, body: { s3_key: link.s3Key } });
  return { fileId: indexed.fileId, s3Key: link.s3Key };
}

async function waitIndexed(base: string, token: string, fileName: string, fileId: string): Promise<void> {
  const deadline = Date.now() + INDEX_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const s = await api<{ status: string; error: string | null }>(base, "GET", `/api/documents/indexingStatus?file_id=${fileId}`, {
      token,
    });
    if (s.status === "indexed") return;
    if (s.status === "failed") throw new Error(`${fileName} failed to index: ${s.error}`);
    await sleep(500);
  }
  throw new Error(`${fileName} was not indexed within ${INDEX_TIMEOUT_MS / 1000} s`);
}

/** One chat turn on a fresh session: the cited sources and the time from sending to the first `stream` frame. */
function ask(
  base: string,
  token: string,
  email: string,
  query: string,
  s3Key: string,
): Promise<{ sources: Source[]; firstTokenMs: number | null; mode: string }> {
  const sessionId = `${email}-${crypto.randomUUID()}`;
  const ws = new WebSocket(
    `${base.replace(/^http/, "ws")}/ws?session_id=${encodeURIComponent(sessionId)}&token=${encodeURIComponent(token)}`,
  );
  return new Promise((resolve, reject) => {
    let sentAt = 0;
    let firstTokenMs: number | null = null;
    const finish = (fn: () => void) => {
      clearTimeout(timer);
      ws.close();
      fn();
    };
    const timer = setTimeout(() => finish(() => reject(new Error("no `end` frame in time"))), CHAT_TIMEOUT_MS);
    ws.onopen = () => {
      sentAt = performance.now();
      ws.send(JSON.stringify({ action: "chat", query, session_id: sessionId, s3_key: s3Key, token }));
    };
    ws.onmessage = (event) => {
      const frame = JSON.parse(String(event.data)) as ServerMessage;
      if (frame.type === "stream" && firstTokenMs === null) firstTokenMs = performance.now() - sentAt;
      else if (frame.type === "end") finish(() => resolve({ sources: frame.message.sources ?? [], firstTokenMs, mode: frame.mode }));
      else if (frame.type === "error") finish(() => reject(new Error(`error frame ${frame.code}: ${frame.message}`)));
    };
    ws.onerror = () => finish(() => reject(new Error("websocket error")));
  });
}

/* ----------------------------------------------------------------- baseline */

/**
 * Page-level FTS5 BM25 in memory: one row per PDF page (pages as unpdf extracts
 * them), the same tokenizer as migrations/0001_chunks_fts.sql.
 */
class PageIndex {
  private readonly db = new DatabaseSync(":memory:");

  constructor() {
    this.db.exec(
      "CREATE VIRTUAL TABLE pages USING fts5(doc UNINDEXED, page UNINDEXED, text, tokenize='porter unicode61 remove_diacritics 2')",
    );
  }

  async add(doc: string, bytes: Uint8Array): Promise<void> {
    const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: false });
    const insert = this.db.prepare("INSERT INTO pages (doc, page, text) VALUES (?, ?, ?)");
    this.db.exec("BEGIN");
    text.forEach((pageText, i) => insert.run(doc, i + 1, pageText));
    this.db.exec("COMMIT");
  }

  /** The naive query: every lower-cased word of the question, double-quoted, OR-ed (no stopword removal). */
  search(doc: string, question: string, limit = TOP): number[] {
    const words = [...new Set(question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
    if (words.length === 0) return [];
    const match = words.map((w) => `"${w}"`).join(" OR ");
    const rows = this.db
      .prepare("SELECT page FROM pages WHERE pages MATCH ? AND doc = ? ORDER BY bm25(pages) ASC LIMIT ?")
      .all(match, doc, limit);
    return rows.map((r) => Number(r.page));
  }
}

/* -------------------------------------------------------------------- bench */

function score(results: QuestionResult[], pick: (r: QuestionResult) => number[]): Hits {
  let at1 = 0;
  let at5 = 0;
  for (const r of results) {
    const pages = pick(r).slice(0, TOP);
    if (pages.length > 0 && r.evidence.includes(pages[0]!)) at1++;
    if (pages.some((p) => r.evidence.includes(p))) at5++;
  }
  return { at1, at5 };
}

function printTable(results: QuestionResult[]): void {
  const rows = results.map((r) => [
    r.id.replace("financebench_id_", ""),
    r.doc,
    r.evidence.join(","),
    r.error ? `ERROR ${r.error}` : r.ours.join(",") || "-",
    r.baseline.join(",") || "-",
    r.firstTokenMs === null ? "-" : r.firstTokenMs.toFixed(0),
  ]);
  const header = ["id", "doc", "evidence", "ours (cited)", "baseline (top 5)", "ttft ms"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  console.log(["", line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line), ""].join("\n"));
}

export async function benchRetrieval(): Promise<RetrievalFigures | null> {
  if (!existsSync(QA_FILE)) return null;
  const questions = readFileSync(QA_FILE, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Question);
  const docs = [...new Set(questions.map((q) => q.doc_name))];
  const bytes = new Map(docs.map((d) => [d, readFileSync(join(FILINGS, `${d}.pdf`))]));

  const product = await startProduct();
  try {
    console.log(`retrieval bench: ${product.label} at ${product.base}`);
    const email = `bench-${Date.now()}@example.com`;
    const { token } = await api<{ token: string }>(product.base, "POST", "/api/auth/signup", { body: { email, password: PASSWORD } });

    // Uploads go first so the Queue consumer indexes while the baseline extracts.
    const uploads = new Map<string, { fileId: string; s3Key: string }>();
    for (const doc of docs) uploads.set(doc, await upload(product.base, token, `${doc}.pdf`, new Uint8Array(bytes.get(doc)!)));
    const baseline = new PageIndex();
    for (const doc of docs) await baseline.add(doc, new Uint8Array(bytes.get(doc)!)); // pdf.js detaches its buffer: pass a copy
    const indexStart = performance.now();
    await Promise.all(docs.map((doc) => waitIndexed(product.base, token, doc, uploads.get(doc)!.fileId)));
    console.log(
      `retrieval bench: ${docs.length} filings indexed (${((performance.now() - indexStart) / 1000).toFixed(1)} s after the last upload)`,
    );

    const results: QuestionResult[] = [];
    const baselineMs: number[] = [];
    for (const q of questions) {
      const t = performance.now();
      const base = baseline.search(q.doc_name, q.question);
      baselineMs.push(performance.now() - t);
      const result: QuestionResult = {
        id: q.financebench_id,
        doc: q.doc_name,
        evidence: [...new Set(q.evidence_pages.map((p) => p + 1))],
        ours: [],
        baseline: base,
        firstTokenMs: null,
      };
      try {
        const answer = await ask(product.base, token, email, q.question, uploads.get(q.doc_name)!.s3Key);
        if (answer.mode !== "local") console.warn(`retrieval bench: answered in ${answer.mode} mode, not local`);
        result.ours = answer.sources.slice(0, TOP).map((s) => s.page);
        result.firstTokenMs = answer.firstTokenMs;
      } catch (err) {
        result.error = (err as Error).message; // counts as a miss
      }
      results.push(result);
    }
    printTable(results);

    const ttft = results.flatMap((r) => (r.firstTokenMs === null ? [] : [r.firstTokenMs]));
    return {
      questions: results.length,
      server: product.label,
      ours: score(results, (r) => r.ours),
      baseline: score(results, (r) => r.baseline),
      medianFirstTokenMs: median(ttft),
      medianBaselineQueryMs: median(baselineMs),
      results,
    };
  } finally {
    await product.stop();
  }
}
