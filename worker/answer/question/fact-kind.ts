// The kind of fact a question asks for (an amount, a date, a rule, a place on the forms...), and
// how plainly a sentence or a table row states that kind.

import { QUANTITY_CHANGE, askedPart } from "./terms";
import { meaningAsked, termAsked } from "./definition";

/**
 * What kind of fact a question asks for; a sentence holding that kind of fact is preferred as the
 * answer. "money" is a sum asked ("how much did we spend"); "figure" an amount asked as a share or
 * a change ("what percentage", "any drop in cash"), which a percent states as well as a sum.
 */
export type FactKind =
  | "money"
  | "figure"
  | "number"
  | "duration"
  | "date"
  | "rule"
  | "reason"
  | "person"
  | "reference"
  | "phone"
  | "address"
  | "entry"
  | "definition";

/**
 * Where to reach someone, asked: a phone number ("what number do I call?") or a postal address ("what
 * address do I send it to?", "where do I mail it?").
 */
const PHONE_ASKED = /\b(phone|telephone|toll-free|hotline)\b|\bnumber\b.*\b(call|dial)\b|\b(call|dial)\b.*\bnumber\b/;
const ADDRESS_ASKED =
  /\b(what|which)(?: is| was|'s)?(?: the| my| our| your| its| their)? (mailing |postal )?address\b|\bwhere (do|does|should|can|must|would|to) (i |we |you |it |they )?(send|mail)\b/;

/**
 * What to write on a form or a statement, asked: "what do I put in the TIN box?", "what exactly do I
 * write in the signature space?", "what number do I type at the top?", "what goes in box 2?", "how
 * do I mark that on the form?". The forms' instructions answer with the words to write, quoted.
 */
const ENTRY_ASKED =
  /\bwhat (exactly )?(do|should|must|can|would|am|are) (i|we|you)( supposed to| need to| have to)? (put|write|enter|type|print|fill in)\b|\bwhat (number|word|words|text|code)\b[^?]*\b(type|write|enter|put|print)\b|\bwhat goes (in|on|into)\b|\bhow (do|should|can|would) (i|we|you) (flag|mark|indicate|note|show)\b[^?]*\b(on|in) (the|my|a|this|that) (form|return|statement|box|space|line)/;

/** A place on the forms named in a question: "which line", "what form". */
const PLACE_NAMED = String.raw`(which|what) (form|schedule|line|box|worksheet)s?\b`;
/** Where something goes on the forms asked: "where do I report it?", "where on the form do I put...". */
const PLACE_ASKED = String.raw`\bwhere\b(?: on [\w\s]{1,30}?)? (do|does|should|can|would|must|to) (i|we|you|it|they)?\s*(report|enter|put|include|claim|take|show|list|go)\b`;
/** A question opening with the place it asks; one asking a place anywhere. */
const OPENS_WITH_PLACE = new RegExp(`^\\W*${PLACE_NAMED}`);
const ASKS_PLACE = new RegExp(`\\b${PLACE_NAMED}|${PLACE_ASKED}`);

/** A level of an amount: "gross income level", "salary levels", "level of pay". */
const INCOME_LEVEL =
  /\b(income|wage|salary|pay|earnings|revenue|sales|debt|spending|price|cost)s? levels?\b|\blevels? of (gross )?(income|wages|salary|pay|earnings|revenue|sales|debt|spending)\b/;

/** An amount asked as a share of another ("what percentage", "at what rate", "the gross margin"): a percent states it as well as a sum. */
export const SHARE_ASKED = /\b(percent(age)?|rate|ratio|proportion|margin)s?\b|\b(share|portion|part) of\b|%/;

/** A table row states amounts and numbers (and may be what a term asked is): never the answer to when, how long or whether. */
export const rowAnswers = (kind: FactKind | null) =>
  kind === null || kind === "money" || kind === "figure" || kind === "number" || kind === "definition";

/**
 * Whether a quantity held over time is asked ("Are gross margins historically consistent?", "did
 * it fluctuate?"): its figures, period by period, answer it.
 */
const STEADINESS_ASKED = /\b(consistent|stable|steady|fluctuat\w*|volatil\w*)\b/;

export function askedFactKind(question: string): FactKind | null {
  const q = askedPart(question);
  // a meaning asked in words that ask nothing else ("What is meant by an eligible educator?")
  if (meaningAsked(q)) return "definition";
  // a cause asked ("why...", "what drove the increase?") is answered by the sentence that gives one
  if (/\b(why|what (drove|drives|caused|causes|led to|explains?)|reasons? (for|behind|why))\b/.test(q)) return "reason";
  if (PHONE_ASKED.test(q)) return "phone";
  if (ADDRESS_ASKED.test(q)) return "address";
  if (ENTRY_ASKED.test(q)) return "entry";
  if (/\bhow (long|soon)\b|how much (more |extra |additional )?time|how many (days|weeks|months|years)/.test(q)) return "duration";
  // a question opening with the place it asks ("Which line tells me how much I owe?") asks the place, not the amount
  if (OPENS_WITH_PLACE.test(q)) return "reference";
  // "who is the CEO?" asks a name; "who can claim...?" does not
  if (/\bwho (is|was|are|were|signed|signs)\b/.test(q)) return "person";
  if (
    /\b(fine|penalty|fee|charge|cost|price|rate|margin|percent(age)?|amount|limit|ceiling|cap|maximum|minimum|threshold|how much|worth)\b/.test(
      q,
    ) ||
    // an amount asked as a level: "what gross income level required me to file?", "the salary level"
    INCOME_LEVEL.test(q) ||
    // an amount asked by its size: "how big is the standard deduction?", "how high can my contribution be?"
    /\bhow (big|large|high|low|small)\b/.test(q) ||
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
  if (termAsked(q)) return "definition";
  return null;
}

export const MONTH = /\b(january|february|march|april|may|june|july|august|september|october|november|december)\b/i;
const PERIOD =
  /\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(thir|four|fif|six|seven|eigh|nine)teen|(twen|thir|for|fif|six)ty)[- ](calendar |business )?(days?|weeks?|months?|years?)\b/i;
/** A number that is not a year, a form or a line ("2024", "Form 4868", "line 8"). */
const PLAIN_NUMBER = /(?<!\b(form|line|box|step|part|publication|pub\.|schedule|page|chapter)\s)\b(?!(19|20)\d\d\b)\d+(\.\d+)?\b/i;

/** A calendar date ("January 31, 2025", "April 17"), not the word "may". */
const FULL_DATE = /\b(january|february|march|april|may|june|july|august|september|october|november|december)\s+\d{1,2}\b/i;
export const MONTH_NAME = /\b(January|February|March|April|May|June|July|August|September|October|November|December)\b/;

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
export const rowStrength = (row: string, shareAsked: boolean) =>
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
      return /\b(must|may|can|cannot|\w*n['’]t|do not|only if|required|not|allowed|eligible|qualif\w*|(?:is|are) (?:taxable|included in|excluded from))\b/i.test(
        sentence,
      );
    case "person":
      return PERSON_NAME.test(sentence);
    case "reference":
      return DOCUMENT_REFERENCE.test(sentence);
    case "phone":
      return PHONE_NUMBER.test(sentence);
    case "address":
      return POSTAL_ADDRESS.test(sentence);
    case "entry":
      return QUOTED_ENTRY.test(sentence);
    case "definition":
      // said of the term asked: sentence-scores.ts reads it with definingSentence (passages/defining-sentence.ts)
      return false;
    case "reason":
      return /\b(because|due to|driven by|as a result of|attributable to|result(ed|ing)? from|owing to|reflect(s|ed|ing)?|primarily from)\b/i.test(
        sentence,
      );
  }
}

/**
 * Words to write, quoted after the verb that writes them: enter “Applied For”, writing “Exempt”, the
 * words “By (your name), Spouse”, typed ... the following number at the top: “131.”.
 */
const QUOTED_ENTRY = /\b(enter|entering|write|writing|type|typed|print|printed|mark|words?)\b[^.“”"]{0,40}[“"][^“”"]{1,40}[”"]/i;

/** A part of the forms named ("Schedule 1 (Form 1040), line 8g", "Form 1099-C", "Schedule B", "box 12"); a post office box ("Box 2188") is none. */
const DOCUMENT_REFERENCE = /\b(Form|Schedule|Worksheet)\s+[\dA-Z]|\bline\s+\d|\bbox\s+\d{1,2}[a-z]?\b/i;

/** A person named as documents name people: with a title ("Ms. Barry"), signing ("/s/"), or with a middle initial ("Corie S. Barry"). */
const PERSON_NAME = /\b(Mr|Mrs|Ms|Dr)\.\s+\p{Lu}|\/s\/\s*\p{Lu}|\b\p{Lu}\p{Ll}+ \p{Lu}\. \p{Lu}\p{Ll}+/u;

/** A phone number: "1-877-772-5772", "800-366-4484", "(202) 555-0143", "1-800-TAX-FORM". */
const PHONE_NUMBER = /\b\d{3}-\d{3}-\d{4}\b|\(\d{3}\)\s?\d{3}-\d{4}\b|\b1-8\d\d-[A-Z]{3}-[A-Z]{4}\b/;
/**
 * A postal address: a post office box ("P.O. Box 2188"), a state's code and ZIP code ("Austin, TX
 * 73301-0002"), or a state named before its ZIP code ("St. Paul, Minnesota 55144-1000").
 */
const POSTAL_ADDRESS =
  /\bP\.\s?O\.\s+Box\s+\d|\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b|,\s+\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+)?,?\s+\d{5}(?:-\d{4})?\b/u;
