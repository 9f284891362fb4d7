// The changes bench/verify-set.ts makes to real corpus sentences that a check must catch (#43): a
// figure, a scale, a unit, a year, a date, a negation; with the seeded choices they draw on and the
// generator's own reading of figures (not verify.ts's). The rewrites a reader allows are in
// verify-set-rewrites.ts.
// ---- seeded choices ----------------------------------------------------------------------------

export function rng(seed: string): () => number {
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
export const shuffled = <T>(items: readonly T[], random: () => number) => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};
export const pick = <T>(items: readonly T[], random: () => number) => items[Math.floor(random() * items.length)]!;

// ---- the figures a sentence states (the generator's own reading, not verify.ts's) ---------------

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
export const SHORT_MONTH: Record<string, string> = {
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
export const WORDS =
  "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split(
    " ",
  );
export const UNIT = String.raw`(?:days?|weeks?|months?|years?|hours?)`;

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

export function figuresIn(sentence: string): Found[] {
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
export const replaceAt = (s: string, f: Found, text: string) => s.slice(0, f.at) + text + s.slice(f.at + f.text.length);

// ---- the controlled changes: each returns the changed sentence and what changed, or null ---------

export type Change = (s: string, random: () => number, passage: string, next?: string) => { sentence: string; change: string } | null;
export const of = (s: string, kinds: FigureKind[]) => figuresIn(s).filter((f) => kinds.includes(f.kind));

/** One digit of an amount, percent, count or duration changed, to a number the passage does not write. */
export const figureChanged: Change = (s, random, passage) => {
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
export const scaleChanged: Change = (s, random) => {
  const targets = of(s, ["money"]).filter((f) => /(?:thousand|million|billion|trillion)$/.test(f.text));
  if (!targets.length) return null;
  const f = pick(targets, random);
  const text = f.text.replace(/(thousand|million|billion|trillion)$/, (w) => SCALES[w]!);
  return { sentence: replaceAt(s, f, text), change: `${f.text} -> ${text}` };
};

const NEXT_UNIT: Record<string, string> = { day: "week", week: "month", month: "year", year: "month", hour: "day" };
/** A percent written as an amount ("7%" -> "$7"), or a duration in another unit ("60 days" -> "60 weeks"). */
export const unitChanged: Change = (s, random) => {
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
export const yearSwapped: Change = (s, random) => {
  const targets = of(s, ["year"]);
  if (!targets.length) return null;
  const f = pick(targets, random);
  const year = Number(f.text);
  const options = shuffled([year - 1, year + 1], random).filter((y) => !s.includes(String(y)));
  if (!options.length) return null;
  return { sentence: replaceAt(s, f, String(options[0])), change: `${f.text} -> ${options[0]}` };
};

/** A date's day moved by one to five, or its month changed. */
export const dateChanged: Change = (s, random) => {
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
export const negationAdded: Change = (s, random) => {
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
