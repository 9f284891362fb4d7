// Ingestion benchmark: our extraction + chunking pipeline (the code the Queue
// consumer runs) on the 417-page IRS Publication 17, against the reference of a
// bare unpdf text extraction of the same file, measured in the same run.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { extractText, getDocumentProxy } from "unpdf";
import { chunkPage } from "../worker/library/chunker";
import { extractPdfPages } from "../worker/ingest/extract";

const RUNS = 3;
export const CORPUS = join(import.meta.dirname, "../../shared/corpus");

/** The code that turns a PDF into page texts: a cache of its pages is good only for the same code. */
const EXTRACTOR = createHash("sha256")
  .update(
    ["../worker/ingest/extract.ts", "../worker/ingest/pdfium.ts", "../worker/ingest/ligatures.ts", "../package-lock.json"]
      .map((f) => readFileSync(join(import.meta.dirname, f), "utf8"))
      .join("\n"),
  )
  .digest("hex")
  .slice(0, 12);

/**
 * A PDF's page texts as the product extracts them, cached in the temp dir by file size and time
 * and by the extracting code (extraction is most of a benchmark's time).
 */
export async function cachedPages(path: string): Promise<string[]> {
  const { size, mtimeMs } = statSync(path);
  const cache = join(tmpdir(), `docchat-pages-${EXTRACTOR}-${basename(path)}-${size}-${Math.floor(mtimeMs)}.json`);
  if (existsSync(cache)) return JSON.parse(readFileSync(cache, "utf8")) as string[];
  const { pages } = await extractPdfPages(new Uint8Array(readFileSync(path)), 10_000);
  writeFileSync(cache, JSON.stringify(pages));
  return pages;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The JS heap in use and the memory outside it (PDFium's WebAssembly memory is counted there). */
const memoryInUse = () => {
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
};

/**
 * Runs fn and returns its time. With `liveHeap`, a full GC runs every 25 ms and the
 * peak of the memory that survives it is reported: what the work really holds
 * (slower, so it is a separate run from the timed ones).
 */
async function measure<T>(fn: () => Promise<T>, liveHeap = false): Promise<{ ms: number; peakHeapMb: number; result: T }> {
  globalThis.gc?.();
  const base = memoryInUse();
  let peak = base;
  const timer = setInterval(() => {
    if (liveHeap) globalThis.gc?.();
    peak = Math.max(peak, memoryInUse());
  }, 25);
  const start = performance.now();
  const result = await fn();
  const ms = performance.now() - start;
  clearInterval(timer);
  return { ms, peakHeapMb: (peak - base) / 1024 / 1024, result };
}

export interface IngestFigures {
  file: string;
  pages: number;
  chunks: number;
  referenceMs: number;
  oursMs: number;
  pagesPerSecond: number;
  peakHeapMb: number;
}

export async function benchIngest(file = "irs/p17.pdf"): Promise<IngestFigures | null> {
  const path = join(CORPUS, file);
  if (!existsSync(path)) return null;
  const bytes = readFileSync(path);
  const reference: number[] = [];
  const ours: number[] = [];
  let pages = 0;
  let chunks = 0;
  // pdf.js detaches the buffer it gets: each run has its own copy
  const pipeline = async () => {
    const { pages: text } = await extractPdfPages(new Uint8Array(bytes), 10_000);
    return { pages: text.length, chunks: text.reduce((n, page) => n + chunkPage(page).length, 0) };
  };
  // first: PDFium's memory, which stays once grown, grows with the first PDF read
  const memory = await measure(pipeline, true);
  for (let i = 0; i < RUNS; i++) {
    const ref = await measure(async () => extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: false }));
    reference.push(ref.ms);
    const run = await measure(pipeline);
    ours.push(run.ms);
    ({ pages, chunks } = run.result);
  }
  const oursMs = median(ours);
  return {
    file,
    pages,
    chunks,
    referenceMs: median(reference),
    oursMs,
    pagesPerSecond: pages / (oursMs / 1000),
    peakHeapMb: memory.peakHeapMb,
  };
}
