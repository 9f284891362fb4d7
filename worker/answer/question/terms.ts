// What a question asks about, as search terms: its words without the asking's ("what", "my",
// "please"), the forms and codes it names, and the FTS5 expressions the Library searches with.

import { glossaryMatches } from "./glossary";

// Words too common to help ranking; kept short on purpose.
const STOPWORDS = new Set(
  "a an and are as at be but by can did do does for from had has have how i if in into is it its me my of on or our so than that the their them then there these they this to was we were what when where which who why will with would you your".split(
    " ",
  ),
);
// Words about the asking rather than the subject ("Give a response to the question
// by relying on the details shown..."): rare in documents, so BM25 would weight
// them highly and rank passages that happen to contain them. Also the unit the answer
// is asked in ("in USD millions"), which every table heading of a filing holds.
const QUESTION_WORDS = new Set(
  "about also any answer assume based billions describe detail details explain following give just kindly like many millions much please primarily provide question relying response shown tell usd using".split(
    " ",
  ),
);

/** What follows a question's last "?": how to answer it ("Answer in USD billions.", "If ..., please explain why."), not what it asks. */
const AFTER_THE_QUESTION = /(?<=\?)[^?]*\S[^?]*$/;

/** What a question asks, in lower case: without what follows its last "?". */
export const askedPart = (question: string) => question.toLowerCase().replace(AFTER_THE_QUESTION, "");

/**
 * A change in a quantity asked ("how did net sales change", "the change in cash", "2023 vs 2022"):
 * the words asking it are the asking's, not the subject's. Documents state a change as "increased"
 * or "decreased"; "change" finds "Change in short-term debt" and "accounting changes".
 */
export const QUANTITY_CHANGE =
  /\bhow (did|has|have|does|do|will|would)\b[^?.]*\bchang|\bchanges? (in|of)\b|\bchanged? (from|between|over)\b|\b(compared?|comparison|vs|versus)\b/i;
const CHANGE_ASKING = new Set(["change", "changed", "changes", "compare", "compared", "comparison", "vs", "versus"]);

/** A word of the asking, not of what is asked about ("what", "my", "usd", "give"): lower case. */
export const isAskingWord = (word: string) => STOPWORDS.has(word) || QUESTION_WORDS.has(word);

/** A text's words and numbers, lower-cased, without punctuation. */
export const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** A form's name ("W-2", "W-4s", "1099-K", "1040-SR"): one term, as documents write it, without a plural's "s". */
const FORM_NAME = /(?<![\p{L}\p{N}])(?:[a-z]{1,2}-\d{1,4}|\d{3,4}-[a-z]{1,3})(?![\p{N}])/gu;

/** The forms a text names, lower case ("W-9" -> "w-9"). */
export const formNames = (text: string) => text.toLowerCase().match(FORM_NAME) ?? [];

/**
 * The asker's own age ("I'm 67", "I am 45", "my 15-year-old", "aged 57"): about the asker, no term to
 * find ("67 cents a mile"); an age the question asks about ("over 65", "age 50 or older") stays one.
 */
const ASKERS_AGE =
  /\b(?:i'm|i’m|i am|aged)\s+\d{1,2}(?=\s*(?:years?\s+old\b|[,.;!?]|\s+(?:and|but|with|so)\b|$))|\b\d{1,2}[- ]years?[- ]olds?\b/g;

/** "What does ESG stand for?": asking its meaning, no subject to find ("stand" finds every "standard"). */
const STAND_FOR = /\bstands? for\b/g;

/**
 * Words asking a meaning ("What does MAGI mean?", "Define...", "How does 3M define..."): searched,
 * as documents write "X means" and "is defined as", but no subject a sentence must hold to answer
 * ("ATIN means..." says nothing of MAGI).
 */
export const MEANING_WORDS = new Set(["mean", "meant", "define"]);

/** Search terms from any user text: letters and digits only (and a form name's hyphen), so quotes and FTS operators can never break the query. */
export function queryTerms(text: string): string[] {
  const lower = text.toLowerCase().replace(ASKERS_AGE, " ").replace(STAND_FOR, " ");
  const words = [...formNames(lower), ...wordsOf(lower)];
  // "FY2023" or "Q2'2023" style tokens: also search their parts ("2023"), which is how tables write them
  const terms = words.flatMap((w) => {
    const parts = w.match(/\p{L}+|\p{N}+/gu) ?? [];
    return parts.length > 1 ? [w, ...parts.filter((p) => p.length > 1)] : [w];
  });
  const changeAsked = QUANTITY_CHANGE.test(text);
  return [
    ...new Set(
      terms.filter(
        (t) => !STOPWORDS.has(t) && !QUESTION_WORDS.has(t) && !(changeAsked && CHANGE_ASKING.has(t)) && (t.length > 1 || /\d/.test(t)),
      ),
    ),
  ].slice(0, 32);
}

/**
 * Codes named by one letter ("code W in box 12", "the letter W", "a W code"): forms list them as
 * "W—Employer contributions...". A letter alone is no term (it starts too many words), so a code's
 * letter is found only written as a code: opening an entry before a dash, or after "code".
 */
const CODE_LETTER = /\b(?:[Cc]odes?|[Ll]etter)\s+["“']?([A-Z])(?![\p{L}\p{N}-])|(?<![\p{L}\p{N}-])([A-Z])["”']?\s+code\b/gu;

export function codeLetters(question: string): string[] {
  return [...new Set([...question.matchAll(CODE_LETTER)].map((m) => (m[1] ?? m[2])!.toLowerCase()))].filter((l) => l !== "i" && l !== "a");
}

/** An FTS5 MATCH expression: every term quoted, any term may match (bm25 ranks by how many and how rare). */
export function ftsMatchExpression(text: string): string | null {
  return phraseTerms(queryTerms(text)).join(" OR ") || null;
}

/** Phrasings as FTS5 phrases, one of several words as one phrase. */
const phraseTerms = (phrasings: readonly string[]) =>
  phrasings
    .map((phrase) => wordsOf(phrase).join(" "))
    .filter(Boolean)
    .map((words) => `"${words}"`);

/**
 * A question's phrases for the Library's search, each quoted for FTS5: its own terms, then the
 * other phrasings of what it names (glossary.ts), a phrasing of several words as one phrase: its
 * words alone ("earnings", "interest", "taxes" for "EBITDA") would find every page of a filing.
 */
export function questionMatchPhrases(question: string): string[] {
  return phraseTerms([...queryTerms(question), ...codeLetters(question), ...glossaryMatches(question).flatMap((m) => m.others)]);
}

/** The question's phrases as one MATCH expression (any may match), or null when it has none. */
export function questionMatchExpression(question: string): string | null {
  return questionMatchPhrases(question).join(" OR ") || null;
}

/** What the question names that the glossary knows, in every phrasing (its own too), for a search of that alone; null when none. */
export function conceptMatchExpression(question: string): string | null {
  const phrasings = new Set(phraseTerms(glossaryMatches(question).flatMap((m) => [...m.used, ...m.others])));
  return phrasings.size ? [...phrasings].join(" OR ") : null;
}

/**
 * Words that name a period, or a total, rather than what a row counts: "fiscal 2023", "at the end
 * of the second quarter", "for the full year", "Total assets".
 */
export const PERIOD_WORD =
  /^(fiscal|fy\d*|years?|yearly|annual|quarters?|quarterly|months?|monthly|half|weeks?|period|ended|ending|end|full|whole|first|second|third|fourth|three|six|nine|twelve|ytd|q[1-4]|h[12]|total|january|february|march|april|may|june|july|august|september|october|november|december|\d[\d,.]*)$/;

/** A crude English stem (kids -> kid, bounces -> bounc, filed -> fil, calculation -> calcul), matched as a word prefix. */
export function stem(term: string): string {
  if (term.length <= 4 || /\d/.test(term)) return term;
  // a noun made from a verb finds the verb too ("calculation" -> calcul, "requirements" -> require)
  const verb = term.replace(/(ations?|ments?)$/, "");
  if (verb !== term && verb.length >= 4) return verb;
  return term.replace(/(ies|es|s|ing|ed|ly)$/, "") || term;
}
