// `npm run bench`: runs each measurement and writes docs/PERFORMANCE.md with the
// machine, the date, the figures and their ratio to a reference from the same run.
import { writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { benchIngest } from "./ingest";

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

const ingest = await benchIngest();
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
writeFileSync(join(import.meta.dirname, "../docs/PERFORMANCE.md"), `${lines.join("\n")}\n`);
console.log(lines.join("\n"));
