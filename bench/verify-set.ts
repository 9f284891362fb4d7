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
// Deterministic (seeded); rebuild with
// `./node_modules/.bin/node --import tsx --import ./bench/wasm-modules.mjs bench/verify-set.ts`.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chunkPage, normalisePageText } from "../worker/library/chunker";
import { withColumnHeads } from "../worker/answer/passages/column-heads";
import { splitSentences } from "../worker/answer/passages/sentences";
import { isTableRow } from "../worker/answer/passages/table-rows";
import { cachedPages, CORPUS } from "./ingest";

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

// ---- seeded choices ----------------------------------------------------------------------------

function rng(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const shuffled = <T>(items: readonly T[], random: () => number) => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};
const pick = <T>(items: readonly T[], random: () => number) => items[Math.floor(random() * items.length)]!;

// ---- the figures a sentence states (the generator's own reading, not verify.ts's) ---------------

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const SHORT_MONTH: Record<string, string> = {
  January: "Jan.",
  February: "Feb.",
  March: "Mar.",
  April: "Apr.",
  August: "Aug.",
  September: "Sept.",
  October: "Oct.",
  November: "Nov.",
  December: "Dec.",
};
const WORDS =
  "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split(
    " ",
  );
const UNIT = String.raw`(?:days?|weeks?|months?|years?|hours?)`;

type FigureKind = "date" | "money" | "percent" | "duration" | "year" | "count";
interface Found {
  kind: FigureKind;
  at: number;
  text: string;
}

const FIGURE_PATTERNS: [FigureKind, RegExp][] = [
  ["date", new RegExp(String.raw`\b(?:${MONTHS.join("|")}) \d{1,2}(?:, (?:19|20)\d\d)?\b`, "g")],
  [
    "money",
    /\$\s?\d{1,3}(?:,\d{3})*(?:\.\d+)?(?: (?:thousand|million|billion|trillion)\b)?|\b\d{1,3}(?:,\d{3})*(?:\.\d+)? (?:thousand|million|billion|trillion)\b/g,
  ],
  ["percent", /\b\d+(?:\.\d+)?(?:%| percent\b)/g],
  ["duration", new RegExp(String.raw`\b\d+[ -]${UNIT}\b`, "g")],
  ["year", /(?<![\d,.$/-])\b(?:19[5-9]\d|20[0-3]\d)\b(?![\d%/-]|,\d)/g],
  ["count", /(?<![\w$.,/-])\d{1,3}(?:,\d{3})*(?:\.\d+)?(?= [a-z]{3,})(?! (?:percent|thousand|million|billion|trillion)\b)/g],
];
/** A number naming a line, form or part of a document is no figure to change. */
const IDENTIFIER_BEFORE =
  /\b(?:lines?|forms?|schedules?|notes?|sections?|box(?:es)?|pub\.?|publications?|pages?|chapters?|parts?|steps?|items?|tables?|worksheets?|rev\.|no\.|rules?|articles?|columns?|exhibits?|codes?|tier|level|phase|class|room|suite|title|number)\s*$/i;

function figuresIn(sentence: string): Found[] {
  const found: Found[] = [];
  for (const [kind, pattern] of FIGURE_PATTERNS)
    for (const m of sentence.matchAll(pattern)) {
      const at = m.index;
      if (found.some((f) => at < f.at + f.text.length && f.at < at + m[0].length)) continue;
      if ((kind === "count" || kind === "year") && IDENTIFIER_BEFORE.test(sentence.slice(Math.max(0, at - 16), at))) continue;
      if (kind === "count" && Number(m[0].replace(/,/g, "")) < 2) continue;
      found.push({ kind, at, text: m[0] });
    }
  return found.sort((a, b) => a.at - b.at);
}

/** The numbers a passage writes, without grouping ("14,600" -> "14600"). */
const numbersIn = (text: string) => new Set((text.match(/\d[\d,]*(?:\.\d+)?/g) ?? []).map((n) => String(Number(n.replace(/,/g, "")))));
const replaceAt = (s: string, f: Found, text: string) => s.slice(0, f.at) + text + s.slice(f.at + f.text.length);

// ---- the controlled changes: each returns the changed sentence and what changed, or null ---------

type Change = (s: string, random: () => number, passage: string, next?: string) => { sentence: string; change: string } | null;
const of = (s: string, kinds: FigureKind[]) => figuresIn(s).filter((f) => kinds.includes(f.kind));

/** One digit of an amount, percent, count or duration changed, to a number the passage does not write. */
const figureChanged: Change = (s, random, passage) => {
  const targets = of(s, ["money", "percent", "count", "duration"]);
  if (!targets.length) return null;
  const f = pick(targets, random);
  const digits = [...f.text].map((c, i) => (/\d/.test(c) ? i : -1)).filter((i) => i >= 0);
  const numbers = numbersIn(passage);
  for (const tries of [0, 1, 2, 3, 4, 5]) {
    const at = tries === 0 ? digits[0]! : pick(digits, random);
    const old = Number(f.text[at]);
    const digit = (old + 1 + Math.floor(random() * 8)) % 10;
    if (digit === 0 && at === digits[0]) continue;
    const text = f.text.slice(0, at) + digit + f.text.slice(at + 1);
    const value = text.match(/\d[\d,]*(?:\.\d+)?/)![0];
    if (numbers.has(String(Number(value.replace(/,/g, ""))))) continue;
    return { sentence: replaceAt(s, f, text), change: `${f.text} -> ${text}` };
  }
  return null;
};

const SCALES: Record<string, string> = { thousand: "million", million: "billion", billion: "million", trillion: "billion" };
const scaleChanged: Change = (s, random) => {
  const targets = of(s, ["money"]).filter((f) => /(?:thousand|million|billion|trillion)$/.test(f.text));
  if (!targets.length) return null;
  const f = pick(targets, random);
  const text = f.text.replace(/(thousand|million|billion|trillion)$/, (w) => SCALES[w]!);
  return { sentence: replaceAt(s, f, text), change: `${f.text} -> ${text}` };
};

const NEXT_UNIT: Record<string, string> = { day: "week", week: "month", month: "year", year: "month", hour: "day" };
/** A percent written as an amount ("7%" -> "$7"), or a duration in another unit ("60 days" -> "60 weeks"). */
const unitChanged: Change = (s, random) => {
  const targets = of(s, ["percent", "duration"]);
  if (!targets.length) return null;
  const f = pick(targets, random);
  const text =
    f.kind === "percent"
      ? `$${f.text.replace(/%| percent/, "")}`
      : f.text.replace(/(day|week|month|year|hour)(s?)$/, (_, unit: string, plural: string) => NEXT_UNIT[unit]! + plural);
  return { sentence: replaceAt(s, f, text), change: `${f.text} -> ${text}` };
};

/** A year one before or after, one the sentence does not already write. */
const yearSwapped: Change = (s, random) => {
  const targets = of(s, ["year"]);
  if (!targets.length) return null;
  const f = pick(targets, random);
  const year = Number(f.text);
  const options = shuffled([year - 1, year + 1], random).filter((y) => !s.includes(String(y)));
  if (!options.length) return null;
  return { sentence: replaceAt(s, f, String(options[0])), change: `${f.text} -> ${options[0]}` };
};

/** A date's day moved by one to five, or its month changed. */
const dateChanged: Change = (s, random) => {
  const targets = of(s, ["date"]);
  if (!targets.length) return null;
  const f = pick(targets, random);
  const [, month, day, rest] = f.text.match(/^(\w+) (\d{1,2})(.*)$/)!;
  let text: string;
  if (random() < 0.5) {
    const shift = 1 + Math.floor(random() * 5);
    const moved = Number(day) + shift <= 28 ? Number(day) + shift : Number(day) - shift;
    text = `${month} ${moved}${rest}`;
  } else
    text = `${pick(
      MONTHS.filter((m) => m !== month),
      random,
    )} ${day}${rest}`;
  return { sentence: replaceAt(s, f, text), change: `${f.text} -> ${text}` };
};

/** "not" after an auxiliary ("is" -> "is not", "can" -> "cannot", "has been" -> "has not been"). */
const negationAdded: Change = (s, random) => {
  const places = [
    ...s.matchAll(/\b(is|are|was|were|will|would|should|could|might|must)\b(?! not\b)/g),
    ...s.matchAll(/(?<!\bto )\b(does|do|did)\b(?= [a-z]+\b)(?! not\b)/g),
    ...s.matchAll(/\b(may)\b(?= [a-z])(?! not\b)/g),
    ...s.matchAll(/\b(has|have|had)\b(?= (?:been|[a-z]+(?:ed|en))\b)/g),
    ...s.matchAll(/\b(can)\b(?= [a-z])/g),
  ];
  if (!places.length) return null;
  const m = pick(places, random);
  const word = m[1]!;
  const text = word === "can" ? "cannot" : `${word} not`;
  return { sentence: s.slice(0, m.index) + text + s.slice(m.index + word.length), change: `${word} -> ${text}` };
};

// ---- the faithful rewrites ----------------------------------------------------------------------

const dollarsWritten: Change = (s, random) => {
  const targets = of(s, ["money"]).filter((f) => f.text.startsWith("$"));
  if (!targets.length) return null;
  const f = pick(targets, random);
  const bare = f.text.replace(/^\$\s?/, "");
  const text = /(?:thousand|million|billion|trillion)$/.test(bare) ? bare : `${bare} dollars`;
  return { sentence: replaceAt(s, f, text), change: `${f.text} -> ${text}` };
};

const percentWritten: Change = (s, random) => {
  const targets = of(s, ["percent"]);
  if (!targets.length) return null;
  const f = pick(targets, random);
  const text = f.text.endsWith("%") ? `${f.text.slice(0, -1)} percent` : `${f.text.replace(/ percent$/, "")}%`;
  return { sentence: replaceAt(s, f, text), change: `${f.text} -> ${text}` };
};

const monthAbbreviated: Change = (s, random) => {
  const targets = of(s, ["date"]).filter((f) => SHORT_MONTH[f.text.split(" ")[0]!]);
  if (!targets.length) return null;
  const f = pick(targets, random);
  const month = f.text.split(" ")[0]!;
  const text = f.text.replace(month, SHORT_MONTH[month]!);
  return { sentence: replaceAt(s, f, text), change: `${f.text} -> ${text}` };
};

const groupingDropped: Change = (s) => {
  if (!/\d,\d{3}/.test(s)) return null;
  const changed = s.replace(/(\d{1,3})((?:,\d{3})+)(?!\d)/g, (_, head: string, rest: string) => head + rest.replace(/,/g, ""));
  return { sentence: changed, change: "grouping commas dropped" };
};

const NUMBER_BEFORE_UNIT = new RegExp(
  String.raw`(?<![\d.,$])\b(\d{1,2}|${WORDS.join("|")})([ -])(${UNIT.slice(3, -1)}|percent|times)\b`,
  "g",
);
/** "3 years" -> "three years", or "two weeks" -> "2 weeks". */
const numberAsWord: Change = (s, random) => {
  const places = [...s.matchAll(NUMBER_BEFORE_UNIT)].filter((m) => !/^\d+$/.test(m[1]!) || Number(m[1]) <= 20);
  if (!places.length) return null;
  const m = pick(places, random);
  const word = /^\d+$/.test(m[1]!) ? WORDS[Number(m[1])]! : String(WORDS.indexOf(m[1]!.toLowerCase()));
  if (word === "-1") return null;
  const text = `${word}${m[2]}${m[3]}`;
  return { sentence: s.slice(0, m.index) + text + s.slice(m.index + m[0].length), change: `${m[0]} -> ${text}` };
};

const COMMON_OPENERS = new Set(
  "the our we net total this these it its you your a an there such cash sales revenue income operating gross capital if in for as when they he she each any all however also under after before during because".split(
    " ",
  ),
);
const lowerFirst = (s: string) => (COMMON_OPENERS.has(s.split(" ")[0]!.toLowerCase()) ? s[0]!.toLowerCase() + s.slice(1) : s);
const upperFirst = (s: string) => s[0]!.toUpperCase() + s.slice(1);
/** An opening "In 2018, ..." moved to the end, or a closing "... in fiscal 2023." to the front. */
const reordered: Change = (s) => {
  const front = s.match(/^(In|During|For|As of|Through|By|At) ([^,]{3,40}), (.{20,})\.$/);
  if (front && /\d/.test(front[2]!)) {
    return { sentence: `${upperFirst(front[3]!)} ${front[1]!.toLowerCase()} ${front[2]}.`, change: "opening phrase moved to the end" };
  }
  const back = s.match(/^(.{20,}?),? (in|during|for|as of) ((?:fiscal |the (?:first|second|third|fourth) quarter of )?(?:19|20)\d\d)\.$/);
  if (back)
    return { sentence: `${upperFirst(back[2]!)} ${back[3]}, ${lowerFirst(back[1]!)}.`, change: "closing phrase moved to the front" };
  return null;
};

const CLAUSE_BREAKS =
  /; |, and |, but |, while |, which |, primarily |, partially |, partly |, reflecting |, compared (?:to|with) |, as |, including |, except /;
/** The sentence's first clause, when it is a statement of its own; with figures when `figures`. */
function firstClause(s: string, figures: boolean): string | null {
  const parts = s.split(CLAUSE_BREAKS);
  if (parts.length < 2) return null;
  const clause = parts[0]!.replace(/[,:]$/, "");
  // a list's last ", and" ("healthcare, pet care, cheese, and coffee") ends no statement
  if (s.startsWith(`${clause}, and `) && clause.includes(", ")) return null;
  // a condition ("If you made joint payments for 2024") states nothing on its own
  if (/\b(?:If|When|Although|Unless|Because|Since|Before|After|Once|Whether)\b/.test(clause.split(" ").slice(0, 4).join(" "))) return null;
  const open = (clause.match(/\(/g) ?? []).length !== (clause.match(/\)/g) ?? []).length;
  if (open || clause.split(" ").length < 6 || (figures && !figuresIn(clause).length) || (!figures && /\d/.test(clause))) return null;
  return `${clause}.`;
}
const clauseKept: Change = (s) => {
  const clause = firstClause(s, true);
  return clause ? { sentence: clause, change: "first clause kept" } : null;
};

const SYNONYMS: [RegExp, string][] = [
  [/\bapproximately\b/, "about"],
  [/\bpurchased\b/, "bought"],
  [/\bpurchase\b/, "buy"],
  [/\b(we|you|they|he|she) received\b/, "$1 got"],
  [/\breceive\b/, "get"],
  [/\bincreased\b/, "rose"],
  [/\bdecreased\b/, "fell"],
  [/\bprimarily\b/, "mainly"],
  [/\badditional\b/, "extra"],
  [/\bare required to\b/, "have to"],
  [/\bis required to\b/, "has to"],
  [/\brequired\b/, "needed"],
  [/\brequire\b/, "need"],
  [/\b(?:when )?compared (?:to|with)\b/, "versus"],
  [/\bgenerated\b/, "produced"],
  [/\bexpect to\b/, "plan to"],
  [/\bexpect\b/, "anticipate"],
  [/\breported\b/, "recorded"],
  [/\bin order to\b/, "to"],
  [/\bhowever, /i, ""],
  [/\bIn addition, /, ""],
  [/\bGenerally, /, ""],
  [/\bindividuals\b/, "people"],
  [/\bobtain\b/, "get"],
  [/\bprovide\b(?! for)/, "give"],
  [/\bsubmit\b/, "send"],
  [/\bassist\b/, "help"],
  [/\bcommence\b/, "begin"],
  [/\btherefore\b/, "so"],
  [/\bcan[’']t\b/, "cannot"],
  [/\bdoes not\b/, "doesn't"],
  [/\bdo not\b/, "don't"],
  [/\bdon[’']t\b/, "do not"],
  [/\bis not\b/, "isn't"],
];
/** The sentence in a reader's own words: every synonym of the list that applies. */
const reworded: Change = (s) => {
  const used: string[] = [];
  let out = s;
  for (const [pattern, word] of SYNONYMS)
    if (pattern.test(out)) {
      used.push(`${out.match(pattern)![0].trim()} -> ${word || "(dropped)"}`);
      out = out.replace(pattern, word);
    }
  return used.length ? { sentence: upperFirst(out), change: used.join("; ") } : null;
};
const verbatim: Change = (s) => ({ sentence: s, change: "verbatim" });
/** Two sentences that follow each other on the page, joined into one as a summary would ("A; b."). */
const joined: Change = (s, _random, _passage, next) =>
  next ? { sentence: `${s.slice(0, -1)}; ${lowerFirst(next)}`, change: "next sentence joined" } : null;

/** A sentence without figures in a reader's words: one clause kept, or reworded. */
const wordsReworded: Change = (s, random) => {
  const clause = firstClause(s, false);
  const words = reworded(clause ?? s, random, "");
  if (words) return { sentence: words.sentence, change: clause ? `first clause kept; ${words.change}` : words.change };
  return clause ? { sentence: clause, change: "first clause kept" } : null;
};

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
