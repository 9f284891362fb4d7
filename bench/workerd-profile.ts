// Where the product's CPU goes inside workerd (the runtime that serves every
// Worker and Durable Object locally, on one thread): a CPU profile taken through
// workerd's DevTools inspector while a scenario runs on `npm run dev` (fresh state).
// bench/turn-profile.ts times a turn's modules in Node; this one also sees what
// only workerd does (D1 and Durable Object calls, sockets, the runtime's glue).
//
//   node --import tsx --import ./bench/wasm-modules.mjs bench/workerd-profile.ts [turns|indexing|bare]
//
// turns: 5 users with the 1040 instructions indexed, 50 sessions asking at once
// (as bench/load.ts), profiled during the asking. indexing: Pub 17 uploaded and
// indexed, profiled until it is. bare: the bench's reference (a bare unpdf
// extraction of Pub 17 in the same workerd), to set beside indexing. Prints self time per function and per source
// (ours, drizzle, PDFium, the runtime...) and writes the whole profile to
// /tmp/workerd-<scenario>-<worker>.cpuprofile (open it in Chrome DevTools), and the
// longest stretches the isolate was busy without a break, by frame of ours.
// indexing profiles both Workers: the ingestion Worker reads the PDF, the API
// Worker's Library chunks and indexes it; the others profile the API Worker.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CORPUS } from "./ingest";
import { account, openChat } from "./load";
import { freePort, startProduct, upload, waitIndexed } from "./product";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** A Chrome DevTools Protocol session with one of the product's Worker isolates (by its name). */
async function inspect(port: number, worker: string) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string; title?: string }[];
  const target = targets.find((t) => t.title === `Cloudflare Worker: ${worker}`);
  if (!target) throw new Error(`workerd's inspector lists no Worker ${worker}`);
  // the inspector proxy admits DevTools only: an Origin of its own host (Node's WebSocket takes undici's headers option)
  const ws = new WebSocket(target.webSocketDebuggerUrl, { headers: { Origin: "http://localhost" } } as unknown as string[]);
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve);
    ws.addEventListener("error", reject);
  });
  ws.addEventListener("close", (event) => {
    for (const reject of failures.splice(0)) reject(new Error(`the inspector closed the connection (${event.code})`));
  });
  let nextId = 1;
  const pending = new Map<number, (result: unknown) => void>();
  const failures: ((err: Error) => void)[] = [];
  ws.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id && pending.has(message.id)) pending.get(message.id)!(message.result);
  });
  const send = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve, reject) => {
      failures.push(reject);
      const id = nextId++;
      pending.set(id, resolve as (result: unknown) => void);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => ws.close() };
}

/** The source a frame belongs to, by its script's path. */
function sourceOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(runtime)";
  if (url.startsWith("wasm://")) return "(WebAssembly: PDFium)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const ours = /\/(worker\/[^?]+)/.exec(url);
  return ours ? ours[1]! : url.replace(/^.*\//, "");
}

function summarise(profile: Profile, top = 30): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const total = (profile.endTime - profile.startTime) / 1000;
  const byFunction = new Map<string, number>();
  const bySource = new Map<string, number>();
  for (const [id, ms] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const source = sourceOf(url, functionName);
    const key = `${functionName || "(anonymous)"}  ${source}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    bySource.set(source, (bySource.get(source) ?? 0) + ms);
  }
  const table = (rows: Map<string, number>, n: number) =>
    [...rows]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, ms]) => `${ms.toFixed(1).padStart(9)} ms  ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${key}`)
      .join("\n");
  return `profiled ${total.toFixed(0)} ms\n\nself time by source:\n${table(bySource, 20)}\n\nself time by function:\n${table(byFunction, top)}`;
}

/**
 * The longest stretches the isolate was busy without a break (what a request
 * arriving then waits for), each with its busy time grouped by the innermost
 * frame of ours (worker/...) on the stack, or the top frames when none is.
 */
function longestTasks(profile: Profile, top = 10, gapMs = 1): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode) =>
    `${n.callFrame.functionName || "(anonymous)"} ${sourceOf(n.callFrame.url, n.callFrame.functionName)}:${n.callFrame.lineNumber + 1}`;
  const owner = (id: number) => {
    const chain: ProfileNode[] = [];
    for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) chain.push(byId.get(x)!);
    const ours = chain.find((n) => /\/worker\//.test(n.callFrame.url));
    return ours ? label(ours) : `(none of ours) ${chain.slice(0, 2).map(label).join(" < ")}`;
  };
  interface Task {
    start: number;
    end: number;
    frames: Map<string, number>;
  }
  const tasks: Task[] = [];
  let t = 0;
  let current: Task | null = null;
  profile.samples.forEach((id, i) => {
    const delta = (profile.timeDeltas[i] ?? 0) / 1000;
    t += delta;
    const idle = byId.get(id)!.callFrame.functionName === "(idle)";
    if (idle) {
      if (current && t - current.end > gapMs) current = null;
      return;
    }
    if (!current) tasks.push((current = { start: t - delta, end: t, frames: new Map() }));
    current.end = t;
    const key = owner(id);
    current.frames.set(key, (current.frames.get(key) ?? 0) + delta);
  });
  return tasks
    .sort((a, b) => b.end - b.start - (a.end - a.start))
    .slice(0, top)
    .map((task) => {
      const frames = [...task.frames]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([key, ms]) => `      ${ms.toFixed(1).padStart(7)} ms  ${key}`)
        .join("\n");
      return `${(task.end - task.start).toFixed(1).padStart(7)} ms busy at ${task.start.toFixed(0)} ms\n${frames}`;
    })
    .join("\n");
}

async function main() {
  const scenario = process.argv[2] ?? "turns";
  const inspectorPort = await freePort();
  const product = await startProduct({ DOCCHAT_INSPECTOR_PORT: String(inspectorPort) });
  const { base } = product;
  try {
    console.log(`product at ${base}, inspector at ${inspectorPort}`);
    const users = await Promise.all(Array.from({ length: 5 }, (_, i) => account(base, `profile-${i}`)));
    console.log("users ready");
    const workers = scenario === "indexing" ? ["docchat-ingest", "docchat"] : ["docchat"];
    const inspectors = await Promise.all(workers.map((worker) => inspect(inspectorPort, worker)));
    console.log(`inspector attached to ${workers.join(", ")}`);
    const all = <T>(method: string, params?: object) => Promise.all(inspectors.map((i) => i.send<T>(method, params)));
    await all("Profiler.enable");
    await all("Profiler.setSamplingInterval", { interval: 100 });
    const stop = async () => (await all<{ profile: Profile }>("Profiler.stop")).map((r) => r.profile);
    let profiles: Profile[];
    if (scenario === "indexing") {
      // warm-up (not profiled): the 1040 instructions indexed first, so vite has loaded the indexing code
      const warm = await upload(base, users[1]!.token, "i1040gi.pdf", new Uint8Array(readFileSync(join(CORPUS, "irs/i1040gi.pdf"))));
      await waitIndexed(base, users[1]!.token, "i1040gi.pdf", warm.fileId);
      await all("Profiler.start");
      const doc = await upload(base, users[0]!.token, "p17.pdf", new Uint8Array(readFileSync(join(CORPUS, "irs/p17.pdf"))));
      await waitIndexed(base, users[0]!.token, "p17.pdf", doc.fileId);
      profiles = await stop();
    } else if (scenario === "bare") {
      // the bench's reference: Pub 17 through a bare unpdf extraction (worker/dev/bench-reference.ts), after one warm-up
      const bytes = readFileSync(join(CORPUS, "irs/p17.pdf"));
      const extract = () => fetch(`${base}/dev/bench/bare-extraction`, { method: "POST", body: bytes.slice() });
      await (await extract()).arrayBuffer();
      await all("Profiler.start");
      console.log(`bare extraction: ${await (await extract()).text()}`);
      profiles = await stop();
    } else {
      const keys: string[] = [];
      for (const user of users) {
        const doc = await upload(base, user.token, "i1040gi.pdf", new Uint8Array(readFileSync(join(CORPUS, "irs/i1040gi.pdf"))));
        await waitIndexed(base, user.token, "i1040gi.pdf", doc.fileId);
        keys.push(doc.s3Key);
      }
      const chats = await Promise.all(Array.from({ length: 50 }, (_, i) => openChat(base, users[i % 5]!)));
      await Promise.all(chats.map((c, i) => c.ask(keys[i % 5]!))); // warm-up: every chat's object and Library awake
      await all("Profiler.start");
      const firsts = await Promise.all(chats.map((c, i) => c.ask(keys[i % 5]!)));
      profiles = await stop();
      firsts.sort((a, b) => a - b);
      console.log(`50 sessions: first chunk p50 ${firsts[25]!.toFixed(0)} ms, max ${firsts[49]!.toFixed(0)} ms`);
      chats.forEach((c) => c.close());
    }
    for (const inspector of inspectors) inspector.close();
    profiles.forEach((profile, i) => {
      const file = `/tmp/workerd-${scenario}-${workers[i]}.cpuprofile`;
      writeFileSync(file, JSON.stringify(profile));
      console.log(`\n== ${workers[i]} ==\n${summarise(profile)}`);
      console.log(`\nlongest busy stretches (a request arriving then waits this long):\n${longestTasks(profile)}`);
      console.log(`\nwhole profile: ${file}`);
    });
  } finally {
    await product.stop();
  }
}

await main();
