// The benchmark's QA sets (bench/retrieval.ts and bench/offline.ts ask them): FinanceBench's
// questions over the SEC filings, and our own over the IRS PDFs and the same filings
// (bench/qa), each with its evidence pages and the patterns of the fact it asks for.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CORPUS } from "./ingest";

const ROOT = join(import.meta.dirname, "..");
const FILINGS = join(CORPUS, "sec_financebench");
const FINANCEBENCH_QA = join(FILINGS, "qa_subset_for_included_pdfs.jsonl");
const IRS = join(CORPUS, "irs");
const IRS_QA = join(ROOT, "bench/qa/irs-dev.jsonl");
const FILINGS_QA = join(ROOT, "bench/qa/filings-dev.jsonl");
const SEALED_QA = join(ROOT, "bench/qa/sealed.jsonl");
const FORM_PARTS_QA = join(ROOT, "bench/qa/form-parts.jsonl");
const NATURAL_QA = join(ROOT, "bench/qa/natural.jsonl");
const NATURAL_2_QA = join(ROOT, "bench/qa/natural-2.jsonl");
const FRESH_QA = join(ROOT, "bench/qa/fresh-dev.jsonl");
const DEFINITIONS_QA = join(ROOT, "bench/qa/definitions.jsonl");
const DEFINITIONS_FRESH_QA = join(ROOT, "bench/qa/definitions-fresh.jsonl");
const ABBREVIATIONS_QA = join(ROOT, "bench/qa/abbreviations.jsonl");

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
  // a second dev set, written after the first was tuned on: IRS and filings questions in one file
  questions.push(...bothCorpora("fresh", FRESH_QA));
  // "What is X?" asked of terms the files define (none of the sets above asks one), half held out;
  // a second set written after the rules for the first were made (only measured); what an
  // abbreviation stands for ("What does EIN stand for?"), held out
  questions.push(
    ...bothCorpora("definitions", DEFINITIONS_QA),
    ...bothCorpora("definitions fresh", DEFINITIONS_FRESH_QA),
    ...bothCorpora("abbreviations", ABBREVIATIONS_QA),
    // a form's box, line or step asked by its number ("What goes in box 12 of my W-2?"), held out
    ...bothCorpora("form parts", FORM_PARTS_QA),
    // short questions as a new user types them ("Is unemployment taxable?", "Who is Best Buy's CEO?"): the
    // first set read for development after its first measure, the second held out
    ...bothCorpora("natural", NATURAL_QA),
    ...bothCorpora("natural 2", NATURAL_2_QA),
  );
  // the sealed set is read only by an issue's final bench (BENCH_SEALED=1): no decision looks at it
  if (process.env.BENCH_SEALED) questions.push(...bothCorpora("sealed", SEALED_QA));
  return questions;
}

/** A QA set holding IRS and filings questions in one file: "<set> irs ..." and "<set> filings ..." groups, each of the PDFs present. */
function bothCorpora(set: string, qa: string): EvalQuestion[] {
  return [...ownQuestions(`${set} irs`, qa, IRS), ...ownQuestions(`${set} filings`, qa, FILINGS)].filter((q) => existsSync(q.path));
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
