// A quarter's share of its year asked ("What percent of the year's spend on stock repurchases
// occurred in Q4?") is what lies between two sentences a report writes one after the other:
// "During the fourth quarter of fiscal 2022, the Company repurchased ... at a cost of $328.1
// million. During fiscal 2022, the Company repurchased ... at a cost of $900.0 million." The local
// answer quotes the quarter's sentence and works the share out for the reader ("$328.1 million is
// 36% of $900.0 million"), from the quoted amounts alone.
import { quoteOf } from "../answer/passages/quotable";
import { splitSentences } from "../answer/passages/sentences";

/** A share of a whole asked: "what percent of", "what share of", "what proportion of". */
const SHARE_OF_ASKED = /\bwhat (percent(age)?|share|portion|proportion|fraction|part)\b[^?]*\bof\b/i;

const ORDINALS = ["first", "second", "third", "fourth"] as const;

/** The quarter a question names ("Q4", "the fourth quarter", "4th quarter"): 1 to 4, or null. */
function quarterNamed(text: string): number | null {
  const m = /\bQ([1-4])\b|\b(first|second|third|fourth|1st|2nd|3rd|4th) quarter\b/i.exec(text);
  if (!m) return null;
  if (m[1]) return Number(m[1]);
  const word = m[2]!.toLowerCase();
  const ordinal = ORDINALS.indexOf(word as (typeof ORDINALS)[number]);
  return ordinal >= 0 ? ordinal + 1 : Number(word[0]);
}

/** A whole year named, and no quarter: "During fiscal 2022", "for the full year 2022", "in the year ended". */
const YEAR_NAMED = /\b(fiscal|full[- ]year|year ended|twelve months|for the year|during \d{4}|in \d{4})\b/i;

/** An amount of money in words a report writes: "$328.1 million", "$900.0 million", "$1.2 billion", "$45,210". */
const AMOUNT = /\$\s?(\d[\d,]*(?:\.\d+)?)(?:\s+(million|billion|thousand))?/g;

const SCALE: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };

interface Amount {
  written: string;
  value: number;
  /** the two words before it ("cost of"): what it is an amount of */
  before: string;
}

function amountsIn(sentence: string): Amount[] {
  return [...sentence.matchAll(AMOUNT)].map((m) => ({
    written: m[0].replace(/^\$\s+/, "$").trim(),
    value: Number(m[1]!.replace(/,/g, "")) * (SCALE[m[2]?.toLowerCase() ?? ""] ?? 1),
    before: sentence.slice(0, m.index).toLowerCase().split(/\s+/).filter(Boolean).slice(-2).join(" "),
  }));
}

/** Words a report writes in both sentences of a quarter and its year, beyond the periods' own. */
const contentWords = (sentence: string) =>
  new Set(
    (sentence.toLowerCase().match(/\p{L}{3,}/gu) ?? []).filter(
      (w) => !/^(during|the|fiscal|quarter|first|second|third|fourth|year|its|and|for)$/.test(w),
    ),
  );

/** Of the quarter's words, at least this share must be the year's sentence's too: the same thing counted. */
const MIN_SHARED_WORDS = 0.6;

export interface PeriodShare {
  /** the quarter's sentence, as quoted */
  sentence: string;
  /** the share worked out, to follow it: " ($328.1 million is 36% of $900.0 million)" */
  share: string;
}

/**
 * The quarter's share of its year a question asks, read from a passage: the sentence of the quarter
 * the question names and the next one of a whole year stating the same thing (most of the same
 * words, each amount after the same two words: "at a cost of"), the quarter's amount below the
 * year's. Null when the question asks no such share or the passage has no such pair.
 */
export function periodShare(question: string, passage: string): PeriodShare | null {
  if (!SHARE_OF_ASKED.test(question)) return null;
  const quarter = quarterNamed(question);
  if (quarter === null) return null;
  const sentences = splitSentences(passage);
  for (let i = 0; i + 1 < sentences.length; i++) {
    const [part, whole] = [sentences[i]!, sentences[i + 1]!];
    if (quarterNamed(part) !== quarter || quarterNamed(whole) !== null || !YEAR_NAMED.test(whole)) continue;
    const words = contentWords(part);
    const theirs = contentWords(whole);
    if (words.size === 0 || [...words].filter((w) => theirs.has(w)).length / words.size < MIN_SHARED_WORDS) continue;
    for (const a of amountsIn(part)) {
      const b = amountsIn(whole).find((w) => w.before === a.before);
      if (!b || !(a.value > 0 && a.value < b.value)) continue;
      const percent = Math.round((a.value / b.value) * 100);
      return { sentence: quoteOf(part), share: ` (${a.written} is ${percent}% of ${b.written})` };
    }
  }
  return null;
}
