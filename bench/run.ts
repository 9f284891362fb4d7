// `npm run bench`: runs each measurement and writes docs/PERFORMANCE.md with the
// machine, the date, the figures and their ratio to a reference from the same run.
import { writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { benchIngest } from "./ingest";
import { benchBundle } from "./bundle";
import { benchRetrieval } from "./retrieval";

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

const ingest = await benchIngest();
const retrieval = await benchRetrieval();
const pct = (hits: number, of: number) => `${hits}/${of} (${fmt((100 * hits) / of)}%)`;
const lines = [
  "# Performance",
  "",
  "Written by `npm run bench`; do not edit by hand.",
  "",
  `- Date: ${new Date().toISOString()}`,
  `- Machine: ${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} cores, ${fmt(totalmem() / 1024 ** 3, 1)} GiB RAM`,
  `- Runtime: Node ${process.version} (V8, the engine workerd runs)`,
  "",
  "## Ingestion (the Queue consumer's extraction + chunking)",
  "",
];
if (!ingest) {
  lines.push("Skipped: ../shared/corpus/irs/p17.pdf is not present.");
} else {
  lines.push(
    "Reference: a bare unpdf `extractText` of the same file in the same run. Median of 3 runs.",
    "",
    "| file | pages | chunks | reference ms | ours ms | ratio | pages/s | peak live heap |",
    "|---|---|---|---|---|---|---|---|",
    `| ${ingest.file} | ${ingest.pages} | ${fmt(ingest.chunks)} | ${fmt(ingest.referenceMs)} | ${fmt(ingest.oursMs)} | ${fmt(ingest.oursMs / ingest.referenceMs, 2)} | ${fmt(ingest.pagesPerSecond)} | ${fmt(ingest.peakHeapMb, 1)} MB |`,
    "",
    `Workers limits: the consumer has 30 s of CPU by default (up to 5 min configurable) and 128 MB of memory;`,
    `this document needs ${fmt(ingest.oursMs / 1000, 1)} s and about ${fmt(ingest.peakHeapMb, 0)} MB of heap for extraction and chunking.`,
  );
}
lines.push("", "## Retrieval quality (FinanceBench subset)", "");
if (!retrieval) {
  lines.push("Skipped: ../shared/corpus/sec_financebench/qa_subset_for_included_pdfs.jsonl is not present.");
} else {
  const n = retrieval.questions;
  lines.push(
    `${n} FinanceBench questions over the 8 SEC filings of ../shared/corpus/sec_financebench, each asked in its own chat`,
    `with its filing attached. Ours: the real product (${retrieval.server}, fresh state, the local extractive responder),`,
    "the pages of the sources the answer cites, in citation order. Baseline, in the same run: one FTS5 row per PDF page",
    "(same tokenizer), the question's words OR-ed, BM25 top 5 pages of the same filing.",
    "hit@1: the first cited source / top page is an evidence page; hit@5: any of the first 5 is.",
    "",
    "| | hit@1 | hit@5 | median time to first token |",
    "|---|---|---|---|",
    `| local mode (chat path) | ${pct(retrieval.ours.at1, n)} | ${pct(retrieval.ours.at5, n)} | ${fmt(retrieval.medianFirstTokenMs)} ms |`,
    `| baseline: page-level FTS5 BM25 | ${pct(retrieval.baseline.at1, n)} | ${pct(retrieval.baseline.at5, n)} | n/a (query ${fmt(retrieval.medianBaselineQueryMs, 1)} ms) |`,
    "",
    "Time to first token: from sending the chat frame to the first `stream` frame over a loopback websocket, i.e. our own",
    "overhead (auth, quota, retrieval, first word of the local responder); a model adds its own latency on top.",
  );
}
const bundle = await benchBundle();
lines.push(
  "",
  "## Client bundle (first visit, gzip)",
  "",
  "Reference: a page that only renders with React + react-dom, built with Vite in the same run.",
  "",
  "| | JavaScript | CSS | ratio (JS) |",
  "|---|---|---|---|",
  `| DocChat (home page; ${bundle.lazyChunks} other chunks load on demand) | ${fmt(bundle.oursJsKb, 1)} kB | ${fmt(bundle.oursCssKb, 1)} kB | ${fmt(bundle.oursJsKb / bundle.referenceJsKb, 2)} |`,
  `| reference: React + react-dom only | ${fmt(bundle.referenceJsKb, 1)} kB | - | 1.00 |`,
);
writeFileSync(join(import.meta.dirname, "../docs/PERFORMANCE.md"), `${lines.join("\n")}\n`);
console.log(lines.join("\n"));
