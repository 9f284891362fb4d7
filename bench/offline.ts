// The retrieval and the local answer, offline: the product's own modules
// (extraction, chunking, the Library's index, retrieval, the local responder)
// with the Library's index over an in-memory SQLite (node:sqlite). Seconds
// per run instead of minutes, so retrieval changes can be tried and measured on
// the dev questions; the chat-path benchmark (retrieval.ts) confirms the result.
//
// `npm run bench:offline` (BENCH_GROUPS=irs dev to narrow it; SCOPE=all asks each question over
// all the files, as a chat with none attached; ablations: HEADINGS=1, UNSTEMMED=<weight> for a
// second, unstemmed full-text index) prints, per set:
// retrieval hit@1 / hit@5 over the passages the answer is given, the answer's
// cited hit@1 (its first citation) and hit@3 (any citation), fact in answer and
// the median answer length.
import { basename } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { chunkPage } from "../worker/library/chunker";
import { LibraryIndex, type ChunkHit, type SqlParam } from "../worker/library/library-index";
import type { LibraryBinding } from "../worker/library/stub";
import { localAnswer } from "../worker/answer/writer/local-writer";
import { RETRIEVAL_TUNING, retrievePassages, type RetrievalTuning } from "../worker/answer/ranking/retrieval";
import { citeAnswer } from "../worker/answer/citations";
import { verifyAnswer, type SentenceCheck } from "../worker/answer/verify";
import { ftsMatchExpression } from "../worker/answer/question/terms";
import { wordCount } from "../worker/answer/passages/sentences";
import { cachedPages } from "./ingest";
import { loadQuestions, type EvalQuestion } from "./qa-sets";
import { median } from "./retrieval";
import { leadDefects } from "./lead-defects";
import type { Source } from "../worker/contract/protocol";

const USER = "bench-user";

/** A user's Library as retrieval reaches it, over node:sqlite (the product runs the same LibraryIndex in a Durable Object). */
export function memoryLibrary(): { index: LibraryIndex; env: LibraryBinding } {
  const db = new DatabaseSync(":memory:");
  const index = new LibraryIndex({
    rows: <T>(query: string, ...params: SqlParam[]) => {
      const statement = db.prepare(query);
      return (statement.columns().length ? statement.all(...params) : (statement.run(...params), [])) as T[];
    },
    transaction: (fn) => {
      db.exec("BEGIN");
      try {
        fn();
        db.exec("COMMIT");
      } catch (err) {
        db.exec("ROLLBACK");
        throw err;
      }
    },
  });
  // ablation: a second, unstemmed full-text index beside the porter-stemmed one, its BM25 added with a weight
  const unstemmed = Number(process.env.UNSTEMMED ?? 0);
  if (unstemmed) {
    db.exec(`CREATE VIRTUAL TABLE chunks_fts_plain USING fts5(text, content='chunks', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
      CREATE TRIGGER chunks_fts_plain_insert AFTER INSERT ON chunks BEGIN INSERT INTO chunks_fts_plain(rowid, text) VALUES (new.rowid, new.text); END;`);
  }
  const searchBoth = (question: string, ids: string[] | null, limit: number): ChunkHit[] => {
    const match = ftsMatchExpression(question);
    if (!match || !ids?.length) return [];
    return db
      .prepare(
        `SELECT c.id, c.document_id, d.file_name, c.page, c.text, c.char_start, c.char_end, c.recognised, c.column_heads
         FROM chunks_fts CROSS JOIN chunks c ON c.rowid = chunks_fts.rowid CROSS JOIN documents d ON d.id = c.document_id
         LEFT JOIN (SELECT rowid, bm25(chunks_fts_plain) AS plain FROM chunks_fts_plain WHERE chunks_fts_plain MATCH ?) u ON u.rowid = c.rowid
         WHERE chunks_fts MATCH ? AND c.document_id IN (${ids.map(() => "?").join(", ")})
         ORDER BY bm25(chunks_fts) + ? * COALESCE(u.plain, 0) ASC LIMIT ?`,
      )
      .all(match, match, ...ids, unstemmed, Math.floor(limit)) as unknown as ChunkHit[];
  };
  const stub = {
    search: async (question: string, ids: string[] | null, limit: number) =>
      unstemmed ? searchBoth(question, ids, limit) : index.search(question, ids, limit),
    chunks: async (ids: string[], scope: string[] | null) => index.chunks(ids, scope),
  };
  const namespace = { idFromName: () => USER, get: () => stub };
  return { index, env: { LIBRARY: namespace as unknown as LibraryBinding["LIBRARY"] } };
}

export async function index(library: LibraryIndex, documentId: string, path: string): Promise<void> {
  const pages = await cachedPages(path);
  library.enqueue(documentId, basename(path));
  const run = library.begin(documentId)!;
  library.addChunks(
    pages.flatMap((text, i) =>
      chunkPage(text).map((c) => {
        // ablation: the page's last heading before the chunk, carried into its indexed text
        const heading = process.env.HEADINGS ? headingBefore(text, c.text.slice(0, 40)) : "";
        return { ...c, id: `${documentId}:${i + 1}:${c.ord}`, documentId, page: i + 1, text: heading ? `${heading}. ${c.text}` : c.text };
      }),
    ),
  );
  library.finish(documentId, run.runId);
}

/** The last heading-like line (short, no closing punctuation, capitalised words) before `anchor` on the page. */
function headingBefore(page: string, anchor: string): string {
  const flat = page.replace(/\s+/g, " ");
  const at = flat.indexOf(anchor.replace(/\s+/g, " "));
  let seen = 0;
  let heading = "";
  for (const raw of page.split("\n")) {
    const line = raw.replace(/\s+/g, " ").trim();
    seen += line.length + 1;
    if (at >= 0 && seen > at + 1) break;
    const words = line.split(" ");
    const capitalised = words.filter((w) => /^[A-Z]/.test(w)).length;
    if (words.length <= 8 && /^[A-Z]/.test(line) && !/[.,;:]$/.test(line) && capitalised >= Math.ceil(words.length / 2)) heading = line;
  }
  return heading;
}

export interface OfflineResult {
  question: EvalQuestion;
  retrieved: number[];
  cited: number[];
  /** the page of the answer's first citation in reading order */
  lead: number | null;
  answer: string;
  /** the answer's sources as the reader sees them */
  sources: Source[];
  /** its sentences not found on the pages they cite (verify.ts): a local answer has none */
  unsupported: SentenceCheck[];
  fact: boolean | null;
  /** whether the lead (the answer's first line) states it */
  leadFact: boolean | null;
  /** the passages' texts, for diagnosing an answer */
  texts: string[];
}

/** The questions' files indexed once; `run` answers them with a given retrieval tuning. */
export async function offlineProduct(questions: EvalQuestion[]) {
  const { index: library, env } = memoryLibrary();
  const ids = new Map<string, string>();
  for (const path of new Set(questions.map((q) => q.path))) {
    const id = `doc-${ids.size + 1}`;
    ids.set(path, id);
    await index(library, id, path);
  }
  return {
    /** `allFiles`: every question asked over all the files, as in a chat with none attached (else over its own file) */
    run: (tuning: RetrievalTuning = RETRIEVAL_TUNING, allFiles = process.env.SCOPE === "all") =>
      answerAll(env, ids, questions, tuning, allFiles),
  };
}

/** Whether a text states the question's fact (null when the question has no fact to find). */
const statesFact = (q: EvalQuestion, text: string) => (q.facts.length ? q.facts.some((f) => f.test(text.replace(/\s+/g, " "))) : null);

async function answerAll(
  env: LibraryBinding,
  ids: Map<string, string>,
  questions: EvalQuestion[],
  tuning: RetrievalTuning,
  allFiles: boolean,
) {
  const results: OfflineResult[] = [];
  for (const q of questions) {
    const documentIds = allFiles ? [...ids.values()] : [ids.get(q.path)!];
    const passages = await retrievePassages(env, { userId: USER, documentIds, question: q.question, tuning });
    // as the reader sees it: sources numbered in order of first use, so [1] is the lead's
    const {
      text: answer,
      sources,
      cited,
    } = citeAnswer(localAnswer({ question: q.question, passages, history: [], anonymous: false }), passages);
    // a page of another file is no evidence page (0)
    const own = ids.get(q.path)!;
    const pageOf = (p: { fileId: string; page: number }) => (p.fileId === own ? p.page : 0);
    results.push({
      question: q,
      retrieved: passages.map((p) => pageOf({ fileId: p.documentId, page: p.page })),
      cited: sources.map(pageOf),
      lead: sources[0] ? pageOf(sources[0]) : null,
      sources,
      unsupported: verifyAnswer(answer, cited).checks.filter((c) => c.status === "unsupported"),
      answer,
      fact: statesFact(q, answer),
      leadFact: statesFact(q, answer.split("\n")[0]!),
      texts: passages.map((p) => p.text),
    });
  }
  return results;
}

export function summariseOffline(results: OfflineResult[]) {
  const groups = [...new Set(results.map((r) => r.question.group))];
  return groups.map((group) => {
    const rs = results.filter((r) => r.question.group === group);
    const hit = (pages: number[], r: OfflineResult) => pages.some((p) => r.question.evidence.includes(p));
    const scored = rs.filter((r) => r.fact !== null);
    return {
      set: group,
      n: rs.length,
      "retrieved hit@1": rs.filter((r) => hit(r.retrieved.slice(0, 1), r)).length,
      "retrieved hit@5": rs.filter((r) => hit(r.retrieved.slice(0, 5), r)).length,
      "lead hit": rs.filter((r) => r.lead !== null && r.question.evidence.includes(r.lead)).length,
      "cited hit": rs.filter((r) => hit(r.cited, r)).length,
      facts: `${scored.filter((r) => r.fact).length}/${scored.length}`,
      "fact in lead": `${scored.filter((r) => r.leadFact).length}/${scored.length}`,
      "median words": median(rs.map((r) => wordCount(r.answer))),
      "defective leads": rs.filter((r) => leadDefects(r.answer, r.sources).length).length,
      "unsupported answers": rs.filter((r) => r.unsupported.length).length,
    };
  });
}

/** The offline figures for docs/PERFORMANCE.md, each question over its own file and over all of them (null without the QA sets). */
export async function benchOffline() {
  const questions = loadQuestions();
  if (questions.length === 0) return null;
  const product = await offlineProduct(questions);
  return {
    ownFile: summariseOffline(await product.run(RETRIEVAL_TUNING, false)),
    allFiles: summariseOffline(await product.run(RETRIEVAL_TUNING, true)),
  };
}

/**
 * The tries of the ablation table: each changes one knob of the kept tuning. Strategies tried and
 * retired (page score by summed ranks, query expansion, best-sentence chunk per page, neighbouring
 * chunks) keep their rows in bench/ablations.json; their code is gone.
 */
const TRIES: [string, Partial<RetrievalTuning>][] = [
  ["no best-sentence re-rank, 24 candidates (before)", { sentenceRerank: false, candidates: 24 }],
  ["re-rank 24 candidates by best sentence", { candidates: 24 }],
];

if (process.argv[1]?.endsWith("offline.ts")) {
  const only = process.env.BENCH_GROUPS?.split(",").map((g) => g.trim());
  const questions = loadQuestions().filter((q) => !only || only.some((g) => q.group.startsWith(g)));
  const started = performance.now();
  const product = await offlineProduct(questions);
  if (process.env.ABLATE) {
    const rows: Record<string, string | number>[] = [];
    const tries = process.env.ABLATE === "kept" ? [] : TRIES;
    for (const [name, change] of [["kept tuning", {}] as [string, Partial<RetrievalTuning>], ...tries]) {
      for (const g of summariseOffline(await product.run({ ...RETRIEVAL_TUNING, ...change }))) rows.push({ try: name, ...g });
    }
    console.table(rows);
  } else {
    const results = await product.run();
    if (process.env.VERBOSE) {
      for (const r of results) {
        const hit = r.retrieved.slice(0, 5).some((p) => r.question.evidence.includes(p));
        const defects = leadDefects(r.answer, r.sources);
        console.log(
          `${hit ? "  " : "X "}${r.question.id} [${r.question.evidence}] got [${r.retrieved.slice(0, 5)}] lead=${r.lead} fact=${r.fact}${defects.length ? ` DEFECT(${defects.join(", ")})` : ""} :: ${r.question.question}`,
        );
        for (const check of r.unsupported)
          console.log(`   UNSUPPORTED ${JSON.stringify(check.missing)} :: ${check.sentence.slice(0, 200)}`);
        if (process.env.VERBOSE === "2" || process.env.VERBOSE === "3")
          console.log(`   ${r.answer.replace(/\n/g, " | ").slice(0, process.env.VERBOSE === "3" ? undefined : 300)}`);
      }
    }
    console.table(summariseOffline(results));
  }
  console.log(`${questions.length} questions in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
