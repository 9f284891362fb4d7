// The product as the benchmarks use it: `npm run dev`'s vite dev on fresh state, started and
// stopped by startProduct(), and the calls a user's client makes to it (sign-up's password,
// the test checkout, the upload path, a chat turn over the websocket).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerMessage, TicketResponse, Source } from "../worker/contract/protocol";

const ROOT = join(import.meta.dirname, "..");
export const PASSWORD = "Secret123";
/** Ports the team's own dev servers use; never take them. */
const RESERVED_PORTS = new Set([5173, 5180]);

const SERVER_START_MS = 120_000;
const INDEX_TIMEOUT_MS = 180_000;
const CHAT_TIMEOUT_MS = 60_000;

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

/** As `npm run dev` sets them: no request.cf download, and no local trace store (every request's trace written to SQLite). */
const childEnv = {
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  X_LOCAL_OBSERVABILITY: "false",
  WRANGLER_SEND_METRICS: "false",
  NO_COLOR: "1",
};

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

interface IndexingStatus {
  status: string;
  pagesDone: number;
  error: string | null;
}

/**
 * Status polls a fresh dev server may drop: on a cold disk cache workerd has reset one connection
 * while PDFium first loads ("fetch failed", ECONNRESET), and the file went on to index. A poll reads
 * only; My Files polls again too. More failures in a row than this are the product's.
 */
const DROPPED_POLLS = 3;

/** Polls a file's indexing status: `next()` is its status now, or null for a poll the server dropped. */
export function statusPoller(base: string, token: string, fileId: string): { next(): Promise<IndexingStatus | null> } {
  let dropped = 0;
  return {
    next: () =>
      api<IndexingStatus>(base, "GET", `/api/documents/indexingStatus?file_id=${fileId}`, { token }).then(
        (status) => ((dropped = 0), status),
        (err: Error) => {
          if (++dropped > DROPPED_POLLS) throw err;
          return null;
        },
      ),
  };
}

export async function waitIndexed(base: string, token: string, fileName: string, fileId: string): Promise<void> {
  const deadline = Date.now() + INDEX_TIMEOUT_MS;
  const poller = statusPoller(base, token, fileId);
  while (Date.now() < deadline) {
    const s = await poller.next();
    if (s?.status === "indexed") return;
    if (s?.status === "failed") throw new Error(`${fileName} failed to index: ${s.error}`);
    await sleep(500);
  }
  throw new Error(`${fileName} was not indexed within ${INDEX_TIMEOUT_MS / 1000} s`);
}

/** A chat socket as the client opens one: a single-use ticket for this session in its URL, never the sign-in token. */
export async function chatSocket(base: string, token: string, sessionId: string): Promise<WebSocket> {
  const { ticket } = await api<TicketResponse>(base, "POST", "/api/chat/ticket", { token, body: { session_id: sessionId } });
  return new WebSocket(`${base.replace(/^http/, "ws")}/ws?session_id=${encodeURIComponent(sessionId)}&token=${encodeURIComponent(ticket)}`);
}

/** One chat turn on a fresh session: the cited sources and the time from sending to the first `stream` frame. */
export async function ask(
  base: string,
  token: string,
  email: string,
  query: string,
  s3Key: string,
): Promise<{ sources: Source[]; content: string; firstTokenMs: number | null; mode: string }> {
  const sessionId = `${email}-${crypto.randomUUID()}`;
  const ws = await chatSocket(base, token, sessionId);
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
