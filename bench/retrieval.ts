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
import { readFileSync } from "node:fs";
import type { Source } from "../worker/contract/protocol";
import { wordCount } from "../worker/answer/passages/sentences";
import { leadDefects } from "./lead-defects";
import { PageIndex } from "./page-baseline";
import { api, ask, PASSWORD, startProduct, subscribe, upload, waitIndexed } from "./product";
import { loadQuestions } from "./qa-sets";

const TOP = 5;

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
      const base = baseline.search(q.path, q.question, TOP);
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
