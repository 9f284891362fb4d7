// Up to three follow-up questions under an answer. With a model, it proposes
// them from the question and the answer; the local responder (and a model that
// gives none) builds them from the headings in the cited passages: the short
// verbless phrases documents set before a section ("How to get a TIN.",
// "Exemption from FATCA reporting code.").
import type { ChatProvider, Passage } from "../providers/llm/types";
import { PERIOD_WORD, queryTerms } from "./question/terms";
import { sentencePieces } from "./passages/sentences";
import { isIndexPassage } from "./passages/contents";
import { withWholeWords } from "./passages/line-breaks";

export const MAX_SUGGESTIONS = 3;
const MAX_SUGGESTION_CHARS = 120;

// words that make a short sentence a statement rather than a heading
const CLAUSE_WORDS = new Set(
  (
    "is are was were be been being am must may might can could will would shall should do does did has have had " +
    "get gets got give gives gave take takes took make makes made pay pays paid need needs use uses mean means " +
    "include includes apply applies receive receives start starts begin begins " +
    "excludes represents reflects announces completes declares " +
    "you your we our it its this that these those they their he she there here also don't don’t"
  ).split(" "),
);
const QUESTION_START = /^(how|what|when|where|who|whom|which|why|can|do|does|is|are|should)\b/i;

/** Words no heading opens with: a line cut from a longer title ("AND SUBSIDIARY COMPANIES"). */
const OPENS_CUT = new Set("and or nor but of with from as by".split(" "));
/** Words no heading ends with: a title cut, or a word broken by the PDF's spacing ("Selected Financial Dat a"). */
const ENDS_CUT = new Set("a an the and or nor but of to for in on at by with from".split(" "));
/** Labels a form sets before a heading ("CAUTION Multiple jobs"): not part of what the section is about. */
const CALLOUT = /^(CAUTION|NOTE|TIP|WARNING|IMPORTANT|ATTENTION|REMINDER)!?\s+/;
/** A heading's words: without its closing stop or a callout label before it. */
const headingText = (sentence: string) =>
  sentence
    .replace(/[.:?]$/, "")
    .trim()
    .replace(CALLOUT, "");
/** A line in capitals only is a page's running head or a company's name ("PFIZER INC"), no section. */
const allCapitals = (words: readonly string[]) => words.every((w) => !/\p{Ll}/u.test(w));

/**
 * The lines a filing's or a form's cover prints, no section of what it covers: the issuing agency,
 * the cover's check boxes and blanks ("Smaller reporting company", "Title of each class", "For the
 * transition period from ___ to ___"), and the heads of a table of names ("Name Age Present Position").
 */
const COVER_LINE =
  /^(department of the treasury|internal revenue service|title of each class|(large accelerated|accelerated|non-accelerated|smaller reporting|emerging growth)\b.*\b(filer|company)|for the (transition|quarterly|fiscal) (period|year)|name of each exchange|trading symbol|name age (present )?position|description of exhibit)/i;

/** Whether `letters`, in order, are among `capitals` (in order). */
const inOrder = (letters: readonly string[], capitals: readonly string[]) => {
  let at = 0;
  for (const letter of letters) {
    at = capitals.indexOf(letter, at) + 1;
    if (at === 0) return false;
  }
  return true;
};

/** Words joining two titles of one heading ("Series EE and Series I bonds"), no index entry's. */
const JOINS_TITLES = new Set(["and", "or", "nor", "vs", "versus"]);

/**
 * An entry of a list of defined terms, no heading: an abbreviation, then the words it stands for
 * ("JV joint venture", "LIBOR London Interbank Offered Rate", "PsA psoriatic arthritis", "ATTR-CM
 * transthyretin amyloid cardiomyopathy"): their initials spell the abbreviation's capitals in
 * order, or hold all of them, or (words in lower case) two; or a name written again ("Alexion Alexion
 * Pharma International Operations Limited", "Biopharma Global Biopharmaceuticals Business"), as a
 * book's index writes an entry before the title it links to ("Notary fees Notary public").
 * "IRA contributions", "EPS Guidance" are headings.
 */
function definesTerm(words: readonly string[]): boolean {
  const [first = "", second = ""] = words;
  const term = first.toLowerCase();
  if (
    term === second.toLowerCase() ||
    (term.length >= 5 &&
      (words.slice(1).some((w) => w.length > term.length && w.toLowerCase().startsWith(term)) ||
        words.slice(2).some((w, i) => w.toLowerCase() === term && !JOINS_TITLES.has(words[i + 1]!.toLowerCase()))))
  )
    return true;
  const capitals = first.match(/\p{Lu}/gu) ?? [];
  if (capitals.length < 2 || !/^[\p{L}&-]{2,8}$/u.test(first)) return false;
  const rest = words
    .slice(1)
    .flatMap((w) => w.split(/[-&]/))
    .filter((w) => w && !ENDS_CUT.has(w.toLowerCase())); // "of", "and": no initial of the abbreviation
  const initials = rest.map((w) => w[0]!.toUpperCase());
  const unused = [...initials];
  const held = capitals.filter((capital) => {
    const at = unused.indexOf(capital);
    if (at >= 0) unused.splice(at, 1);
    return at >= 0;
  });
  if (held.length === capitals.length) return true; // "QTD Quarter-to-date or three months ended"
  if (rest.every((w) => /^\p{Lu}/u.test(w)))
    return initials.length >= 2 && initials.length * 2 >= capitals.length && inOrder(initials, capitals);
  return held.length >= 2 && rest.every((w) => /^\p{Ll}/u.test(w));
}

/**
 * A table's column heads read across, no heading: its last word heads an earlier column too
 * ("Three Months Ended Six Months Ended", "Leased Locations Owned Locations", "Common Stock
 * Treasury Stock") with no word joining them ("Nonresident aliens and dual-status aliens" is one
 * title), or every word names a period ("Six Months Ended", "First Quarter").
 */
function columnHeads(words: readonly string[]): boolean {
  const last = words.at(-1)!.toLowerCase();
  const repeated = words.slice(1, -1).some((w) => w.toLowerCase() === last) && !words.some((w) => JOINS_TITLES.has(w.toLowerCase()));
  return repeated || words.every((w) => PERIOD_WORD.test(w.toLowerCase()));
}

/** A heading among a passage's sentences: 2-8 words, a capital first, no digits or inner stops, no verb-like word. */
export function isSectionHeading(sentence: string): boolean {
  const text = headingText(sentence);
  const words = text.split(/\s+/);
  if (words.length < 2 || words.length > 8) return false;
  if (allCapitals(words) || OPENS_CUT.has(words[0]!.toLowerCase()) || ENDS_CUT.has(words.at(-1)!.toLowerCase())) return false;
  if (COVER_LINE.test(text) || definesTerm(words) || columnHeads(words) || text.includes("_")) return false;
  // a pointer to another part ("See the separate instructions") is no subject to ask about, and a
  // page's running head ("Table of Contents") run into the line after it is none either
  if (/^(see|table of contents)\b/i.test(text)) return false;
  // digits, list letters ("G—A ..."), abbreviations and inner stops mark list items and run-together lines
  if (!/^\p{Lu}/u.test(text) || /[\d,;:()"“”*.—/]/.test(text)) return false;
  if (words.filter((w) => /\p{L}{3,}/u.test(w)).length < 2) return false;
  if (!QUESTION_START.test(text) && !words.some((w) => /\p{L}{5,}/u.test(w))) return false; // "See Pub."
  // "How to get a TIN", "Who must file": a wh-word heading may hold a verb
  return /^(how|what|when|where|who|why|which)\b/i.test(text) || !words.some((w) => CLAUSE_WORDS.has(w.toLowerCase()));
}

/** Verbs a heading opens with to tell the reader what to do ("Keep the receipts for the finance team"). */
const IMPERATIVES = new Set(
  "apply ask attach call check choose claim complete contact enter file fill follow get give include keep list mail make note notify pay provide read report request return review save select send sign submit take update use".split(
    " ",
  ),
);

/** Words after which a heading's first word is a noun ("Use of home", "Note received for services"), not a verb telling what to do. */
const AFTER_A_NOUN = /^(of|for|and|or|on|\p{L}+ed)$/u;
/** A month or a day opening a heading is a name, written with its capital ("January payment"). */
const CALENDAR_NAME =
  /^(january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/i;
/**
 * A heading's capitalised word is a name when it is a month or a day, or when the passage never
 * writes it in lower case and writes it with its capital after an article or a preposition ("an
 * Archer MSA", "a Roth IRA"), where a heading run into the text cannot stand.
 */
const isName = (word: string, passage: string) =>
  CALENDAR_NAME.test(word) ||
  (!new RegExp(`(?<![\\p{L}])${word.toLowerCase()}(?![\\p{L}])`, "u").test(passage) &&
    new RegExp(`\\b(a|an|the|of|to|for|in|on|by|with|from|your|my|our) ${word}(?![\\p{L}])`, "u").test(passage));
/** A wh-word heading asking what to do ("When to use the estimator"), read as the reader asking it. */
const WH_TO = /^(when|where|what|which|who|whom) to /i;

/** A word written with a capital first and lower case after it ("File", "Child's", "Tax-exempt", "A"). */
const CAPITALISED = /^(\p{Lu}[\p{Ll}'’-]*\p{Ll}(['’]s)?|A)$/u;

/**
 * A heading in the case of a sentence: Title Case ("When Do I Have To File") reads as a question once
 * its capitalised words are in lower case, but for "I" and the names the passage writes with their
 * capital (isName). The first word too, unless `keepFirst`.
 */
function asWritten(heading: string, passage: string, keepFirst: boolean): string {
  // the heading's own words tell nothing of how the passage's sentences write them
  const sentences = passage.split(heading).join(" ");
  return heading
    .split(" ")
    .map((word, i) => ((keepFirst && i === 0) || !CAPITALISED.test(word) || isName(word, sentences) ? word : word.toLowerCase()))
    .join(" ");
}

/**
 * A heading as a question a person would ask: "How to get a TIN" -> "How do I get a TIN?", "Keep the
 * receipts for the finance team" -> "What does Handbook.pdf say about how to keep the receipts for
 * the finance team?", "Remote work" -> "What does Handbook.pdf say about remote work?".
 */
function asQuestion(heading: string, fileName: string, passage: string): string {
  const text = headingText(heading);
  if (/^how to /i.test(text)) return `How do I ${asWritten(text.slice("how to ".length), passage, false)}?`;
  const whTo = text.match(WH_TO);
  if (whTo) {
    const rest = asWritten(text.slice(whTo[0].length), passage, false);
    const asker = /\byour?\b/.test(rest) ? "you" : "I";
    return `${whTo[1]![0]!.toUpperCase()}${whTo[1]!.slice(1).toLowerCase()} should ${asker} ${rest}?`;
  }
  if (QUESTION_START.test(text)) return `${asWritten(text, passage, true)}?`;
  const [first, second = ""] = text.toLowerCase().split(" ");
  if (IMPERATIVES.has(first!) && !AFTER_A_NOUN.test(second))
    return `What does ${fileName} say about how to ${first}${text.slice(first!.length)}?`;
  // sentence case reads as a phrase ("exemption from FATCA reporting code"); Title Case stays a title
  const sentenceCase = CAPITALISED.test(text.split(" ")[0]!) && !/\s\p{Lu}\p{Ll}/u.test(text);
  const phrase = sentenceCase ? asWritten(text, passage, false) : text;
  return `What does ${fileName} say about ${phrase}?`;
}

/**
 * Two headings the PDF ran together, a section's title and the first heading under it ("Reminders No
 * miscellaneous itemized deductions allowed", "Definitions and Special Rules Adopted child"): a
 * heading that opens in Title Case (its first two words of more than joining size capitalised, no
 * names) yet ends on a word in lower case. "Social Security benefits" opens with a name; "Series EE
 * and Series I bonds" with one capitalised word.
 */
function runTogether(heading: string, passage: string): boolean {
  const words = headingText(heading)
    .split(/\s+/)
    .filter((w) => !OPENS_CUT.has(w.toLowerCase()) && !ENDS_CUT.has(w.toLowerCase()));
  const [first = "", second = ""] = words;
  const titleCase = [first, second].every((w) => CAPITALISED.test(w) && !isName(w, passage));
  return titleCase && /^\p{Ll}/u.test(words.at(-1) ?? "");
}

/** Questions from the headings of the cited passages, skipping what was just asked. */
export function headingSuggestions(question: string, passages: readonly Passage[]): string[] {
  const asked = new Set(queryTerms(question));
  const seen = new Set<string>();
  const suggestions: string[] = [];
  for (const passage of passages) {
    // a book's index lists every subject once, none the answer's
    if (isIndexPassage(passage.text)) continue;
    for (const piece of sentencePieces(passage.text)) {
      // a word its PDF broke at a line end is asked whole ("dual-status ali- ens")
      const sentence = withWholeWords(piece, passage.text);
      if (!isSectionHeading(sentence) || runTogether(sentence, passage.text)) continue;
      const terms = queryTerms(sentence);
      const key = terms.join(" ");
      if (!terms.length || seen.has(key) || terms.every((t) => asked.has(t))) continue;
      seen.add(key);
      suggestions.push(asQuestion(sentence, passage.fileName, passage.text));
      if (suggestions.length === MAX_SUGGESTIONS) return suggestions;
    }
  }
  return suggestions;
}

const SUGGEST_PROMPT =
  "You suggest follow-up questions. Given a user's question about their documents and the answer they got, " +
  `write up to ${MAX_SUGGESTIONS} short follow-up questions the user may want to ask next, answerable from the same documents. ` +
  "One question per line, nothing else: no numbering, no quotes.";

/** The model's follow-up questions, cleaned; [] when it gives none or fails. */
async function modelSuggestions(complete: NonNullable<ChatProvider["complete"]>, question: string, answer: string): Promise<string[]> {
  try {
    const text = await complete(SUGGEST_PROMPT, `Question: ${question}\n\nAnswer: ${answer.slice(0, 2000)}`, 150);
    return text
      .split("\n")
      .map((line) =>
        line
          .replace(/^\s*(?:[-*•]|\d+[.)])\s*/, "")
          .replace(/^["“]|["”]$/g, "")
          .trim(),
      )
      .filter((line) => line.length >= 8 && line.length <= MAX_SUGGESTION_CHARS && line.endsWith("?"))
      .slice(0, MAX_SUGGESTIONS);
  } catch (err) {
    console.warn("follow-up suggestions failed", err);
    return [];
  }
}

/** Follow-up questions for an answer that cites `cited` (none when it cites nothing). */
export async function followUpQuestions(
  provider: Pick<ChatProvider, "complete">,
  question: string,
  answer: string,
  cited: readonly Passage[],
): Promise<string[]> {
  if (cited.length === 0) return [];
  const fromModel = provider.complete ? await modelSuggestions(provider.complete, question, answer) : [];
  return fromModel.length ? fromModel : headingSuggestions(question, cited);
}
