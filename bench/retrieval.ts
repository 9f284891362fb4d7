// Answer-quality benchmark through the real chat path, on two QA sets:
// - FinanceBench: 23 questions over the 8 SEC filings of ../shared/corpus/sec_financebench
//   (its evidence pages are 0-based; converted to our 1-based pages);
// - IRS: our own paraphrased questions over the IRS PDFs of ../shared/corpus/irs
//   (bench/qa/irs-dev.jsonl), split into `dev` (used for tuning) and `heldout`
//   (reported only, never tuned on);
// - filings: our own questions for a statement's figures (revenue, total assets, cash from
//   operations...) over the same SEC filings (bench/qa/filings-dev.jsonl), split the same way.
//
// "Ours" is the real product end to end: `npm run dev`'s vite dev on fresh state,
// one signed-up user, the PDFs through the real upload path (upload link -> PUT
// -> index -> Queue consumer), then one websocket chat per question with the
// question's file attached, as a user would ask it. We score the sources the
// answer cites (end.message.sources, ordered by [n]) and the answer text.
//
// The baseline, computed in the same run: page-level FTS5 BM25 over the same
// files (one row per page, the naive OR-of-all-words query), top 5 pages.
//
// hit@1: the first source / top page is an evidence page; hit@5: any of the first
// 5 is. Fact in answer: the answer text states the asked fact (a pattern of the
// question matches it; FinanceBench: the number its answer states, when it states one).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { extractText, getDocumentProxy } from "unpdf";
import type { ServerMessage, Source } from "../worker/contract/protocol";
import { wordCount } from "../worker/answer/passages/sentences";
import { CORPUS } from "./ingest";
import { leadDefects } from "./lead-defects";

const ROOT = join(import.meta.dirname, "..");
const FILINGS = join(CORPUS, "sec_financebench");
const FINANCEBENCH_QA = join(FILINGS, "qa_subset_for_included_pdfs.jsonl");
const IRS = join(CORPUS, "irs");
const IRS_QA = join(ROOT, "bench/qa/irs-dev.jsonl");
const FILINGS_QA = join(ROOT, "bench/qa/filings-dev.jsonl");
const SEALED_QA = join(ROOT, "bench/qa/sealed.jsonl");
export const PASSWORD = "Secret123";
const TOP = 5;
/** Ports the team's own dev servers use; never take them. */
const RESERVED_PORTS = new Set([5173, 5180]);

const SERVER_START_MS = 120_000;
const INDEX_TIMEOUT_MS = 180_000;
const CHAT_TIMEOUT_MS = 60_000;

/** One benchmark question, whatever set it comes from. */
export interface EvalQuestion {
  id: string;
  /** "financebench", "irs dev", "irs heldout", "filings dev" or "filings heldout" */
  group: string;
  /** path of the PDF */
  path: string;
  question: string;
  /** 1-based */
  evidence: number[];
  /** any of them matching the answer text means the fact is in the answer; none = not scored */
  facts: RegExp[];
}

/** A number written as in a filing: "1577" also matches "1,577"; cents of ".00" are optional. */
function numberPattern(raw: string): RegExp | null {
  const digits = answerNumber(raw);
  if (!digits) return null;
  const [whole, fraction] = digits.split(".");
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",?");
  const cents = fraction && !/^0+$/.test(fraction) ? `\\.${fraction}` : "(?:\\.0+)?";
  return new RegExp(`(^|[^\\d])${grouped}${cents}(?![\\d])`);
}

const MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December";

/**
 * The number a FinanceBench answer states ("$2,018mn" -> 2018, "declined 44%" -> 44), without
 * commas; null when it states none. The period it is about is no such number: a year ("FY 2023",
 * "in 2022"), a quarter ("Q2"), a date ("August 30, 2023"); nor is a list's "(1)" or the
 * dataset's note after the answer ("The answer here assumes FY2023 refers to the 12 months...").
 */
function answerNumber(answer: string): string | null {
  const stated = answer.split(/\bThe answer here assumes\b/)[0]!;
  for (const m of stated.matchAll(/(\$\s?)?\d[\d,]*(\.\d+)?(\s?%)?/g)) {
    const token = m[0];
    const before = stated.slice(0, m.index);
    if (before.endsWith("(") && stated[m.index + token.length] === ")") continue; // a list's "(1)"
    const money = Boolean(m[1]) || token.includes(",") || Boolean(m[3]);
    if (!money && /^(19|20)\d\d$/.test(token)) continue; // a year
    if (/\b(FY|Q|H)\s?$/i.test(before)) continue; // FY2023, Q2
    if (new RegExp(`\\b(${MONTHS})\\s+$`).test(before)) continue; // a date's day
    return token.replace(/[$,%\s]/g, "");
  }
  return null;
}

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

export function loadQuestions(): EvalQuestion[] {
  const questions: EvalQuestion[] = [];
  if (existsSync(FINANCEBENCH_QA)) {
    for (const q of readJsonl<{ financebench_id: string; doc_name: string; question: string; answer: string; evidence_pages: number[] }>(
      FINANCEBENCH_QA,
    )) {
      const fact = numberPattern(q.answer);
      questions.push({
        id: q.financebench_id.replace("financebench_id_", "fb-"),
        group: "financebench",
        path: join(FILINGS, `${q.doc_name}.pdf`),
        question: q.question,
        evidence: [...new Set(q.evidence_pages.map((p) => p + 1))], // 0-based in FinanceBench
        facts: fact ? [fact] : [],
      });
    }
  }
  questions.push(...ownQuestions("irs", IRS_QA, IRS), ...ownQuestions("filings", FILINGS_QA, FILINGS));
  // the sealed set is read only by an issue's final bench (BENCH_SEALED=1): no decision looks at it
  if (process.env.BENCH_SEALED)
    questions.push(
      ...ownQuestions("sealed irs", SEALED_QA, IRS).filter((q) => existsSync(q.path)),
      ...ownQuestions("sealed filings", SEALED_QA, FILINGS).filter((q) => existsSync(q.path)),
    );
  return questions;
}

/** One of our own QA sets (bench/qa): group "<set> dev" or "<set> heldout"; none without its PDFs. */
function ownQuestions(set: string, qa: string, dir: string): EvalQuestion[] {
  if (!existsSync(qa) || !existsSync(dir)) return [];
  return readJsonl<{ id: string; split: string; file: string; question: string; evidence_pages: number[]; answer_patterns: string[] }>(
    qa,
  ).map((q) => ({
    id: q.id,
    group: q.split === "sealed" ? set : `${set} ${q.split}`,
    path: join(dir, q.file),
    question: q.question,
    evidence: q.evidence_pages,
    facts: q.answer_patterns.map((p) => new RegExp(p, "i")),
  }));
}

export interface QuestionResult {
  id: string;
  group: string;
  file: string;
  /** 1-based */
  evidence: number[];
  /** pages of the first 5 cited sources, ordered by [n] */
  ours: number[];
  /** the baseline's top 5 pages, best first */
  baseline: number[];
  answer: string;
  /** the answer's sources as the reader sees them */
  sources: Source[];
  /** null when the question has no fact pattern */
  factInAnswer: boolean | null;
  firstTokenMs: number | null;
  error?: string;
}

export interface GroupFigures {
  group: string;
  questions: number;
  ours: Hits;
  baseline: Hits;
  /** questions whose fact was found in the answer, of those with a fact pattern */
  facts: { found: number; of: number };
  medianWords: number;
  /** answers whose lead is a fragment or whose citations a reader cannot follow (lead-defects.ts) */
  defectiveLeads: number;
}

export interface Hits {
  at1: number;
  at5: number;
}

export interface RetrievalFigures {
  server: string;
  groups: GroupFigures[];
  medianFirstTokenMs: number;
  medianBaselineQueryMs: number;
  results: QuestionResult[];
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/* ------------------------------------------------------------------ product */

/** A free loopback port (the OS picks one; the reserved dev ports are skipped). */
export async function freePort(): Promise<number> {
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

/** `wrangler d1 migrations apply` into the state directory persistTo. */
function applyMigrations(persistTo: string): void {
  // --config: without it wrangler follows .wrangler/deploy/config.json to the last
  // production build in dist/, not to the sources under test.
  const args = ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--config", "wrangler.jsonc", "--persist-to", persistTo];
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
    if (process.env.BENCH_ECHO) process.stderr.write(data); // BENCH_ECHO=1: the product's own output, for debugging a bench
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
 * The whole product as `npm run dev` runs it (vite dev: the React app, the
 * Worker API and the chat sockets) on fresh state in a temp dir, removed when
 * it stops. `env`: more variables for it (bench/workerd-profile.ts sets DOCCHAT_INSPECTOR_PORT).
 */
export async function startProduct(env: Record<string, string> = {}): Promise<Product> {
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
    const port = await freePort();
    return await serve(
      "vite dev (npm run dev, fresh state)",
      ["vite", "dev"],
      port,
      { ...env, PORT: String(port), DOCCHAT_STATE_DIR: state },
      removeState,
    );
  } catch (err) {
    removeState();
    throw err;
  }
}

/* ---------------------------------------------------------------- API calls */

export async function api<T = any>(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<T> {
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

/** A paid plan through the test checkout: the benchmark asks more questions than the free plan's daily messages. */
export async function subscribe(base: string, token: string, email: string): Promise<void> {
  const { url } = await api<{ url: string }>(base, "POST", "/api/payment/create-checkout-session", {
    token,
    body: { planId: "yearly", email },
  });
  const pay = await fetch(`${base}/dev/checkout/pay`, {
    method: "POST",
    body: new URLSearchParams(new URL(url, base).searchParams),
    redirect: "manual",
  });
  if (pay.status !== 303) throw new Error(`test checkout: ${pay.status} ${await pay.text()}`);
}

/** The real upload path: upload link -> PUT to it -> index. Returns the file id and s3Key. */
export async function upload(
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

export async function waitIndexed(base: string, token: string, fileName: string, fileId: string): Promise<void> {
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
export function ask(
  base: string,
  token: string,
  email: string,
  query: string,
  s3Key: string,
): Promise<{ sources: Source[]; content: string; firstTokenMs: number | null; mode: string }> {
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
    ws.addEventListener("open", () => {
      sentAt = performance.now();
      ws.send(JSON.stringify({ action: "chat", query, session_id: sessionId, s3_key: s3Key, token }));
    });
    ws.addEventListener("message", (event) => {
      const frame = JSON.parse(String(event.data)) as ServerMessage;
      if (frame.type === "stream" && firstTokenMs === null) firstTokenMs = performance.now() - sentAt;
      else if (frame.type === "end")
        finish(() => resolve({ sources: frame.message.sources ?? [], content: frame.message.content, firstTokenMs, mode: frame.mode }));
      else if (frame.type === "error") finish(() => reject(new Error(`error frame ${frame.code}: ${frame.message}`)));
    });
    ws.addEventListener("error", () => finish(() => reject(new Error("websocket error"))));
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

export function summarise(results: QuestionResult[]): GroupFigures[] {
  const groups = [...new Set(results.map((r) => r.group))];
  return groups.map((group) => {
    const rs = results.filter((r) => r.group === group);
    const scored = rs.filter((r) => r.factInAnswer !== null);
    return {
      group,
      questions: rs.length,
      ours: score(rs, (r) => r.ours),
      baseline: score(rs, (r) => r.baseline),
      facts: { found: scored.filter((r) => r.factInAnswer).length, of: scored.length },
      medianWords: median(rs.filter((r) => !r.error).map((r) => wordCount(r.answer))),
      defectiveLeads: rs.filter((r) => !r.error && leadDefects(r.answer, r.sources).length).length,
    };
  });
}

function printTable(results: QuestionResult[]): void {
  const rows = results.map((r) => [
    r.id,
    r.group,
    r.file,
    r.evidence.join(","),
    r.error ? `ERROR ${r.error}` : r.ours.join(",") || "-",
    r.baseline.join(",") || "-",
    r.factInAnswer === null ? "" : r.factInAnswer ? "fact" : "-",
    r.firstTokenMs === null ? "-" : r.firstTokenMs.toFixed(0),
  ]);
  const header = ["id", "set", "file", "evidence", "ours (cited)", "baseline (top 5)", "fact", "ttft ms"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  console.log(["", line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line), ""].join("\n"));
}

export async function benchRetrieval(): Promise<RetrievalFigures | null> {
  const only = process.env.BENCH_GROUPS?.split(",").map((g) => g.trim());
  const questions = loadQuestions().filter((q) => !only || only.some((g) => q.group.startsWith(g)));
  if (questions.length === 0) return null;
  const paths = [...new Set(questions.map((q) => q.path))];
  const name = (path: string) => path.split("/").pop()!;

  const product = await startProduct();
  try {
    console.log(`retrieval bench: ${product.label} at ${product.base}`);
    const email = `bench-${Date.now()}@example.com`;
    const { token } = await api<{ token: string }>(product.base, "POST", "/api/auth/signup", { body: { email, password: PASSWORD } });
    await subscribe(product.base, token, email);

    // Uploads go first so the Queue consumer indexes while the baseline extracts.
    const uploads = new Map<string, { fileId: string; s3Key: string }>();
    for (const path of paths) uploads.set(path, await upload(product.base, token, name(path), new Uint8Array(readFileSync(path))));
    const baseline = new PageIndex();
    for (const path of paths) await baseline.add(path, new Uint8Array(readFileSync(path))); // pdf.js detaches its buffer: pass a copy
    const indexStart = performance.now();
    await Promise.all(paths.map((path) => waitIndexed(product.base, token, name(path), uploads.get(path)!.fileId)));
    console.log(
      `retrieval bench: ${paths.length} files indexed (${((performance.now() - indexStart) / 1000).toFixed(1)} s after the last upload)`,
    );

    const results: QuestionResult[] = [];
    const baselineMs: number[] = [];
    for (const q of questions) {
      const t = performance.now();
      const base = baseline.search(q.path, q.question);
      baselineMs.push(performance.now() - t);
      const result: QuestionResult = {
        id: q.id,
        group: q.group,
        file: name(q.path),
        evidence: q.evidence,
        ours: [],
        baseline: base,
        answer: "",
        sources: [],
        factInAnswer: null,
        firstTokenMs: null,
      };
      try {
        const answer = await ask(product.base, token, email, q.question, uploads.get(q.path)!.s3Key);
        if (answer.mode !== "local") console.warn(`retrieval bench: answered in ${answer.mode} mode, not local`);
        result.ours = answer.sources.slice(0, TOP).map((s) => s.page);
        result.answer = answer.content;
        result.sources = answer.sources;
        result.firstTokenMs = answer.firstTokenMs;
        if (q.facts.length) result.factInAnswer = q.facts.some((f) => f.test(answer.content.replace(/\s+/g, " ")));
      } catch (err) {
        result.error = (err as Error).message; // counts as a miss
        if (q.facts.length) result.factInAnswer = false;
      }
      results.push(result);
    }
    printTable(results);

    const ttft = results.flatMap((r) => (r.firstTokenMs === null ? [] : [r.firstTokenMs]));
    return {
      server: product.label,
      groups: summarise(results),
      medianFirstTokenMs: median(ttft),
      medianBaselineQueryMs: median(baselineMs),
      results,
    };
  } finally {
    await product.stop();
  }
}
