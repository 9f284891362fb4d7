// A book's index and a table of contents read as text: dense with a question's words, answering
// nothing but where to look.

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
export const holdsListEntry = (piece: string) => listNumbers(piece).length > 0;

/** A question asking where to look ("On which page...", "Which tax topic...", "Where can I find..."): a contents entry answers it. */
export const ASKS_WHERE_TO_LOOK =
  /\b(which|what)\s+(\w+\s+)?(pages?|topics?|notes?|items?|sections?|chapters?|parts?|publications?|pubs?)\b|\bwhere\b.*\b(find|read|look|see|discuss|cover|explain)/i;
