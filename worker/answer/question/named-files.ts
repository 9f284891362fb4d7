// The documents a question names by their file's name: "my W-9" is fw9.pdf, "3M's
// capex" is 3M_2018_10K.pdf, "Best Buy's margins" is BESTBUY_2023_10K.pdf. In a
// chat over a whole Library, the named document is where the user means to look:
// other documents that mention the same form or company (the 1040 instructions
// cite Form W-9 too) would otherwise outrank it on the question's other words.

import { formNames, isAskingWord } from "./terms";

/** Words that name a kind of document, not one document ("Form W-9", "the annual report"). */
const DOCUMENT_KIND_WORDS = new Set(
  "annual doc document draft file final form forms instructions new pdf pub publication quarterly report schedule scan statement tax the".split(
    " ",
  ),
);

/** Words a question opens a clause with that its asking words do not hold ("Could", "Per the table"). */
const OPENERS = new Set(["could", "should", "may", "per"]);

/** A file's name as letters and digits only, lower case, without its extension: "3M_2018_10K.pdf" -> "3m201810k". */
export const squeezed = (text: string) =>
  text
    .toLowerCase()
    .replace(/\.pdf$/, "")
    .replace(/[^\p{L}\p{N}]/gu, "");

/**
 * The names a question may call a document by: a form's name ("W-9" -> "w9"), a word written with
 * a capital or a digit ("Pfizer", "3M", "JnJ"), and capitalised words side by side written together
 * ("Best Buy" -> "bestbuy"). A name of letters only has at least three.
 */
export function documentNames(question: string): string[] {
  const names = new Set<string>();
  for (const form of formNames(question)) names.add(squeezed(form));
  // a form named by its number alone ("on the 1040", "Form 8962"): not an amount or a year
  for (const form of question.matchAll(/\b(?:[Ff]orm|the|my|your|a)\s+(\d{3,4})(?![\p{N}%]|[,.]\d)/gu))
    if (!/^(19|20)\d\d$/.test(form[1]!)) names.add(form[1]!);
  const words = question.match(/[\p{L}\p{N}&]+(?:['’]s)?/gu) ?? [];
  let run: string[] = [];
  const endRun = () => {
    if (run.length > 1) names.add(squeezed(run.join("")));
    run = [];
  };
  for (const raw of words) {
    const word = raw.replace(/['’]s$/, "");
    const lower = word.toLowerCase();
    const proper = /^\p{Lu}/u.test(word) || (/\p{N}/u.test(word) && /\p{L}/u.test(word));
    if (!proper || isAskingWord(lower) || OPENERS.has(lower) || DOCUMENT_KIND_WORDS.has(lower)) {
      endRun();
      continue;
    }
    run.push(word);
    const name = squeezed(word);
    if (/\p{N}/u.test(name) ? /\p{L}/u.test(name) : name.length >= 3) names.add(name);
  }
  endRun();
  return [...names];
}

/**
 * The ids of the documents whose file name holds one of a question's `names` (documentNames); none
 * when it names none of them, or all of them (a name every file shares tells them apart no better).
 * Of several, those whose names hold most of its names: "Best Buy's Q2 of FY2024" is
 * BESTBUY_2024Q2_10Q.pdf, not BESTBUY_2023_10K.pdf. (Not its years: a file's year is its fiscal
 * year, a question's date may fall in the next one's quarter.)
 */
export function namedDocuments(names: readonly string[], documents: readonly { id: string; file_name: string }[]): string[] {
  if (documents.length < 2 || names.length === 0) return [];
  const held = (d: { file_name: string }) => names.filter((name) => squeezed(d.file_name).includes(name)).length;
  const named = documents.filter((d) => held(d) > 0);
  if (named.length === documents.length) return [];
  const most = Math.max(...named.map(held));
  return named.filter((d) => held(d) === most).map((d) => d.id);
}
