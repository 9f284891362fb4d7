// The sentence of a passage that says what a term is ("A Roth IRA is an individual retirement plan
// that...", "...is disregarded as an entity separate from its owner (a disregarded entity)"), for a
// question asking what it is (question/definition.ts).
import { SENTENCE_OPENERS } from "./sentences";

/** Words that end a term's head and begin what qualifies it ("early distribution from a traditional IRA"). */
const QUALIFIER = new Set("from of for in under on to with by at".split(" "));

/** A term's words as a pattern, each in the singular or the plural ("entity" finds "entities"; "EBITDA" not "EBITDAR"). */
const wordsPattern = (words: readonly string[]) =>
  words.map((w) => `${w.replace(/(?:ies|es|s|y)$/, "")}(?:s|es|ies|y|e)?(?![\\p{L}\\p{N}])`).join("[\\s-]+");

/**
 * What is done with a term, after its "is": a participle ("is treated as"; "used" says what it is
 * for, "defined as", "computed as" what it is), or one not ending in "-ed" before a preposition, an
 * adverb or the sentence's end ("Overtime is paid monthly"; "Flexible time off is paid leave" says
 * what it is).
 */
const DONE_WITH = String.raw`(?!used\b|(?:defined|computed|calculated|measured) as\b)\w+ed|(?:paid|made|taken|given|held|kept|set|sent|sold|built|shown|known|found|done|spent|lost|put|cut|left|told|brought|bought|won|withheld|withdrawn|chosen|drawn|written|seen|met|split|borne)(?=\s+(?:at|in|on|by|to|for|with|from|as|into|out|back|up|over|under|when|if|\w+ly)\b|[.,;:]|$)`;

/**
 * What a sentence opens with before the term when a PDF runs a heading into it: up to five words
 * with a capital or a number first ("Bartering Bartering is...", "Annuity Starting Date Your
 * annuity starting date is...", "Goodwill: Goodwill is...", "2. \"Adjusted EBITDAR\" is...").
 * Each way to take such words off, shortest first; never lower-case words ("The amount of your
 * standard deduction is...").
 */
function afterRunInHeadings(sentence: string): string[] {
  const words = sentence.split(" ");
  const rests = [sentence];
  for (let i = 0; i < Math.min(5, words.length - 2); i++) {
    const word = words[i]!;
    if (!/^(?:\d+\.|[\p{Lu}\d][\p{L}\p{N}'’-]*:?)$/u.test(word) || SENTENCE_OPENERS.has(word.toLowerCase())) break;
    rests.push(words.slice(i + 1).join(" "));
  }
  return rests;
}

/**
 * A test of the sentence that says what a term (its words, in lower case) is: the term (a plural
 * too, its abbreviation in brackets after it, in quotes) opening the sentence before "is", "are",
 * "means", "refers to" ("Direct File is an option for...", "A TIN may be an ATIN, an ITIN, or an
 * SSN."; not "is treated as", "can be opened" or "is paid", what is done with it), after a heading
 * run into it ("Bartering Bartering is...") or a question heading ("What Is a Roth IRA? A Roth IRA
 * is..."), or what follows a heading asking the question itself ("What Is FATCA Reporting? The
 * Foreign Account Tax Compliance Act requires..."); named as what something "is called" or "is
 * known as", or in brackets after what it is ("...is disregarded as an entity separate from its
 * owner (a disregarded entity)"). A term with words qualifying its head ("early distribution from a
 * traditional IRA") is found by its head too.
 */
export function definingSentence(words: readonly string[]): { test(sentence: string): boolean } {
  const qualified = words.findIndex((w, i) => i >= 2 && QUALIFIER.has(w));
  const term = [words, ...(qualified > 0 ? [words.slice(0, qualified)] : [])].map(wordsPattern).join("|");
  // its last words, named in quotes in brackets: "...not expected to be redeemed (“breakage”)" for "gift card breakage"
  const tails = words.map((_, i) => wordsPattern(words.slice(i))).join("|");
  const opening = new RegExp(
    `^(?:\\d+\\.\\s*)?(?:[^?]{1,80}\\?\\s+)?(?:[^,]{1,60},\\s+(?=the term\\b))?(?:(?:a|an|the|your|the term|in general,|generally,)\\s+)?["“]?(?:${term})["”]?(?:\\s*\\([^)]{1,20}\\))?\\s+(?:(?:is|are|may be|can be)(?!\\s+(?:${DONE_WITH})\\b)|means|refers? to|includes?)\\b`,
    "iu",
  );
  const askedHeading = new RegExp(`^what (?:is|are) (?:an? |the )?(?:${term})\\?\\s+\\S`, "iu");
  const named = new RegExp(`\\b(?:called|known as|defined as) (?:an? |the )?(?:${term})\\b`, "iu");
  const bracketed = new RegExp(`\\((?:an? |the )?(?:${term})\\)|\\(["“](?:${tails})["”]\\)`, "giu");
  // in words, not an abbreviation ("Health Savings Accounts (HSAs)" spells the term out); and not the
  // words an abbreviation stands for, in brackets after it ("Modified AGI (adjusted gross income)")
  const afterWhatItIs = (sentence: string) =>
    [...sentence.matchAll(bracketed)].some((m) => /\p{Ll}{3}/u.test(m[0]) && !ABBREVIATION_BEFORE.test(sentence.slice(0, m.index)));
  const spelledOut = words.length === 1 && /^[a-z]{2,6}$/.test(words[0]!) ? expansionOf(words[0]!) : () => false;
  return {
    test: (sentence) =>
      spelledOut(sentence) ||
      named.test(sentence) ||
      askedHeading.test(sentence) ||
      afterWhatItIs(sentence) ||
      afterRunInHeadings(sentence).some((rest) => opening.test(rest)),
  };
}

/** An abbreviation ending a text ("Modified AGI "). */
const ABBREVIATION_BEFORE = /\b\p{Lu}[\p{Lu}\d&-]+\s*$/u;

/** Words no abbreviation takes a letter from ("Foreign Account Tax Compliance Act", "cost of goods sold"). */
const UNLETTERED = new Set(["of", "and", "the", "for", "to", "in", "on", "a", "an", "&"]);

/**
 * An abbreviation spelled out before it in brackets ("the Foreign Account Tax Compliance Act
 * (FATCA) requires...", "earned income credit (EIC)"): the initials of the words before the bracket
 * spell it. What it stands for says what it is.
 */
function expansionOf(abbreviation: string): (sentence: string) => boolean {
  const bracket = new RegExp(`\\(${abbreviation}s?\\)`, "gi");
  return (sentence) =>
    [...sentence.matchAll(bracket)].some((m) => {
      const before = sentence
        .slice(0, m.index)
        .split(/[\s-]+/)
        .filter((w) => w && !UNLETTERED.has(w.toLowerCase()));
      const initials = before
        .slice(-abbreviation.length)
        .map((w) => w[0]!.toLowerCase())
        .join("");
      return initials === abbreviation;
    });
}
