// A term a question asks to define: "What is backup withholding?", "What does Best Buy mean by
// comparable sales?", "Define fair market value." (passages/defining-sentence.ts finds the sentence
// that says what it is).

/** "a", "an", "the" before a term. */
const ARTICLE = String.raw`(?:an? |the )?`;
/** The term asked: a few words up to the question's end or the setting after it. */
const TERM = String.raw`([^?,;]{2,50}?)`;
/**
 * Words after the term saying where or for whom it is meant, not what it is: "for tax purposes",
 * "in the eyes of the IRS", "according to the 10-K", "in 3M's accounting policies", "at Best Buy".
 */
const SETTING = String.raw`(?: (?:for [^?]{1,30}? purposes|in the eyes of [^?]{1,30}|according to [^?]{1,40}|(?:in|at|under) [^?]{1,40}))?`;
const END = String.raw`[?.]?\s*$`;

/** Asked in words that ask nothing but a meaning: "What is meant by...", "What does Pfizer mean by...", "How does 3M define...", "Define...", "What does X mean?", "What does X stand for?". */
const MEANING_ASKED = new RegExp(
  String.raw`^\s*(?:(?:what (?:is|are) meant by|what (?:does|do) [^?]{1,40}? mean by|how (?:does|do) [^?]{1,40}? define|define) ${ARTICLE}${TERM}${SETTING}|what (?:does|do) ${ARTICLE}${TERM} (?:mean|stand for)${SETTING})${END}`,
);
/** "What is X?", "What's an X?": a meaning asked, unless the question asks another kind of fact (fact-kind.ts). */
const WHAT_IS_ASKED = new RegExp(String.raw`^\s*what(?: is| are|'s|’s) ${ARTICLE}${TERM}${SETTING}${END}`);

/** The words of the term a question (lower case, without what follows its "?") asks to define in words asking only that, or null. */
export function meaningAsked(q: string): string[] | null {
  return termIn(MEANING_ASKED.exec(q));
}

/** The words of the term a question (lower case, without what follows its "?") may ask to define, or null. */
export function termAsked(q: string): string[] | null {
  return meaningAsked(q) ?? termIn(WHAT_IS_ASKED.exec(q));
}

function termIn(asked: RegExpExecArray | null): string[] | null {
  return (asked?.slice(1).find(Boolean) ?? "").match(/[\p{L}\p{N}]+/gu);
}
