// Reading text the way the answer needs it: the search terms of a question,
// sentences, table rows and headings (never quoted as sentences), the kind of
// fact a question asks for, and how well a sentence answers it. Shared by
// retrieval (re-ranking passages by their best sentence) and the local responder.

/** How much the question terms of the previous sentence count for a sentence. */
const NEIGHBOUR_WEIGHT = 0.35;
/** The weight of a sentence that holds the kind of fact asked for (an amount, a period, a date, a rule). */
const FACT_BONUS = 2.2;

// Words too common to help ranking; kept short on purpose.
const STOPWORDS = new Set(
  "a an and are as at be but by can did do does for from had has have how i if in into is it its me my of on or our so than that the their them then there these they this to was we were what when where which who why will with would you your".split(
    " ",
  ),
);
// Words about the asking rather than the subject ("Give a response to the question
// by relying on the details shown..."): rare in documents, so BM25 would weight
// them highly and rank passages that happen to contain them.
const QUESTION_WORDS = new Set(
  "about also any answer assume based describe detail details explain following give just kindly like many much please primarily provide question relying response shown tell using".split(
    " ",
  ),
);

/** Search terms from any user text: letters and digits only, so quotes and FTS operators can never break the query. */
export function queryTerms(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  // "FY2023" or "Q2'2023" style tokens: also search their parts ("2023"), which is how tables write them
  const terms = words.flatMap((w) => {
    const parts = w.match(/\p{L}+|\p{N}+/gu) ?? [];
    return parts.length > 1 ? [w, ...parts.filter((p) => p.length > 1)] : [w];
  });
  return [...new Set(terms.filter((t) => !STOPWORDS.has(t) && !QUESTION_WORDS.has(t) && (t.length > 1 || /\d/.test(t))))].slice(0, 32);
}

/** An FTS5 MATCH expression: every term quoted, any term may match (bm25 ranks by how many and how rare). */
export function ftsMatchExpression(text: string): string | null {
  const terms = queryTerms(text);
  return terms.length ? terms.map((t) => `"${t}"`).join(" OR ") : null;
}

/** The text cut where a sentence ends and the next begins (a capital or a number after . ! or ?). */
export function sentencePieces(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=["'(\[]?[\p{Lu}\p{N}])/u)
    .map((s) => s.trim())
    .filter(Boolean);
}

export function splitSentences(text: string): string[] {
  const pieces = sentencePieces(text);
  // A list number ("you: 1.", not "line 19.") or a question ("How long should
  // records be kept?") belongs with what follows it: the answer is the next sentence.
  const sentences: string[] = [];
  for (const piece of pieces) {
    const last = sentences.at(-1);
    if (last !== undefined && (/(^|[:;]\s*)\(?\d{1,2}[.)]$/.test(last) || /\?$/.test(last)))
      sentences[sentences.length - 1] = `${last} ${piece}`;
    else sentences.push(piece);
  }
  return sentences.filter((s) => s.length >= 20);
}

/** What kind of fact a question asks for; a sentence holding that kind of fact is preferred as the answer. */
export type FactKind = "money" | "number" | "duration" | "date" | "rule";

export function askedFactKind(question: string): FactKind | null {
  const q = question.toLowerCase();
  if (/\bhow (long|soon)\b|how much (more |extra )?time|how many (days|weeks|months|years)/.test(q)) return "duration";
  if (
    /\b(fine|penalty|fee|charge|cost|price|rate|percent(age)?|amount|limit|ceiling|cap|maximum|minimum|threshold|how much|worth)\b/.test(q)
  )
    return "money";
  if (/\b(how many|how old|what age|up to what age|which line|what line|how far)\b/.test(q)) return "number";
  if (/\b(when|deadline|due date|what date|by what|until|latest date|how late)\b/.test(q)) return "date";
  if (
    /^\s*(can|may|must|do|does|is|are|should|am|will|would|could|have to)\b/.test(q) ||
    /\b(allowed|required|eligible|qualify|need to|have to|should i|do i)\b/.test(q)
  )
    return "rule";
  return null;
}

const MONTH = /\b(january|february|march|april|may|june|july|august|september|october|november|december)\b/i;
const PERIOD =
  /\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|sixty)[- ](calendar |business )?(days?|weeks?|months?|years?)\b/i;
/** A number that is not a year, a form or a line ("2024", "Form 4868", "line 8"). */
const PLAIN_NUMBER = /(?<!\b(form|line|box|step|part|publication|pub\.|schedule|page|chapter)\s)\b(?!(19|20)\d\d\b)\d+(\.\d+)?\b/i;

export function statesFact(sentence: string, kind: FactKind): boolean {
  switch (kind) {
    case "money":
      return /\$\s?\d|\d\s?%|\bpercent\b|\b\d+\s+cents\b/i.test(sentence);
    case "number":
      return PLAIN_NUMBER.test(sentence);
    case "duration":
      return PERIOD.test(sentence);
    case "date":
      return MONTH.test(sentence) || PERIOD.test(sentence);
    case "rule":
      return /\b(must|may|can|cannot|can't|don't|do not|only if|required|not|allowed|eligible|qualif\w*)\b/i.test(sentence);
  }
}

const NUMERIC_TOKEN = /^[$(]?[-+]?[\d.,]*\d[\d.,]*%?\)?$/;

/**
 * A table row read as text ("2018 2017 $ 17,360 $ 16,202 ..."), or several rows
 * run together: mostly numbers, or figures in columns (runs of three or more).
 */
export function isTableRow(sentence: string): boolean {
  const tokens = sentence.split(/\s+/).filter((t) => t !== "$" && t !== "%");
  const numeric = tokens.filter((t) => NUMERIC_TOKEN.test(t)).length;
  if (numeric >= 3 && numeric / tokens.length >= 0.35) return true;
  let run = 0;
  let columns = 0;
  for (const t of tokens) {
    run = NUMERIC_TOKEN.test(t) ? run + 1 : 0;
    if (run >= 4) return true;
    if (run === 3) columns++;
  }
  return columns >= 2;
}

/** A heading or label rather than a sentence: short with no closing punctuation, or mostly capitals. */
export function isHeading(sentence: string): boolean {
  const words = sentence.split(/\s+/);
  if (words.length < 12 && !/[.!?:;)"]$/.test(sentence)) return true;
  // mostly capitals; counted on ASCII letters in a plain loop, as this runs on every
  // sentence of every candidate passage
  let lower = 0;
  let capitals = 0;
  for (let i = 0; i < sentence.length; i++) {
    const code = sentence.charCodeAt(i);
    if (code >= 65 && code <= 90) capitals++;
    else if (code >= 97 && code <= 122) lower++;
  }
  return capitals + lower > 0 && capitals / (capitals + lower) > 0.6;
}

export const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

export interface ScoredSentence {
  /** index of the passage the sentence comes from */
  passage: number;
  text: string;
  score: number;
}

/** A quotable sentence of a passage, in lower case for matching question terms, and its word count once needed. */
interface QuotableSentence {
  text: string;
  lower: string;
  words?: number;
}

/**
 * The quotable sentences of passage texts seen lately. Splitting, classifying and
 * tokenising is most of a turn's CPU and depends on the text alone, while the
 * same chunks come back for every question about a document (re-rank over 50
 * candidates, then the answer over 8 of them). Bounded: oldest first out.
 */
const quotableCache = new Map<string, QuotableSentence[]>();
const QUOTABLE_CACHE_MAX = 500;

function quotableSentences(text: string): QuotableSentence[] {
  const cached = quotableCache.get(text);
  if (cached) return cached;
  const sentences = splitSentences(text)
    .filter((s) => !isTableRow(s) && !isHeading(s))
    .map((s): QuotableSentence => ({ text: s, lower: s.toLowerCase() }));
  if (quotableCache.size >= QUOTABLE_CACHE_MAX) quotableCache.delete(quotableCache.keys().next().value!);
  quotableCache.set(text, sentences);
  return sentences;
}

/**
 * Every quotable sentence of the passages, scored: the rarer the question terms
 * it contains and the fewer other words around them, the higher; a sentence that
 * holds the kind of fact asked for counts more; better-ranked sources break ties.
 * Table rows and headings are never quoted.
 */
export function scoreSentences(question: string, passageTexts: readonly string[]): ScoredSentence[] {
  const terms = queryTerms(question).map(stem);
  if (terms.length === 0) return [];
  const kind = askedFactKind(question);
  const passages = passageTexts.map((text, passage) => ({ passage, sentences: quotableSentences(text) }));
  // which terms each sentence holds (a term matches the start of a word: "deduct" finds "deduction"),
  // one expression per term compiled once per question; keyed by text, so a sentence found in two
  // passages counts once for the terms' rarity
  const startsWord = terms.map((t) => new RegExp(`(?<![\\p{L}\\p{N}])${t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "u"));
  const holds = new Map<string, boolean[]>();
  for (const p of passages) {
    for (const { text, lower } of p.sentences) {
      if (!holds.has(text))
        holds.set(
          text,
          startsWord.map((term) => term.test(lower)),
        );
    }
  }
  const total = holds.size;
  const idf = terms.map((_, j) => Math.log(1 + total / (1 + [...holds.values()].filter((h) => h[j]).length)));
  const matched = (sentence: string) => holds.get(sentence)!.reduce((sum, hit, j) => sum + (hit ? idf[j]! : 0), 0);
  return passages.flatMap(({ passage, sentences }) => {
    const own = sentences.map((s) => matched(s.text));
    return sentences.flatMap((sentence, i) => {
      const { text } = sentence;
      // the sentence before often names the subject the answer sentence refers to ("It", "This tax")
      const context = own[i]! + NEIGHBOUR_WEIGHT * (own[i - 1] ?? 0);
      if (own[i]! <= 0 && context <= 0) return [];
      sentence.words ??= wordCount(text);
      const density = context / Math.sqrt(Math.max(sentence.words, 12));
      const fact = kind && statesFact(text, kind) ? FACT_BONUS : 1;
      return [{ passage, text, score: density * fact }];
    });
  });
}

/** A crude English stem (kids -> kid, bounces -> bounc, filed -> fil), matched as a word prefix. */
export function stem(term: string): string {
  if (term.length <= 4 || /\d/.test(term)) return term;
  return term.replace(/(ies|es|s|ing|ed|ly)$/, "") || term;
}
