// The labelled set for the answer check (#43): (sentence, passage, supported?) pairs built from
// real sentences of the IRS publications and forms and the SEC filings in ../shared/corpus, as
// the product extracts and chunks them. Each sentence is either changed in one controlled way
// (a figure, a scale, a unit, a year, a date, a negation added: "unsupported") or rewritten the
// way a reader allows (currency, "percent", month abbreviations, grouping, number words, words
// reordered or reworded, one clause kept, cited verbatim: "supported"). A block of sentences
// without figures sets the share of words a sentence without figures needs (CONTENT_SHARE):
// reworded on their own page ("supported") or cited against another page of the same document
// ("unsupported").
//
// The set is split by document: `tune` (rules and thresholds are chosen on it) and `held-out`
// (reported only). Only IRS (US government work, public domain) and SEC filings (public record)
// are used; the jsonl keeps the pair's one sentence, never a page: the passage is a reference
// (file, page, chunk and the chunk's first words) that bench/verify-report.ts re-reads from
// ../shared/corpus at run time.
//
// The changes are in verify-set-changes.ts, the rewrites in verify-set-rewrites.ts; this module picks
// the sentences, applies them and writes the set. Deterministic (seeded); rebuild with
// `./node_modules/.bin/node --import tsx --import ./bench/wasm-modules.mjs bench/verify-set.ts`.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chunkPage, normalisePageText } from "../worker/library/chunker";
import { withColumnHeads } from "../worker/answer/passages/column-heads";
import { splitSentences } from "../worker/answer/passages/sentences";
import { isTableRow } from "../worker/answer/passages/table-rows";
import { cachedPages, CORPUS } from "./ingest";
import {
  dateChanged,
  figureChanged,
  figuresIn,
  negationAdded,
  pick,
  rng,
  scaleChanged,
  shuffled,
  unitChanged,
  yearSwapped,
  type Change,
} from "./verify-set-changes";
import {
  clauseKept,
  dollarsWritten,
  groupingDropped,
  joined,
  monthAbbreviated,
  numberAsWord,
  percentWritten,
  reordered,
  reworded,
  verbatim,
  wordsReworded,
} from "./verify-set-rewrites";

export const SET_FILE = join(import.meta.dirname, "verify-set.jsonl");
const SEED = "docchat-verify-43";

/** The halves, by document: no held-out document is read while rules or thresholds are chosen. */
export const HALVES: Record<"tune" | "held-out", string[]> = {
  tune: [
    "irs/p17.pdf",
    "irs/fw4.pdf",
    "irs/fw2.pdf",
    "sec_financebench/3M_2018_10K.pdf",
    "sec_financebench/AMCOR_2023Q4_EARNINGS.pdf",
    "sec_financebench/BESTBUY_2023_10K.pdf",
    "sec_financebench/BESTBUY_2024Q2_10Q.pdf",
  ],
  "held-out": [
    "irs/i1040gi.pdf",
    "irs/fw9.pdf",
    "irs/f1040.pdf",
    "sec_financebench/Pfizer_2023Q2_10Q.pdf",
    "sec_financebench/JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf",
    "sec_financebench/MGMRESORTS_2022Q4_EARNINGS.pdf",
    "sec_financebench/ULTABEAUTY_2023Q4_EARNINGS.pdf",
  ],
};

export interface PassageRef {
  page: number;
  /** the chunk's ordinal on its page (chunkPage) */
  chunk: number;
  /** the chunk's first words, to find it again if chunking moves */
  starts: string;
}

export interface VerifyPair {
  id: string;
  half: "tune" | "held-out";
  /** path under ../shared/corpus */
  file: string;
  kind: string;
  label: "supported" | "unsupported";
  /** as an answer writes it, cited [1] */
  sentence: string;
  /** what was changed or rewritten ("$14,600 -> $15,600") */
  change: string;
  /** the page the sentence comes from, when it is cited against another */
  from?: number;
  passage: PassageRef;
}

// ---- the kinds, and how many of each one document gives ------------------------------------------

interface Kind {
  name: string;
  label: VerifyPair["label"];
  /** sentences with figures, or without */
  figures: boolean;
  make: Change;
  /** cited against another page of the document */
  otherPage?: boolean;
}
export const KINDS: Kind[] = [
  { name: "figure changed", label: "unsupported", figures: true, make: figureChanged },
  { name: "scale changed", label: "unsupported", figures: true, make: scaleChanged },
  { name: "unit changed", label: "unsupported", figures: true, make: unitChanged },
  { name: "year swapped", label: "unsupported", figures: true, make: yearSwapped },
  { name: "date changed", label: "unsupported", figures: true, make: dateChanged },
  { name: "negation added", label: "unsupported", figures: true, make: negationAdded },
  { name: "cited verbatim", label: "supported", figures: true, make: verbatim },
  { name: "currency written out", label: "supported", figures: true, make: dollarsWritten },
  { name: "percent written out", label: "supported", figures: true, make: percentWritten },
  { name: "month abbreviated", label: "supported", figures: true, make: monthAbbreviated },
  { name: "grouping dropped", label: "supported", figures: true, make: groupingDropped },
  { name: "number as a word", label: "supported", figures: true, make: numberAsWord },
  { name: "reordered", label: "supported", figures: true, make: reordered },
  { name: "one clause kept", label: "supported", figures: true, make: clauseKept },
  { name: "reworded", label: "supported", figures: true, make: reworded },
  { name: "two sentences joined", label: "supported", figures: true, make: joined },
  { name: "no figure: negation added", label: "unsupported", figures: false, make: negationAdded },
  { name: "no figure: another page", label: "unsupported", figures: false, make: verbatim, otherPage: true },
  { name: "no figure: reworded", label: "supported", figures: false, make: wordsReworded },
];
const PER_DOCUMENT = 4;

interface Candidate {
  sentence: string;
  /** the sentence after it in its chunk, when that is a whole prose sentence too */
  next?: string;
  page: number;
  chunk: number;
  passage: string;
  starts: string;
}

const startsOf = (text: string) => text.split(" ").slice(0, 6).join(" ");

/** The whole prose sentences of a document's chunks, each once, with the chunk that holds it. */
async function candidatesOf(file: string): Promise<{ candidates: Candidate[]; chunks: Omit<Candidate, "sentence">[] }> {
  const pages = await cachedPages(join(CORPUS, file));
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  const chunks: Omit<Candidate, "sentence">[] = [];
  pages.forEach((text, i) => {
    const page = normalisePageText(text);
    for (const c of chunkPage(text)) {
      const chunk = { page: i + 1, chunk: c.ord, passage: withColumnHeads(c), starts: startsOf(c.text) };
      chunks.push(chunk);
      let last: Candidate | null = null;
      for (const sentence of splitSentences(c.text)) {
        const words = sentence.split(" ");
        const at = page.indexOf(sentence);
        const prose = words.filter((w) => /^[a-z]/.test(w)).length >= words.length * 0.5;
        if (seen.has(sentence) || words.length < 8 || words.length > 40 || !/^\p{Lu}/u.test(sentence) || !/[a-z)]\.$/.test(sentence))
          continue;
        if (
          !prose ||
          isTableRow(sentence) ||
          /\.{3}|\. \.|www\.|\|/.test(sentence) ||
          at < 0 ||
          !/(^|[.!?:;]["”)]? )$/.test(page.slice(Math.max(0, at - 3), at))
        )
          continue;
        if (last && c.text.includes(`${last.sentence} ${sentence}`)) last.next = sentence;
        last = { sentence, ...chunk };
        seen.add(sentence);
        candidates.push(last);
      }
    }
  });
  return { candidates, chunks };
}

/** The pairs of one document: for each kind, up to PER_DOCUMENT sentences it applies to, each sentence used once per label. */
async function pairsOf(file: string, half: VerifyPair["half"]): Promise<VerifyPair[]> {
  const random = rng(`${SEED}:${file}`);
  const { candidates, chunks } = await candidatesOf(file);
  const order = shuffled(candidates, random);
  const used = new Set<string>();
  const pairs: VerifyPair[] = [];
  const stem = file
    .split("/")
    .pop()!
    .replace(/\.pdf$/, "")
    .replace(/_/g, "-")
    .toLowerCase();
  for (const kind of KINDS) {
    let taken = 0;
    for (const c of order) {
      if (taken >= PER_DOCUMENT) break;
      const key = `${kind.label}:${c.sentence}`;
      if (used.has(key) || figuresIn(c.sentence).length > 0 !== kind.figures) continue;
      const made = kind.make(c.sentence, random, c.passage, c.next);
      const unchanged = kind.make === verbatim;
      if (!made || (made.sentence === c.sentence) !== unchanged) continue;
      let passage: PassageRef = { page: c.page, chunk: c.chunk, starts: c.starts };
      if (kind.otherPage) {
        // a page about the same things (two of the sentence's words), as a wrong citation would be
        const words = new Set(c.sentence.toLowerCase().match(/\p{L}{5,}/gu) ?? []);
        const shared = (o: { passage: string }) =>
          new Set((o.passage.toLowerCase().match(/\p{L}{5,}/gu) ?? []).filter((w) => words.has(w))).size;
        // not a page that writes it too (a running header's sentence is on every page): its last eight words are not there
        const tail = c.sentence.split(" ").slice(-8).join(" ");
        const away = chunks.filter((o) => Math.abs(o.page - c.page) >= 3 && o.passage.length > 300 && !o.passage.includes(tail));
        const related = away.filter((o) => shared(o) >= 2);
        if (!away.length) continue;
        const other = pick(related.length ? related : away, random);
        passage = { page: other.page, chunk: other.chunk, starts: other.starts };
      }
      used.add(key);
      taken++;
      pairs.push({
        id: `${stem}-${String(pairs.length + 1).padStart(3, "0")}`,
        half,
        file,
        kind: kind.name,
        label: kind.label,
        sentence: `${made.sentence.replace(/\.$/, "")} [1].`,
        change: made.change,
        ...(kind.otherPage && { from: c.page }),
        passage,
      });
    }
  }
  return pairs;
}

export async function buildVerifySet(): Promise<VerifyPair[]> {
  const pairs: VerifyPair[] = [];
  for (const half of ["tune", "held-out"] as const)
    for (const file of HALVES[half]) if (existsSync(join(CORPUS, file))) pairs.push(...(await pairsOf(file, half)));
  return pairs;
}

export function loadVerifySet(): VerifyPair[] {
  if (!existsSync(SET_FILE)) return [];
  return readFileSync(SET_FILE, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as VerifyPair);
}

if (process.argv[1]?.endsWith("verify-set.ts")) {
  const pairs = await buildVerifySet();
  writeFileSync(SET_FILE, pairs.map((p) => JSON.stringify(p)).join("\n") + "\n");
  const counts: Record<string, Record<string, number>> = {};
  for (const p of pairs) (counts[p.kind] ??= { tune: 0, "held-out": 0 })[p.half]!++;
  console.table(counts);
  console.log(`${pairs.length} pairs written to bench/verify-set.jsonl`);
}
