// Reading text the way the answer needs it: the search terms of a question,
// sentences, table rows (quoted only as compact labelled lines), a form's numbered
// lines ("Line 11: ..."), headings (never quoted, also when run into a sentence), a
// book's index (never quoted) and a table of contents (only for where to look), words
// broken at line ends (made whole in quotes), the kind of fact a question asks for, and how well
// a sentence answers it. Shared by
// retrieval (re-ranking passages by their best sentence) and the local responder.

import { listedCases } from "./listed-cases";
import { glossaryMatches } from "./glossary";

/** How much the question terms of the previous sentence count for a sentence. */
const NEIGHBOUR_WEIGHT = 0.35;
/** The weight of a sentence that holds the kind of fact asked for (an amount, a period, a date, a rule). */
const FACT_BONUS = 3;
/** How much more a code the question names by its letter ("code W") counts than another term as rare. */
const CODE_WEIGHT = 3;
/**
 * How much a word of a compound the question writes ("time" of "full-time") counts alone: the
 * compound is the term, its words alone are mostly other things (bench:offline, dev fact in answer:
 * 68 at 0, 69 at 0.25, 68 at 0.5, 66 at 1).
 */
const PART_WEIGHT = 0.25;

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

/**
 * A change in a quantity asked ("how did net sales change", "the change in cash", "2023 vs 2022"):
 * the words asking it are the asking's, not the subject's. Documents state a change as "increased"
 * or "decreased"; "change" finds "Change in short-term debt" and "accounting changes".
 */
const QUANTITY_CHANGE =
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

/** Search terms from any user text: letters and digits only (and a form name's hyphen), so quotes and FTS operators can never break the query. */
export function queryTerms(text: string): string[] {
  const lower = text.toLowerCase();
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

/** Words naming a part of a document, after which a letter ends a sentence ("Complete Schedule A."). */
const DOCUMENT_PARTS =
  "Schedule|Worksheet|Part|Section|Information|Exhibit|Appendix|Annex|Table|Form|Item|Step|Chapter|Note|Line|Box|Column|Figure|Class|Series|Category|Plan|Option|Method|Test|Tier|Type";

/** Abbreviations a number follows ("see Pub. 505, Tax Withholding...", "OMB No. 1545-0074", "Cat. No. 11320B"). */
const NUMBERED = "Pubs?|[Nn]os?|Cat|Rev|Sec|Fig|Vol|Regs?";

/**
 * Where a sentence ends and the next begins: a capital or a number after . ! or ?, but never after
 * a title ("Ms. Barry"), "U.S." ("U.S. GAAP"), "U.S.C." or a name's middle initial ("/s/ Nicholas
 * C. Gangestad"), nor between an abbreviation and its number ("Pub. 505"), while a part of a form
 * named by a letter ends one ("on Schedule A.").
 */
const SENTENCE_END = new RegExp(
  String.raw`(?<=[.!?])(?<!\b(?:Mr|Mrs|Ms|Dr|Prof|U\.S|U\.S\.C)\.)(?<!(?:^|\s)(?!(?:${DOCUMENT_PARTS})\s)\p{Lu}\p{Ll}+ \p{Lu}\.)(?!(?<=\b(?:${NUMBERED})\.)\s+\p{N})\s+(?=["'(\[]?[\p{Lu}\p{N}])`,
  "u",
);

/** A part of a document named before a letter ("Schedule C—Profit or Loss"), which is no code's entry. */
const NAMES_A_PART = new RegExp(String.raw`\b(?:${DOCUMENT_PARTS}|Copy)\s*$`);
const isCapital = (c: string | undefined) => c !== undefined && c >= "A" && c <= "Z";
const DASHES = /[—–]/g;

/** Where entries of a list of codes start ("W—Employer contributions..."): a capital or two after a space, a dash, a capital. */
function codeEntryStarts(text: string): number[] {
  const starts: number[] = [];
  for (const { index: dash } of text.matchAll(DASHES)) {
    if (!isCapital(text[dash + 1]) || !isCapital(text[dash - 1])) continue;
    const start = isCapital(text[dash - 2]) ? dash - 2 : dash - 1;
    if (start > 0 && text[start - 1] === " " && !NAMES_A_PART.test(text.slice(Math.max(0, start - 12), start))) starts.push(start);
  }
  return starts;
}

/**
 * The text cut into sentences at SENTENCE_END, and before each entry of a list of codes: an entry
 * starts a sentence even where the one before ends without a stop ("...and 5) D—Elective
 * deferrals"). Entries are found from their dashes: a pattern for them tried at every position of
 * every text made all splitting half as slow again.
 */
export function sentencePieces(text: string): string[] {
  const pieces = text
    .split(SENTENCE_END)
    .map((s) => s.trim())
    .filter(Boolean);
  if (!codeEntryStarts(text).length) return pieces;
  return pieces.flatMap((piece) => {
    const starts = codeEntryStarts(piece);
    return starts.length ? [0, ...starts].map((from, i) => piece.slice(from, starts[i] ?? piece.length).trim()) : [piece];
  });
}

/**
 * A short bold heading that runs into its paragraph ("Due dates. By February 2, 2026, furnish..."):
 * read with the sentence after it, whose subject it names, and quoted without it.
 */
const RUN_IN_HEADING = /^\p{Lu}[\p{L}-]*(?: [\p{L}-]+){0,2}\.$/u;
const isRunInHeading = (piece: string) => piece.length < 20 && RUN_IN_HEADING.test(piece);
/** The sentence a run-in heading was read with, without the heading ("By February 2, 2026, furnish..."). */
function withoutRunInHeading(sentence: string): string {
  const stop = sentence.indexOf(". ");
  return stop > 0 && isRunInHeading(sentence.slice(0, stop + 1)) ? sentence.slice(stop + 2) : sentence;
}

export function splitSentences(text: string): string[] {
  const pieces = sentencePieces(text);
  // A list number ("you: 1.", not "line 19.") or a question ("How long should
  // records be kept?") belongs with what follows it: the answer is the next sentence.
  const sentences: string[] = [];
  for (const piece of pieces) {
    const last = sentences.at(-1);
    if (last !== undefined && (/(^|[:;]\s*)\(?\d{1,2}[.)]$/.test(last) || /\?$/.test(last) || isRunInHeading(last)))
      sentences[sentences.length - 1] = `${last} ${piece}`;
    else sentences.push(piece);
  }
  return sentences.filter((s) => s.length >= 20);
}

// Words that open a sentence in running text. A run of capitalised words ending in
// one of these ("Age Test To meet this test...", "Early Distributions You must...")
// is a heading the text extraction ran into its first sentence.
const SENTENCE_OPENERS = new Set(
  "a after all also although an any as at because before beginning both by certain check complete do don't don’t each enter even for generally he however if in include it keep most no not once only see she since some the there these they this those to under unless use we what when where whether while with without you your".split(
    " ",
  ),
);
const CONNECTORS = new Set(["of", "and", "or", "for", "the", "to", "in", "on", "a", "an", "with", "by", "from", "&"]);

/**
 * A heading run into the sentence after it ("Amount You Owe To avoid interest...",
 * "Line 23 Educator Expenses If you were..."): the heading and the sentence, or
 * null when the piece starts with no such heading.
 */
export function leadingHeading(piece: string): { heading: string; sentence: string } | null {
  const words = piece.split(" ");
  let run = 0;
  while (run < words.length) {
    const w = words[run]!;
    const titled = /^["'(]?[\p{Lu}\p{N}]/u.test(w) && !/[,.;:!?)]$/.test(w);
    if (!titled && !(run > 0 && CONNECTORS.has(w))) break;
    run++;
  }
  // the run ends with the sentence's first word, followed by running text
  if (run < 2 || run >= words.length || !/^\p{Ll}/u.test(words[run]!)) return null;
  const opener = words[run - 1]!;
  const heading = words.slice(0, run - 1);
  if (!/^\p{Lu}/u.test(opener) || !SENTENCE_OPENERS.has(opener.toLowerCase()) || CONNECTORS.has(heading.at(-1)!)) return null;
  // a list or row number before a sentence ("2 Don't report...") is no heading
  if (!heading.some((w) => /\p{L}/u.test(w)) || heading.length > 12) return null;
  return { heading: heading.join(" "), sentence: words.slice(run - 1).join(" ") };
}

/**
 * What kind of fact a question asks for; a sentence holding that kind of fact is preferred as the
 * answer. "money" is a sum asked ("how much did we spend"); "figure" an amount asked as a share or
 * a change ("what percentage", "any drop in cash"), which a percent states as well as a sum.
 */
export type FactKind = "money" | "figure" | "number" | "duration" | "date" | "rule" | "reason" | "person" | "reference";

/** A place on the forms named in a question: "which line", "what form". */
const PLACE_NAMED = String.raw`(which|what) (form|schedule|line|box|worksheet)s?\b`;
/** Where something goes on the forms asked: "where do I report it?", "where on the form do I put...". */
const PLACE_ASKED = String.raw`\bwhere\b(?: on [\w\s]{1,30}?)? (do|does|should|can|would|must|to) (i|we|you|it|they)?\s*(report|enter|put|include|claim|take|show|list|go)\b`;
/** A question opening with the place it asks; one asking a place anywhere. */
const OPENS_WITH_PLACE = new RegExp(`^\\W*${PLACE_NAMED}`);
const ASKS_PLACE = new RegExp(`\\b${PLACE_NAMED}|${PLACE_ASKED}`);

/** An amount asked as a share of another ("what percentage", "at what rate", "the gross margin"): a percent states it as well as a sum. */
const SHARE_ASKED = /\b(percent(age)?|rate|ratio|proportion|margin)s?\b|\b(share|portion|part) of\b|%/;

/** A table row states amounts and numbers: never the answer to when, how long or whether. */
export const rowAnswers = (kind: FactKind | null) => kind === null || kind === "money" || kind === "figure" || kind === "number";

/** What follows a question's last "?": how to answer it ("Answer in USD billions.", "If ..., please explain why."), not what it asks. */
const AFTER_THE_QUESTION = /(?<=\?)[^?]*\S[^?]*$/;

/**
 * Whether a quantity held over time is asked ("Are gross margins historically consistent?", "did
 * it fluctuate?"): its figures, period by period, answer it.
 */
const STEADINESS_ASKED = /\b(consistent|stable|steady|fluctuat\w*|volatil\w*)\b/;

export function askedFactKind(question: string): FactKind | null {
  const q = question.toLowerCase().replace(AFTER_THE_QUESTION, "");
  // a cause asked ("why...", "what drove the increase?") is answered by the sentence that gives one
  if (/\b(why|what (drove|drives|caused|causes|led to|explains?)|reasons? (for|behind|why))\b/.test(q)) return "reason";
  if (/\bhow (long|soon)\b|how much (more |extra |additional )?time|how many (days|weeks|months|years)/.test(q)) return "duration";
  // a question opening with the place it asks ("Which line tells me how much I owe?") asks the place, not the amount
  if (OPENS_WITH_PLACE.test(q)) return "reference";
  // "who is the CEO?" asks a name; "who can claim...?" does not
  if (/\bwho (is|was|are|were|signed|signs)\b/.test(q)) return "person";
  if (
    /\b(fine|penalty|fee|charge|cost|price|rate|margin|percent(age)?|amount|limit|ceiling|cap|maximum|minimum|threshold|how much|worth)\b/.test(
      q,
    ) ||
    // a limit asked in other words: "the most I can deduct", "at what level of income must I file", "at what
    // modified AGI...", "the biggest share of my benefits"
    /\bthe (most|least)\b.*\b(can|could|may|allowed)\b|\bat what (?!age\b)\w+|\b(biggest|largest|highest|smallest|lowest) (share|part|portion|percentage)\b/.test(
      q,
    ) ||
    // an amount named: "what's the standard deduction for a single filer?", "what was our revenue in 2023?"
    /\bwhat('s| is| was| are| were)\s+(the|my|our|your|its|their)\b[^?.,;]*\b(deduction|credit|exemption|exclusion|allowance|refund|salary|revenue|sales|income|earnings|capex|dividend)s?\b/.test(
      q,
    )
  )
    return SHARE_ASKED.test(q) ? "figure" : "money";
  // a change in a quantity is told by its figures: "was there any drop in cash", "did wages increase or decrease",
  // "how did net sales change from 2017 to 2018?"
  if (
    /\b(drop|decline|decrease|increase|rise|growth|change|fall)\s+in\b|\bdid\b.*\b(increase|decrease|grow|decline|drop|rise|fall)\b/.test(
      q,
    ) ||
    QUANTITY_CHANGE.test(q) ||
    STEADINESS_ASKED.test(q)
  )
    return /\bnumber of\b/.test(q) ? "number" : "figure";
  // where something goes on the forms: "which line of my return?", "which form should they send me?", "where do I report it?"
  if (ASKS_PLACE.test(q)) return "reference";
  if (/\b(how many|how old|what age|up to what age|how far)\b/.test(q)) return "number";
  // "when" asks a date where it opens the question or a clause ("..., when is it due?", "by when"),
  // not inside one ("the rate I can use when I drive")
  const whenAsked = /(^|[.?!,;]\s*|\bby )when\b/.test(q);
  if (whenAsked || /\b(deadline|due date|what date|by what|until|latest date|how late)\b/.test(q)) return "date";
  if (
    /^\s*(can|may|must|do|does|is|are|should|am|will|would|could|have to)\b/.test(q) ||
    /\b(allowed|required|eligible|qualify|need to|have to|should i|do i)\b/.test(q)
  )
    return "rule";
  return null;
}

const MONTH = /\b(january|february|march|april|may|june|july|august|september|october|november|december)\b/i;
const PERIOD =
  /\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(thir|four|fif|six|seven|eigh|nine)teen|(twen|thir|for|fif|six)ty)[- ](calendar |business )?(days?|weeks?|months?|years?)\b/i;
/** A number that is not a year, a form or a line ("2024", "Form 4868", "line 8"). */
const PLAIN_NUMBER = /(?<!\b(form|line|box|step|part|publication|pub\.|schedule|page|chapter)\s)\b(?!(19|20)\d\d\b)\d+(\.\d+)?\b/i;

/** A calendar date ("January 31, 2025", "April 17"), not the word "may". */
const FULL_DATE = /\b(january|february|march|april|may|june|july|august|september|october|november|december)\s+\d{1,2}\b/i;
const MONTH_NAME = /\b(January|February|March|April|May|June|July|August|September|October|November|December)\b/;

/**
 * How plainly a sentence states the kind of fact asked, 0 to 1: a date asked is
 * best answered by a calendar date, less by a month or a period.
 */
export function factStrength(sentence: string, kind: FactKind): number {
  if (kind === "date") return FULL_DATE.test(sentence) ? 1 : MONTH_NAME.test(sentence) || PERIOD.test(sentence) ? 0.5 : 0;
  // an amount of money asked is stated by a sum, by a percent only in part ("63% of our capital
  // spending" tells not how much was spent); a share asked ("what percentage") by either
  if (kind === "money") return MONEY_SUM.test(sentence) ? 1 : PERCENT.test(sentence) ? PERCENT_FOR_SUM : 0;
  return statesFact(sentence, kind) ? 1 : 0;
}

/**
 * How plainly a table row states the amount asked: wholly, but a share asked ("gross margins")
 * only in part by a row of dollar sums ("Gross profit: 2023 $9,912"), where a row of percents
 * beside it states it ("Gross profit as a % of revenue: 2023 21.4%"). A row of bare figures may be
 * percents its column heads name ("% Change"), as may a row under them ("% Change United States: $6,185; $11,222; (45)").
 */
const rowStrength = (row: string, shareAsked: boolean) =>
  shareAsked && MONEY_SUM.test(row) && !/%|\bpercent/i.test(row) ? SUM_FOR_SHARE : 1;
const SUM_FOR_SHARE = 0.5;

/** How plainly a percent states an amount of money asked (bench:offline: 0.5 against 1 gave FinanceBench fact 5 -> 6/15, dev 66 -> 67/89). */
const PERCENT_FOR_SUM = 0.5;
/** A sum of money: "$50", "$ 1,577", "12 cents" ("$ 3" with one digit is a form's blank before its line number, not an amount). */
const MONEY_SUM = /\$\d|\$ \d[\d,.]*\d|\b\d+\s+cents\b/i;
const PERCENT = /\d\s?%|\bpercent\b/i;

export function statesFact(sentence: string, kind: FactKind): boolean {
  switch (kind) {
    case "money":
    case "figure":
      return MONEY_SUM.test(sentence) || PERCENT.test(sentence);
    case "number":
      return PLAIN_NUMBER.test(sentence);
    case "duration":
      return PERIOD.test(sentence);
    case "date":
      return MONTH.test(sentence) || PERIOD.test(sentence);
    case "rule":
      return /\b(must|may|can|cannot|\w*n['’]t|do not|only if|required|not|allowed|eligible|qualif\w*)\b/i.test(sentence);
    case "person":
      return PERSON_NAME.test(sentence);
    case "reference":
      return DOCUMENT_REFERENCE.test(sentence);
    case "reason":
      return /\b(because|due to|driven by|as a result of|attributable to|result(ed|ing)? from|owing to|reflect(s|ed|ing)?|primarily from)\b/i.test(
        sentence,
      );
  }
}

/** A part of the forms named ("Schedule 1 (Form 1040), line 8g", "Form 1099-C", "Schedule B", "box 12"); a post office box ("Box 2188") is none. */
const DOCUMENT_REFERENCE = /\b(Form|Schedule|Worksheet)\s+[\dA-Z]|\bline\s+\d|\bbox\s+\d{1,2}[a-z]?\b/i;

/** A person named as documents name people: with a title ("Ms. Barry"), signing ("/s/"), or with a middle initial ("Corie S. Barry"). */
const PERSON_NAME = /\b(Mr|Mrs|Ms|Dr)\.\s+\p{Lu}|\/s\/\s*\p{Lu}|\b\p{Lu}\p{Ll}+ \p{Lu}\. \p{Lu}\p{Ll}+/u;

const NUMERIC_TOKEN = /^[$(]?[-+]?[\d.,]*\d[\d.,]*%?\)?$/;

/** A calendar date with its year ("January 28, 2023"). */
const CALENDAR_DATE = String.raw`${MONTH_NAME.source} \d{1,2}, (19|20)\d\d`;
/** Two calendar dates side by side, a table's column heads ("January 28, 2023 January 29, 2022"): running text puts a word between. */
const DATE_COLUMNS = new RegExp(String.raw`${CALENDAR_DATE}\s+(\(\w+\)\s+)?${CALENDAR_DATE}\b`);
const CALENDAR_DATES = new RegExp(CALENDAR_DATE, "g");

/**
 * A table row read as text ("2018 2017 $ 17,360 $ 16,202 ..."), or several rows
 * run together: mostly numbers, figures in columns (runs of three or more, or
 * three rows of two), or columns headed by dates (a balance sheet's two columns).
 */
export function isTableRow(sentence: string): boolean {
  if (DATE_COLUMNS.test(sentence)) return true;
  // a date's day and year are no figures ("File Form 1040 by April 17, 2018.")
  const tokens = sentence
    .replace(CALENDAR_DATES, "date")
    .split(/\s+/)
    .filter((t) => t !== "$" && t !== "%");
  const numeric = tokens.filter((t) => NUMERIC_TOKEN.test(t)).length;
  if (numeric >= 3 && numeric / tokens.length >= 0.35) return true;
  let run = 0;
  let columns = 0;
  for (const t of tokens) {
    run = NUMERIC_TOKEN.test(t) ? run + 1 : 0;
    if (run >= 4) return true;
    if (run === 3) columns++;
  }
  return columns >= 2 || figurePairs(sentence) >= 3;
}

/**
 * Two figures side by side, as many times as a two-column statement has rows ("Receivables, net
 * 1,141 1,042"): running text puts a word between two figures, but for a date's day and year.
 */
function figurePairs(sentence: string): number {
  let pairs = 0;
  let run = 0;
  for (const t of sentence.replace(CALENDAR_DATES, "date").split(/\s+/)) {
    if (t === "$" || t === "%") continue;
    run = NUMERIC_TOKEN.test(t) ? run + 1 : 0;
    if (run === 2) pairs++;
  }
  return pairs;
}

// Abbreviations a sentence may run on after in lower case ("XYZ Corp. paid", "paper vs. electronic").
const ABBREVIATIONS = new Set("approx co corp dept etc inc jr ltd mr mrs ms no pub sr st vs".split(" "));

/**
 * The cells of a table row read across ("... at work $230,000 or less a full
 * deduction. more than $230,000 but less than $240,000 a partial deduction."):
 * running text never goes on in lower case after a full stop, except after an
 * abbreviation or before a list letter ("true. a."). Not a sentence, and with no
 * figures in columns, no labelled line either: never quoted.
 */
export function runsTableCells(sentence: string): boolean {
  // from each full stop (most sentences have only their last): one pattern over the whole
  // sentence cost a first question's re-rank of 50 new passages ~3 ms
  for (let stop = sentence.indexOf("."); stop > 0; stop = sentence.indexOf(".", stop + 1)) {
    const next = /^\s+(\p{Ll}{2,})/u.exec(sentence.slice(stop + 1, stop + 40));
    const last = next && /(\p{L}{2,}|\))$/u.exec(sentence.slice(Math.max(0, stop - 30), stop));
    if (last && !ABBREVIATIONS.has(last[1]!.toLowerCase()) && !/^[ivx]+$/.test(next[1]!)) return true;
  }
  return false;
}

/**
 * Entries of a book's index read as text ("Modified AGI, effect on deduction (Table 9-2)
 * Lived apart from spouse ...", "Banks: IRAs with When and How Can a Traditional…",
 * "Aliens Nonresident (See Nonresident aliens) Resident ..."): an entry's link text cut
 * short with "…", or a table, worksheet or "See" reference with the next entry after it.
 * Dense with a question's terms and answering nothing. Each alternative opens with a
 * literal ("…" or "("), which the engine finds fast: this runs on every new passage.
 */
const INDEX_ENTRY = /…\s*(?:,?\s*\p{Lu}|$)|(?<=\S\s+)\((?:(?:Table|Worksheet|Figure)\s[\w–-]+|See (?:also )?[^).]+)\)\s+\p{Lu}/u;
const INDEX_ENTRIES = new RegExp(INDEX_ENTRY.source, "gu");

export const isIndexEntry = (sentence: string) => INDEX_ENTRY.test(sentence);

/** A passage of a book's index: two entries or more (none in the running text of any corpus PDF). */
export const isIndexPassage = (text: string) => (text.match(INDEX_ENTRIES)?.length ?? 0) >= 2;

/**
 * An entry of a table of contents or of a numbered list read as text ("...Supplemental Balance
 * Sheet Information 81 Note 8. ...", "...Armed Forces’ Tax Guide 501 Dependents..."): a page or
 * list number (no figure: no comma, at most three digits) between a word and a capitalised one; the
 * number of an item, a note or a part ("ITEM 9", "Note 8") names the entry, it is no page.
 */
const LIST_NUMBER = / (\d{1,3})(?= \p{Lu}| ?$)/gu;
/** Words whose number names an entry rather than its page ("ITEM 9", "Note 8", "Part 2"). */
const ENTRY_LABEL = /(?:^|\s)(?:item|note|part|chapter|section|step|line|form|box|page|pub|publication|schedule|topic)$/i;

/** The list numbers of a text, in order: after a word (or a closing parenthesis), before a capitalised word or the end. */
function listNumbers(text: string): number[] {
  const numbers: number[] = [];
  for (const m of text.matchAll(LIST_NUMBER)) {
    const before = text.slice(Math.max(0, m.index - 12), m.index);
    if (/[\p{L})]{2}$/u.test(before) && !ENTRY_LABEL.test(before)) numbers.push(Number(m[1]));
  }
  return numbers;
}
/** Entries fewer than this are numbers in running text ("see chapter 2 of Pub. 505. When To Pay"). */
const MIN_LIST_ENTRIES = 8;

/**
 * A passage of a table of contents (or a list of numbered topics, publications or form boxes):
 * eight entries or more, nearly all numbered upwards. Its entries run together into "sentences"
 * ("Supplemental Balance Sheet Information 81 Note 8.") that name a question's words and state
 * nothing but where to look.
 */
export function isContentsPassage(text: string): boolean {
  const numbers = listNumbers(text);
  if (numbers.length < MIN_LIST_ENTRIES) return false;
  let upwards = 0;
  for (let i = 1; i < numbers.length; i++) if (numbers[i]! >= numbers[i - 1]!) upwards++;
  return upwards >= 0.85 * (numbers.length - 1);
}

/** A piece of a contents passage that holds one of its entries. */
const holdsListEntry = (piece: string) => listNumbers(piece).length > 0;

/** A question asking where to look ("On which page...", "Which tax topic...", "Where can I find..."): a contents entry answers it. */
const ASKS_WHERE_TO_LOOK =
  /\b(which|what)\s+(\w+\s+)?(pages?|topics?|notes?|items?|sections?|chapters?|parts?|publications?|pubs?)\b|\bwhere\b.*\b(find|read|look|see|discuss|cover|explain)/i;

/** A table's figure: "1,577", "$(7)", "23.0%", "(5.4)%" (a percent below nothing), a dash for none. */
const ROW_VALUE = /^[$(]?[-+]?\d[\d,]*(\.\d+)?(%?\)?|\)%)$|^[—–-]$/;
const YEAR = /^(19|20)\d\d$/;
/** A figure no label holds: a percent, or a grouped or decimal number ("2.9%", "576,575,168", "0.3"). */
const SHORT_ROW_FIGURE = /%|\d[,.]\d/;
/** A footnote's mark: "(1)", "(a)". */
const FOOTNOTE_MARK = /^\((\d|[a-z])\)$/;
/** Words of a row's label kept at most (the end of a label names the row; its start may be a section's title). */
const ROW_LABEL_WORDS = 12;

/** "Three Months Ended", "Twelve months ended": the period a run of repeated dates heads, in turn. */
const PERIOD_ENDED = /\b(Three|Six|Nine|Twelve|Thirteen|Fourteen|Fifty-two|Fifty-three|13|14|26|39|52|53) (Months|Weeks) Ended\b/gi;
/** Words before a table's dates read for the periods they head (and characters, for a chunk inheriting them). */
const MAX_PERIOD_WORDS = 40;
const PERIODS_BEFORE_CHARS = 300;

/**
 * The heads of a run of dates: the dates when they differ; when they repeat ("December 31, 2022
 * December 31, 2021 December 31, 2022 December 31, 2021"), each with the period it ends, read in
 * turn from the periods written before them ("Three months ended ... Twelve months ended"): none
 * when those do not say.
 */
function datedHeads(dates: readonly string[], before: string): string[] {
  const distinct = new Set(dates).size;
  if (distinct === dates.length) return [...dates];
  const periods = [...before.matchAll(PERIOD_ENDED)].map((m) => m[0].charAt(0).toUpperCase() + m[0].slice(1).toLowerCase());
  if (dates.length % distinct !== 0 || periods.length !== dates.length / distinct) return [];
  return dates.map((date, n) => `${periods[Math.floor(n / distinct)]} ${date}`);
}

/**
 * A table's column heads, and where its rows start: the first run of two or more years ("2018
 * 2017 2016"), or of two or more dates ("July 29, 2023 January 28, 2023"; dates repeated for
 * periods of different lengths are read with their periods: datedHeads).
 */
/** Whether a calendar date ("July", "29,", "2023") starts at token i. */
const dateAt = (tokens: readonly string[], i: number) =>
  MONTH_NAME.test(tokens[i] ?? "") && /^\d{1,2},$/.test(tokens[i + 1] ?? "") && YEAR.test(tokens[i + 2] ?? "");

function columnHeads(tokens: readonly string[]): { heads: string[]; start: number } {
  for (let i = 0; i < tokens.length; i++) {
    let j = i;
    while (j < tokens.length && YEAR.test(tokens[j]!)) j++;
    if (j - i >= 2) return { heads: splitDatedHeads(tokens, i, tokens.slice(i, j)) ?? tokens.slice(i, j), start: j };
    const dates: string[] = [];
    for (j = i; dateAt(tokens, j); j += 3) dates.push(tokens.slice(j, j + 3).join(" "));
    if (dates.length >= 2) return { heads: datedHeads(dates, tokens.slice(Math.max(0, i - MAX_PERIOD_WORDS), i).join(" ")), start: j };
  }
  return { heads: [], start: 0 };
}

/**
 * Heads whose dates a PDF split, the month and day over their years ("13 Weeks Ended 52 Weeks Ended
 * January 28, January 29, January 28, January 29, (Dollars in millions) 2023 2022 2023 2022"),
 * when the years repeat for periods of different lengths: the dates made whole and named by their
 * periods ("13 weeks ended January 28, 2023"); null otherwise (the years alone head the figures).
 */
function splitDatedHeads(tokens: readonly string[], at: number, years: readonly string[]): string[] | null {
  if (new Set(years).size === years.length) return null;
  const before = tokens.slice(Math.max(0, at - MAX_PERIOD_WORDS), at);
  for (let k = 0; k + 1 < before.length; k++) {
    const days: string[] = [];
    let d = k;
    for (; MONTH_NAME.test(before[d] ?? "") && /^\d{1,2},$/.test(before[d + 1] ?? ""); d += 2) days.push(`${before[d]} ${before[d + 1]}`);
    if (days.length === years.length) {
      const heads = datedHeads(
        days.map((day, n) => `${day} ${years[n]}`),
        before.slice(0, k).join(" "),
      );
      return heads.length ? heads : null;
    }
    // another date ("March 9, 2023" of a release's dateline), or a run of another count: read on after it
    if (days.length) k = d - 1;
  }
  return null;
}

/** A table's column heads in a page's text: two or more years side by side ("2018 2017 2016"), or calendar dates ("July 29, 2023 January 28, 2023"). */
const HEAD_RUN = new RegExp(
  String.raw`(?<![\p{L}\p{N},$])(?:(?:19|20)\d\d\s+)+(?:19|20)\d\d(?![\p{L}\p{N}])|(?:${CALENDAR_DATE}\s+)+${CALENDAR_DATE}\b`,
  "gu",
);
const HOLDS_HEAD_RUN = new RegExp(HEAD_RUN.source, "u");
/** A word that ends a sentence ("were as follows.", "in fiscal 2023."): running text, no table's. */
const ENDS_SENTENCE = /\p{Ll}{2,}[.!?](?:\s|$)/u;

/** A table's heads are a few years or dates: a longer run of them is no table's heads (a list of years, a hostile page). */
const MAX_HEADS_CHARS = 200;

/** Where a page's text has column heads (HEAD_RUN), read once for all its chunks. */
export const headRuns = (page: string): { index: number; text: string }[] =>
  [...page.matchAll(HEAD_RUN)].filter((run) => run[0].length <= MAX_HEADS_CHARS).map((run) => ({ index: run.index!, text: run[0] }));

/**
 * The column heads a chunk of a page inherits when it starts inside a table whose heads an
 * earlier chunk holds: a long statement is cut into chunks, and the rows after the first would
 * lose which figure is which year. The heads of the last table before the chunk, when only that
 * table lies between (no sentence ends there); null when the chunk starts outside a table, or
 * with heads of its own. `page` is the page's normalised text, `runs` its headRuns, `at` where the
 * chunk starts in it.
 */
export function inheritedHeads(page: string, runs: readonly { index: number; text: string }[], at: number, chunk: string): string | null {
  if (at === 0) return null;
  const last = runs.findLast((run) => run.index < at);
  if (!last) return null;
  const end = last.index + last.text.length;
  // the chunk starts inside the heads ("January 28, 2023 July 30, 2022 Cash and..."): the heads before it complete them
  if (end > at) return page.slice(last.index, at).trim() || null;
  const first = sentencePieces(chunk)[0] ?? "";
  if (!isTableRow(first) || HOLDS_HEAD_RUN.test(first) || ENDS_SENTENCE.test(page.slice(end, at))) return null;
  const before = page.slice(Math.max(0, last.index - PERIODS_BEFORE_CHARS), last.index);
  if (columnHeads(last.text.split(" ")).heads.length) {
    // years repeated for periods of different lengths, their months and days split before them
    // (splitDatedHeads): the heads are read from the first period's name on
    const from = before.search(PERIOD_ENDED);
    const whole = from >= 0 ? `${before.slice(from)} ${last.text}`.replace(/\s+/g, " ") : null;
    return whole && /ended/i.test(columnHeads(whole.split(" ")).heads[0] ?? "") ? whole : last.text;
  }
  // dates repeated for periods of different lengths are the periods' heads, with their periods (datedHeads)
  const periods = before.match(PERIOD_ENDED);
  const withPeriods = periods && `${periods.join(" ")} ${last.text}`;
  return withPeriods && columnHeads(withPeriods.split(" ")).heads.length ? withPeriods : null;
}

/** A passage's text as its sentences and rows are read: with the column heads it inherits first (inheritedHeads). */
export const withColumnHeads = (passage: { text: string; columnHeads?: string }) =>
  passage.columnHeads ? `${passage.columnHeads} ${passage.text}` : passage.text;

/** A labelled row's label, as labelledRows writes a row ("Revenue: 2023 $46,298; ..." -> "Revenue"). */
export const rowLabelText = (row: string): string => {
  const at = row.lastIndexOf(": ");
  return at < 0 ? row : row.slice(0, at);
};

/** What a labelled row says after its label ("July 29, 2023 $1,093; January 28, 2023 $1,874"); null for no labelled row. */
export const rowFiguresText = (row: string): string | null => {
  const at = row.lastIndexOf(": ");
  return at < 0 ? null : row.slice(at + 2);
};

/**
 * The rows of a table read as text, each as a compact labelled line ("Purchases of
 * property, plant and equipment (PP&E): 2018 (1,577); 2017 (1,373); 2016 (1,420)"):
 * the label, then its figures, each after its column's year or date when the table
 * starts with a row of them (columnHeads).
 */
export function labelledRows(table: string): string[] {
  const tokens = table.split(/\s+/).filter(Boolean);
  const { heads: first, start } = columnHeads(tokens);
  let header = first;
  let minValues = header.length || 2;
  const rows: string[] = [];
  let label: string[] = [];
  let values: string[] = [];
  let dollar = false;
  const flush = () => {
    // a footnote's mark after the label ("Gross profit as a % of revenue (1) 21.4 % 22.5 % 22.4 %"),
    // or the mark opening the footnote below the table, is a figure more than the table has columns,
    // and unlike the row's figures (percents, or dollars): no figure, and no word of what the row counts
    const figures = values.filter((v) => !FOOTNOTE_MARK.test(v));
    if (header.length && (figures.every((v) => v.endsWith("%")) || figures.every((v) => v.startsWith("$")))) {
      if (values.length > header.length && FOOTNOTE_MARK.test(values[0]!)) values.shift();
      if (values.length > header.length && FOOTNOTE_MARK.test(values.at(-1)!)) values.pop();
    }
    const words = label.slice(-ROW_LABEL_WORDS);
    // a label of words and figures that are not all years (a run of dates is no row)
    // an index line ("RRTA tax withheld 72 Exemptions 15 Extension of time to file 7, 71", "interest
    // deduction 37 T Tax and credits 38–52") has page numbers or ranges in its label
    const pageNumbers = words.filter((w) => /^\d+(?:[–-]\d+)?,?$/.test(w)).length;
    if (values.length >= minValues && words.some((w) => /\p{L}{2}/u.test(w)) && !values.every((v) => YEAR.test(v)) && pageNumbers < 2) {
      // a table's title ending in its columns' date ("NET REVENUES ... Twelve months ended December 31,
      // 2022") is a heading, and a column's date alone ("December 31, 2021") no row: neither has figures
      if (!(MONTH_NAME.test(words.at(-1)!) && /^\d{1,2},$/.test(values[0]!))) {
        const figures = header.length === values.length ? values.map((v, i) => `${header[i]} ${v}`) : values;
        rows.push(`${words.join(" ")}: ${figures.join("; ")}`);
      }
    }
    label = [];
    values = [];
  };
  for (let at = start; at < tokens.length; at++) {
    const token = tokens[at]!;
    // another table's column dates ("... EBITDAR (In thousands) Three months ended ... December 31, 2022
    // December 31, 2021 ..."): its title is no row's label, its dates no row's figures, but its heads
    if (dateAt(tokens, at) && dateAt(tokens, at + 3)) {
      let end = at + 3;
      while (dateAt(tokens, end)) end += 3;
      const next = columnHeads(tokens.slice(Math.max(0, at - MAX_PERIOD_WORDS), end));
      if (next.heads.length) {
        flush();
        header = next.heads;
        minValues = header.length;
        at = end - 1;
        continue;
      }
    }
    if (token === "$") {
      dollar = true;
      continue;
    }
    if (ROW_VALUE.test(token)) {
      values.push(dollar && /\d/.test(token) ? `$${token}` : token);
      dollar = false;
      continue;
    }
    // a percent sign set apart from its figure ("23.0 %") is the figure's; an amount's ("$2,391",
    // "14,212") takes none: its "%" starts the next label ("% of revenue")
    if (token === "%" && values.length && /\d\)?$/.test(values.at(-1)!) && !/[$,]/.test(values.at(-1)!)) {
      values[values.length - 1] += "%";
      continue;
    }
    dollar = false;
    // figures inside a label ("maturities greater than 90 days") are part of it; a percent or a
    // grouped or decimal figure is a short row's ("Total sales change 2.9% 4.4%"), not the next label's
    if (values.length >= minValues) flush();
    else if (values.some((v) => SHORT_ROW_FIGURE.test(v))) {
      label = [];
      values = [];
    } else if (values.length) {
      label.push(...values);
      values = [];
    }
    label.push(token);
  }
  flush();
  return rows;
}

/** A company's form closing its name ("Best Buy Shanghai, Ltd.", "3M West Europe B.V."). */
const COMPANY_FORM = String.raw`Inc|Ltd|Co|Corp|plc|N\.V|S\.A|B\.V|r\.l|C\.V`;
const ENDS_WITH_COMPANY = new RegExp(`\\b(${COMPANY_FORM})\\.$`);
/** The same, with forms that also end sentences ("Ms. Barry worked at Deloitte & Touche LLP."): only for a run of names. */
const ENDS_WITH_ANY_COMPANY = new RegExp(`\\b(${COMPANY_FORM}|L\\.P|LLC|LLP|GmbH|Limited)\\.?$`);
/** Lower-case words inside names ("Kitchen and Bath Centers"): no verb. */
const NAME_JOINERS = new Set(["and", "the", "for", "von", "van", "del", "des"]);

/**
 * A heading or label rather than a sentence: short with no closing punctuation (a company's
 * "Inc." or "Ltd." closes a name in a list, "Best Buy Shanghai, Ltd.", not a sentence), names
 * run together from a list, or mostly capitals.
 */
export function isHeading(sentence: string): boolean {
  const words = sentence.split(/\s+/);
  const closed = /[.!?:;)"]$/.test(sentence);
  if (words.length < 12 && (!closed || ENDS_WITH_COMPANY.test(sentence))) return true;
  // names run together from a list ("... Limited China Best Buy International Finance, S.à r.l.",
  // "... Hong Kong Best Buy Health Holdings, LLC Delaware"), however long: no lower-case word but
  // the "and" of a name ("Kitchen and Bath Centers"), so no verb
  const listed = !closed || ENDS_WITH_ANY_COMPANY.test(sentence);
  if (listed && !words.some((w) => /^\p{Ll}{3,}/u.test(w) && !NAME_JOINERS.has(w))) return true;
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
  /** a table row as a labelled line ("Net income: 2023 1,058; 2022 815") */
  row?: true;
}

/**
 * A sentence of a passage, in lower case for matching question terms, what is
 * quoted of it (the sentence without a heading run into it), and its word count
 * once needed. A table row is there only as a labelled line.
 */
interface QuotableSentence {
  text: string;
  /** for finding question terms in (forMatching) */
  lower: string;
  quote: string;
  /** a table row as a labelled line: never the answer to when, how long or whether */
  row?: true;
  /** an entry of a table of contents: only the answer to where to look */
  entry?: true;
  /** a form's numbered line: a unit of its own, like a row, with no sentence before it */
  formLine?: true;
  words?: number;
  /** factStrength by kind of fact, once asked: the same sentences are scored for question after question */
  strength?: Partial<Record<FactKind, number>>;
  /** the cases a sentence lists after a colon, each read with the lead-in (listed-cases.ts); null: none; read once an answer asks */
  cases?: ListedCase[] | null;
}

/** One case of a listed sentence: `text` is the lead-in and the case, `caseLower` the case alone. */
interface ListedCase extends QuotableSentence {
  caseLower: string;
}

const CONJUNCTION = /^(and|or|to|nor)$/; // "short- and long-term"

/**
 * The words broken at a line end in a text ("execu- tion": start "execu", end "tion"), found from
 * each "- " (one pattern over the whole text tried a run of letters at every position).
 */
function* brokenWords(text: string): Generator<{ at: number; start: string; end: string }> {
  for (let dash = text.indexOf("- "); dash >= 0; dash = text.indexOf("- ", dash + 2)) {
    const start = /\p{L}+$/u.exec(text.slice(Math.max(0, dash - 40), dash))?.[0];
    const end = start && /^\p{Ll}+/u.exec(text.slice(dash + 2, dash + 42))?.[0];
    if (start && end && !CONJUNCTION.test(end)) yield { at: dash - start.length, start, end };
  }
}

const isLetter = (char: string | undefined) => char !== undefined && /\p{L}/u.test(char);

/** A passage (in lower case) writes this word whole somewhere. */
function writesWhole(lower: string, word: string): boolean {
  for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1))
    if (!isLetter(lower[at - 1]) && !isLetter(lower[at + word.length])) return true;
  return false;
}

/**
 * How a passage spells the words broken at its line ends: in lower case, and whether its PDF
 * breaks words anywhere ("execu- tion" beside "execution", as the 1040 instructions do) rather
 * than only at a compound's own hyphen ("self- employed", as Pub 17 does).
 */
function lineBreaks(passage: string): { lower: string; breaksWords: boolean } {
  const lower = passage.toLowerCase();
  const breaksWords = [...brokenWords(passage)].some(({ start, end }) => writesWhole(lower, `${start}${end}`.toLowerCase()));
  return { lower, breaksWords };
}

/**
 * A quote with the words its PDF broke at line ends whole ("execu- tion" -> "execution") where
 * its passage writes them whole or breaks words, else with their hyphen ("self- employed" ->
 * "self-employed"). Only for what is quoted: it reads the whole passage.
 */
export function withWholeWords(quote: string, passage: string): string {
  const breaks = [...brokenWords(quote)];
  if (breaks.length === 0) return quote;
  const { lower, breaksWords } = lineBreaks(passage);
  let whole = quote;
  // from the last break back, so the positions found stay true
  for (const { at, start, end } of breaks.reverse()) {
    const joined = writesWhole(lower, `${start}${end}`.toLowerCase()) || (breaksWords && !passage.includes(`${start}-${end}`));
    whole = `${whole.slice(0, at)}${start}${joined ? "" : "-"}${end}${whole.slice(at + start.length + 2 + end.length)}`;
  }
  return whole;
}

/** A form's header block read as text ("Form 1040 ... Department of the Treasury ... OMB No. 1545-0074 ..."): names the form, answers nothing. */
const FORM_HEADER = /\bOMB No\. \d{4}-\d{4}/;

/**
 * A sentence as quoted: a form line without its dot leaders ("enter 12, etc. . . . . ." -> "enter
 * 12, etc."), without the next list item's bullet and heading run into its end ("...name on line 2.
 * • Disregarded entity."), its own bullet, or a form field's number before it ("3 You must show your name...").
 */
function asQuoted(sentence: string): string {
  const quote = sentence
    .replace(/(?:\s\.){3,}/g, "")
    .replace(/(?<=[.!?])\s+•\s+[^•]{1,40}$/, "")
    .replace(/^[•▪\uf0b7]\s+/u, "")
    .replace(/^\d{1,2}[a-z]?\s+(?=\p{Lu}\p{Ll}+ \p{Ll})/u, "");
  return quote === sentence || /[.!?]$/.test(quote) ? quote : `${quote}.`;
}

/** Dot leaders: a form line's label runs to its number at the right margin ("...adjusted gross income . . . . 11"). */
const LEADERS = /\S(?:\s?\.){2,}\s*\d/;
/**
 * A numbered line of a form read as text: its number, its label, dot leaders and the number again
 * ("11 Subtract line 10 from line 9. This is your adjusted gross income . . . . 11"), or a sub-line's
 * letter with its full number at the end ("b Taxable interest . . . . 2b").
 */
const FORM_LINE =
  /(?<![\p{L}\p{N}.,$])(?:(\d{1,2}[a-z]?)\.?\s+((?:(?!(?:\s?\.){2})[^]){2,200}?)(?:\s?\.){2,}\s*\1\.?|([a-z])\s+((?:(?!(?:\s?\.){2})[^]){2,200}?)(?:\s?\.){2,}\s*(\d{1,2})\3)(?![\p{Ll}\p{N}])/gu;
/** A line whose sub-lines follow it, without leaders ("25 Federal income tax withheld from:"), at the end of the text before a sub-line. */
const PARENT_LINE = /(?<![\p{L}\p{N}.,$])(\d{1,2})\s+([^.]{3,80}?)\s*$/u;

/**
 * A form's numbered lines, each as a labelled line ("Line 11: Subtract line 10 from line 9. This is
 * your adjusted gross income", "Line 25a: Federal income tax withheld from: Form(s) W-2"), and the
 * stretches of text between them, each split into sentences as any other. A line fills the width of
 * the form, so no sentence runs across one: the margin's "Direct deposit? See instructions." after
 * line 35a and "Third Party Designee Do you want..." after line 38 are read apart.
 */
export function formLines(text: string): { lines: string[]; stretches: string[] } {
  if (!LEADERS.test(text)) return { lines: [], stretches: [text] };
  const lines: string[] = [];
  const parents = new Map<string, string>();
  const stretches: string[] = [];
  let from = 0;
  for (const m of text.matchAll(FORM_LINE)) {
    const before = text.slice(from, m.index);
    const number = m[1] ?? `${m[5]}${m[3]}`;
    let label = (m[2] ?? m[4]!).trim();
    const subLine = m[5];
    if (subLine) {
      // a letter found in running text ("...get a Form W-2, see instructions. 1a Total amount..."): the line starts at its number
      const own = label.lastIndexOf(` ${number} `);
      if (own >= 0) label = label.slice(own + number.length + 2);
      const parent = PARENT_LINE.exec(before);
      if (parent && parent[1] === subLine) parents.set(subLine, parent[2]!);
      const parentLabel = parents.get(subLine);
      if (parentLabel) label = `${parentLabel} ${label}`;
    }
    stretches.push(before);
    from = m.index + m[0].length;
    // a numbered label of one word is a form's box or column, not a line to quote
    if (subLine || label.includes(" ")) lines.push(`Line ${number}: ${label}`);
  }
  stretches.push(text.slice(from));
  return { lines, stretches: stretches.filter((stretch) => stretch.trim()) };
}

/**
 * A sentence in lower case for finding question terms in, with each word its PDF broke at a line
 * end also written whole: "the amount with- held" holds "withheld" as well as "with" and "held".
 */
function forMatching(sentence: string): string {
  const lower = sentence.toLowerCase();
  const whole = [...brokenWords(lower)].map(({ start, end }) => start + end);
  return whole.length ? `${lower} ${whole.join(" ")}` : lower;
}

/** A sentence as quoted without a heading run into it ("Base amount. Your base amount is..."). */
function withoutHeading(piece: string): string {
  const glued = leadingHeading(piece)?.sentence;
  return glued && glued.length >= 20 && !isHeading(glued) ? glued : withoutRunInHeading(piece);
}

/** A passage's sentence as an answer quotes it: without a heading run into it, bullets or leaders. */
export const quoteOf = (sentence: string) => asQuoted(withoutHeading(sentence));

/** The cases a sentence lists, each quoted with its lead-in and an ellipsis for the cases left out before it. */
function casesOf(piece: string): ListedCase[] | null {
  const listed = listedCases(piece);
  if (!listed) return null;
  const leadIn = withoutHeading(listed.leadIn);
  return listed.cases.map((c, i) => {
    const text = `${listed.leadIn}: ${c}`;
    return {
      text,
      lower: forMatching(text),
      caseLower: forMatching(c),
      quote: `${leadIn}: ${i ? "… " : ""}${asQuoted(c).replace(/(?<![.!?])$/, ".")}`,
    };
  });
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
  const sentences: QuotableSentence[] = [];
  // a book's index quotes nothing
  const form = isIndexPassage(text) ? { lines: [], stretches: [] } : formLines(text);
  for (const line of form.lines) sentences.push({ text: line, lower: forMatching(line), quote: line, formLine: true });
  const contents = isContentsPassage(form.stretches.join(" "));
  for (const piece of form.stretches.flatMap(splitSentences)) {
    if (contents && holdsListEntry(piece)) {
      sentences.push({ text: piece, lower: forMatching(piece), quote: piece, entry: true });
      continue;
    }
    if (isTableRow(piece)) {
      for (const row of labelledRows(piece)) sentences.push({ text: row, lower: forMatching(row), quote: row, row: true });
      continue;
    }
    if (isHeading(piece) || runsTableCells(piece) || isIndexEntry(piece) || FORM_HEADER.test(piece)) continue;
    sentences.push({ text: piece, lower: forMatching(piece), quote: quoteOf(piece) });
  }
  if (quotableCache.size >= QUOTABLE_CACHE_MAX) quotableCache.delete(quotableCache.keys().next().value!);
  quotableCache.set(text, sentences);
  return sentences;
}

/** A compound a question writes: "full-time", "head-of-household", "e-filing" (a form's name has a digit: "W-2"). */
const COMPOUND = /(?<![\p{L}\p{N}-])\p{L}+(?:-\p{L}+)+(?![\p{L}\p{N}-])/gu;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The question's terms to find in sentences, each a pattern matching the start of a word, with its
 * weight: each word stemmed, and each compound as one term (its last word stemmed: "e-filing" finds
 * "e-file"), whose words alone count PART_WEIGHT ("time" of "full-time" is mostly something else).
 */
function sentenceTerms(question: string): { pattern: string; weight: number }[] {
  const compounds = [...new Set(question.toLowerCase().match(COMPOUND) ?? [])];
  const standalone = new Set(wordsOf(question.replace(COMPOUND, " ")));
  const parts = new Set(compounds.flatMap((c) => c.split("-")).filter((w) => !standalone.has(w)));
  return [
    ...queryTerms(question).map((t) => ({ pattern: escapeRegExp(stem(t)), weight: parts.has(t) ? PART_WEIGHT : 1 })),
    ...compounds.map((c) => ({ pattern: stem(c).split("-").map(escapeRegExp).join("[\\s-]?"), weight: 1 })),
  ];
}

/**
 * Words that name a period, or a total, rather than what a row counts: "fiscal 2023", "at the end
 * of the second quarter", "for the full year", "Total assets".
 */
export const PERIOD_WORD =
  /^(fiscal|fy\d*|years?|yearly|annual|quarters?|quarterly|months?|monthly|half|weeks?|period|ended|ending|end|full|whole|first|second|third|fourth|three|six|nine|twelve|ytd|q[1-4]|h[12]|total|january|february|march|april|may|june|july|august|september|october|november|december|\d[\d,.]*)$/;
/**
 * A question's term naming a period or a point in it ("fiscal", "second", "quarter", "year end"),
 * as a table's column heads write it in other words; not a total, a year's number or a month,
 * which heads write as they are ("FY2022" is 2022).
 */
const headsPeriod = (term: string) => PERIOD_WORD.test(term) && !/^(total|fy\d|\d)/.test(term) && !MONTH.test(term);
/** How a question names a quoted row ("Label: figures"; row-labels.ts rowNaming). */
export interface RowNaming {
  /** how much the row's score counts */
  weight: number;
  /**
   * whether the question names all of its label ("Revenue" for "What was revenue in the second
   * quarter?"): the row that answers it, whose column heads also write the period it asks
   */
  wholly: boolean;
}

/** A row the question does not name by its label (scoreSentences without `rowNaming`). */
const UNNAMED_ROW: RowNaming = { weight: 1, wholly: false };
/** A labelled row whose figures are headed by periods or dates: "Revenue: Three months ended July 29, 2023 $9,583; ...", "Net sales: 2023 $3,226.8; ...". */
const HEADED_ROW =
  /^[^:]+: (?:(?:[A-Z][a-z]+(?:-[a-z]+)?|\d{1,2}) (?:months|weeks) ended )?(?:(?:19|20)\d\d|[A-Z][a-z]+ \d{1,2}, (?:19|20)\d\d) /;

/**
 * A term of the file's name ("3M" of 3M_2018_10K.pdf, "Pfizer", "Best" and "Buy" of BESTBUY_2023_10K.pdf)
 * names what every page of it is about, and counts this much in a sentence (bench:offline: 0.5 moved
 * FinanceBench lead 9 -> 10/23, dev unchanged; 0.25 and 0 lost FinanceBench answers).
 */
const FILE_NAME_WEIGHT = 0.5;

/** Whether a term (with a letter: "2023" names a period, not the file) is part of one of the file names, written together ("bestbuy202310k"). */
function namesFile(pattern: string, fileNames: readonly string[]): boolean {
  const term = pattern.replace(/[^\p{L}\p{N}]/gu, "");
  return term.length >= 2 && /\p{L}/u.test(term) && fileNames.some((name) => name.includes(term));
}

/**
 * Every quotable sentence of the passages, scored: the rarer the question terms
 * it contains and the fewer other words around them, the higher; a sentence that
 * holds the kind of fact asked for counts more; better-ranked sources break ties.
 * Headings are never quoted; table rows only as labelled lines, and never for a
 * date, a period or a rule. `quoteCases`: the case of a listed sentence the question singles out is
 * scored as a sentence too (for the answer; ranking passages needs no more than their sentences).
 * `percentRows`: a share asked is stated by a row of percents before one of sums (for the answer: a
 * page of sums holds the share's parts).
 * `fileNames`: the passages' file names, letters and digits only, whose terms count FILE_NAME_WEIGHT.
 * `rowNaming`: how the question names a table row ("Label: figures"; row-labels.ts): how much its
 * score counts, and whether its column heads, when headed by periods or dates, hold the question's
 * period words ("quarter", "fiscal").
 */
export function scoreSentences(
  question: string,
  passageTexts: readonly string[],
  {
    quoteCases = false,
    percentRows = false,
    fileNames = [],
    rowNaming = () => UNNAMED_ROW,
  }: {
    quoteCases?: boolean;
    percentRows?: boolean;
    fileNames?: readonly string[];
    rowNaming?: (row: string) => RowNaming;
  } = {},
): ScoredSentence[] {
  const terms = sentenceTerms(question).map((t) => (namesFile(t.pattern, fileNames) ? { ...t, weight: t.weight * FILE_NAME_WEIGHT } : t));
  if (terms.length === 0) return [];
  const kind = askedFactKind(question);
  const rowsAnswer = rowAnswers(kind);
  const shareAsked = percentRows && SHARE_ASKED.test(question.toLowerCase());
  const entriesAnswer = ASKS_WHERE_TO_LOOK.test(question);
  const passages = passageTexts.map((text, passage) => ({
    passage,
    sentences: quotableSentences(text).filter((s) => (rowsAnswer || !s.row) && (entriesAnswer || !s.entry)),
  }));
  // which terms each sentence holds (a term matches the start of a word: "deduct" finds "deduction"),
  // one expression per term compiled once per question; keyed by text, so a sentence found in two
  // passages counts once for the terms' rarity
  const termTests: { test(sentence: string): boolean }[] = terms.map((t) => new RegExp(`(?<![\\p{L}\\p{N}])${t.pattern}`, "u"));
  // what the question names in other words ("capex": "purchases of property, plant and equipment") counts as one
  // more term, where the sentence does not already name it as the question does (its words count already)
  for (const m of glossaryMatches(question))
    termTests.push({ test: (sentence) => m.pattern.test(sentence) && !m.usedPattern.test(sentence) });
  // a code the question names by its letter is what it asks about: a sentence without it explains another code
  const codes = codeLetters(question).map((letter) => new RegExp(`(?:^|[).]\\s)${letter}\\s?[—–]|\\bcodes? ${letter}\\b`, "u"));
  const weights = termTests.map((_, j) => terms[j]?.weight ?? 1).concat(codes.map(() => CODE_WEIGHT));
  termTests.push(...codes);
  const holds = new Map<string, boolean[]>();
  // a period the question names ("in the second quarter of fiscal 2024") is written in a table's
  // column heads ("Three months ended July 29, 2023"): the row asked, headed by periods, holds its
  // words, as rare as the words are where written
  const periodTerms = termTests.map((_, j) => j < terms.length && headsPeriod(terms[j]!.pattern));
  const headedRows = new Set<string>();
  const naming = new Map<string, RowNaming>();
  for (const p of passages) {
    for (const { text, lower, row } of p.sentences) {
      if (holds.has(text)) continue;
      holds.set(
        text,
        termTests.map((term) => term.test(lower)),
      );
      if (!row) continue;
      naming.set(text, rowNaming(text));
      if (naming.get(text)!.wholly && HEADED_ROW.test(text)) headedRows.add(text);
    }
  }
  const total = holds.size;
  const idf = termTests.map((_, j) => weights[j]! * Math.log(1 + total / (1 + [...holds.values()].filter((h) => h[j]).length)));
  const matched = (sentence: string) => {
    const headed = headedRows.has(sentence);
    return holds.get(sentence)!.reduce((sum, hit, j) => sum + (hit || (headed && periodTerms[j]) ? idf[j]! : 0), 0);
  };
  // a listed case is no sentence of its own for the terms' rarity: its words are its list's
  const matchedIn = (lower: string) => termTests.reduce((sum, term, j) => sum + (term.test(lower) ? idf[j]! : 0), 0);
  const termsIn = (lower: string) => termTests.filter((term) => term.test(lower)).length;
  const scoreOf = (sentence: QuotableSentence, own: number, context: number) => {
    sentence.words ??= wordCount(sentence.text);
    const density = context / Math.sqrt(Math.max(sentence.words, 12));
    // the kind of fact asked counts only in a sentence about the question: one that holds none of
    // its terms ("Staff may work from home two days a week" after the parental leave sentence) is
    // at most context
    const fact =
      kind && own > 0
        ? 1 +
          (FACT_BONUS - 1) *
            (sentence.row
              ? rowStrength(sentence.text, shareAsked)
              : ((sentence.strength ??= {})[kind] ??= factStrength(sentence.text, kind)))
        : 1;
    return density * fact;
  };
  return passages.flatMap(({ passage, sentences }) => {
    let before = 0;
    return sentences.flatMap((sentence) => {
      const own = matched(sentence.text);
      // the sentence before often names the subject the answer sentence refers to ("It", "This tax");
      // a table row or a form's line has no such sentence and is no sentence's
      const alone = sentence.row || sentence.formLine;
      const context = own + (alone ? 0 : NEIGHBOUR_WEIGHT * before);
      const scored: ScoredSentence[] = [];
      const cases = quoteCases && !alone && !sentence.entry ? (sentence.cases ??= casesOf(sentence.text)) : null;
      const asked = cases && askedCase(cases, matchedIn, termsIn);
      if (asked) {
        const caseOwn = matchedIn(asked.case.lower);
        const score = scoreOf(asked.case, caseOwn, caseOwn + NEIGHBOUR_WEIGHT * before);
        // cases that tie are quoted in their list: the reader finds theirs among them
        scored.push({ passage, text: asked.alone ? asked.case.quote : sentence.quote, score });
      }
      if (!alone) before = own;
      if (own > 0 || context > 0) {
        const score = scoreOf(sentence, own, context) * (sentence.row ? naming.get(sentence.text)!.weight : 1);
        scored.push({ passage, text: sentence.quote, score, ...(sentence.row && { row: true as const }) });
      }
      return scored;
    });
  });
}

/**
 * The case of a list the question singles out: the one whose own words hold more of the question's
 * terms than any other case's (`alone`), or the first of the few that tie ("married filing
 * separately" is in two cases, living apart and living together): the whole list answers then, as
 * closely about the question as its case. None when every case ties (the question names no case),
 * or when cases tie on one word alone.
 */
function askedCase(
  cases: readonly ListedCase[],
  matchedIn: (lower: string) => number,
  termsIn: (lower: string) => number,
): { case: ListedCase; alone: boolean } | null {
  const scores = cases.map((c) => matchedIn(c.caseLower));
  const best = Math.max(...scores);
  const tied = scores.filter((s) => s === best).length;
  if (best <= 0 || tied === cases.length) return null;
  const first = cases[scores.indexOf(best)]!;
  if (tied === 1) return { case: first, alone: true };
  // a tie on one word ("filing" of "married filing jointly") is chance; on several, a case the list has twice
  return termsIn(first.caseLower) >= 2 ? { case: first, alone: false } : null;
}

/** A crude English stem (kids -> kid, bounces -> bounc, filed -> fil, calculation -> calcul), matched as a word prefix. */
export function stem(term: string): string {
  if (term.length <= 4 || /\d/.test(term)) return term;
  // a noun made from a verb finds the verb too ("calculation" -> calcul, "requirements" -> require)
  const verb = term.replace(/(ations?|ments?)$/, "");
  if (verb !== term && verb.length >= 4) return verb;
  return term.replace(/(ies|es|s|ing|ed|ly)$/, "") || term;
}
