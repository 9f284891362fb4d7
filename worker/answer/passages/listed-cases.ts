// A sentence that lists cases after a colon, each with its own figure or rule:
// "Your base amount is: $25,000 if you are single, ...; $32,000 if you are married
// filing jointly; or $0 if you are married filing separately and lived with your
// spouse...". A question about one case ("we're married, file separately and
// share a home") is answered by that case, not by the whole list, where the
// case asked is as long a read as the others.
//
// Only a list of values by case is one: its lead-in ends as the value's sentence
// does ("...is:", "...are:", "...more than:", "...is due by:"). A list after
// "that:", "if you:", "to:" or "must:" names conditions or permissions that all
// hold, and is quoted whole.

/** The lead-in before the colon and each listed case, or null when the sentence lists none. */
export interface ListedCases {
  /** "Your base amount is" */
  leadIn: string;
  /** "$0 if you are married filing separately and lived with your spouse at any time during 2024", without its separator */
  cases: string[];
}

/** The colon that opens a list: followed by a case that starts with a capital, a sum or a number. */
const LIST_OPENS = /:\s+(?=[\p{Lu}$\d])/u;
/** Cases are separated by semicolons where there are any (their cases may hold commas), else by commas; "; or", ", and" end the list. */
const SEMICOLONS = /;(?:\s+(?:or|and))?\s+(?=[\p{Lu}$\d])/gu;
const COMMAS = /,(?:\s+(?:or|and))?\s+(?=[\p{Lu}$\d])/gu;
/** Shorter than this, a "case" is a name in a series ("Treasury, IRS") or a list number split off ("2."): no case to quote alone. */
const MIN_CASE_CHARS = 12;
const MIN_LEAD_IN_CHARS = 10;
/** A lead-in that a value completes: "Your base amount is", "received for more than", "your return is due by". */
const VALUE_LEAD_IN = /\b(is|are|was|were|be|than|by)$/i;

export function listedCases(sentence: string): ListedCases | null {
  const colon = sentence.search(LIST_OPENS);
  if (colon < MIN_LEAD_IN_CHARS) return null;
  const leadIn = sentence.slice(0, colon).trim();
  if (!VALUE_LEAD_IN.test(leadIn)) return null;
  const rest = sentence.slice(colon + 1).trim();
  const cases = rest.split(rest.includes(";") ? SEMICOLONS : COMMAS).map((c) => c.trim().replace(/[.;,:]$/, ""));
  if (cases.length < 2 || cases.some((c) => c.length < MIN_CASE_CHARS)) return null;
  return { leadIn, cases };
}

/**
 * A sentence that opens a numbered list after it ("The IRS can't figure your tax for you if any of
 * the following apply.", "You must meet all of these tests:"); its items are read with it.
 */
export const OPENS_NUMBERED_LIST = /(?:\b(?:following|these)\b[^.!?]*[.:]|:)$/;
/** A lead-in run together with the list's first item ("... if all of these conditions are met: 1. You have worked here ..."): the lead-in. */
export function leadInOfFirstItem(sentence: string): string | null {
  return /^(.{10,}?):\s+\(?1[.)]\s+(?=[\p{Lu}$\d])/u.exec(sentence)?.[1] ?? null;
}
/** A numbered list's item ("4. Your taxable income is $100,000 or more."): its number and what it says without it, or null. */
export function numberedItem(sentence: string): { number: number; said: string } | null {
  const m = /^\(?(\d{1,2})[.)]\s+(?=[\p{Lu}$\d])/u.exec(sentence);
  return m ? { number: Number(m[1]), said: sentence.slice(m[0].length) } : null;
}
