// "Which product category performed the best?" is answered by one item of a list that states each
// category's change: "Notable comparable sales changes by revenue category were as follows:
// • Computing and Mobile Phones: The 6.4% comparable sales decline was driven by... • Entertainment:
// The 9.0% comparable sales growth was driven by...". The answer is the item whose change is the
// highest (or lowest) asked, quoted with the others' figures for the reader to check; the figures
// and their signs are the list's own.

/** A superlative asked of several things: "which category performed the best", "what region had the biggest drop". */
const WHICH = /\b(which|what)\b/i;
const SUPERLATIVE =
  /\b(best|most|highest|largest|biggest|greatest|strongest|fastest|worst|least|lowest|smallest|weakest|slowest)\b(\s+\w+)?/gi;
/** Words that ask the bottom of the list: "the worst", "the lowest"; "the biggest drop" asks the largest fall. */
const LOWEST = /^(worst|least|lowest|smallest|weakest|slowest)$/i;
const FALL = /^(drop|decline|decrease|fall|loss|reduction)s?$/i;

/** Bullets of a list the PDF kept as glyphs: "•", "▪", and a Symbol font's private-use bullet. */
const BULLET = /\s[•▪\uf0b7]\s/u;
/** A listed item that names what it is about before a colon: "Entertainment: The 9.0% comparable sales growth...". */
const NAMED_ITEM = /^(\p{Lu}[^:]{0,60}?):\s+(.*)$/u;
/** A percent and the words after it, where a change says which way it went ("6.4% comparable sales decline"). */
const PERCENT_CHANGE = /(\(?)(\d+(?:\.\d+)?)\)?\s?%((?:\s+\S+){0,4})/u;
const DOWN = /\b(decline|decrease|drop|down|fell|fall|lower|loss|reduction)\w*/i;
const UP = /\b(growth|grew|increase|rise|rose|up|higher|gain)\w*/i;

/** At least this many items make a list to choose from. */
const MIN_ITEMS = 3;

interface Item {
  name: string;
  text: string;
  /** the change, below nothing for a fall */
  change: number;
  written: string;
}

function itemOf(piece: string): Item | null {
  const named = NAMED_ITEM.exec(piece.trim());
  if (!named) return null;
  const [, name, text] = named as unknown as [string, string, string];
  const percent = PERCENT_CHANGE.exec(text);
  if (!percent) return null;
  const [, open, digits, after] = percent as unknown as [string, string, string, string];
  const down = Boolean(open) || DOWN.test(after);
  if (!down && !UP.test(after)) return null;
  const change = (down ? -1 : 1) * Number(digits);
  return { name: name.trim(), text: `${name.trim()}: ${text.trim()}`, change, written: `${down ? "-" : ""}${digits}%` };
}

/**
 * Whether a superlative is asked after "which" or "what", and of the lowest ("the worst", "the
 * biggest drop") or the highest; null for none. A name's word is none: capitalised but not after
 * "the" ("What was Best Buy's revenue?", not "the Highest EBITDAR"), or with the next word the
 * files' own name ("best buy" of BESTBUY_2023_10K.pdf; `fileNames` in letters and digits only).
 */
function superlativeAsked(question: string, fileNames: readonly string[]): boolean | null {
  const which = WHICH.exec(question);
  if (!which) return null;
  const after = question.slice(which.index);
  for (const m of after.matchAll(SUPERLATIVE)) {
    const [word, next = ""] = [m[1]!, m[2]?.trim() ?? ""];
    if (/^\p{Lu}/u.test(word) && !/\bthe\s+$/i.test(after.slice(0, m.index))) continue;
    if (next && fileNames.some((name) => name.includes(`${word}${next}`.toLowerCase()))) continue;
    return LOWEST.test(word) || FALL.test(next);
  }
  return null;
}

export interface ListedExtreme {
  /** the item, as quoted */
  item: string;
  /** its place among the others, to follow it: " (the highest of the 5 listed: Entertainment 9.0%, ...)" */
  among: string;
}

/**
 * The item of a listed sentence whose change is the one a superlative question asks (the highest,
 * or the lowest for "worst", "least", "biggest drop"): each item names its subject before a colon
 * and states one percent change with the way it went ("decline", "growth"). Null when the question
 * asks no superlative or the sentence lists fewer than MIN_ITEMS such items.
 */
export function listedExtreme(question: string, sentence: string, fileNames: readonly string[] = []): ListedExtreme | null {
  const lowest = superlativeAsked(question, fileNames);
  if (lowest === null) return null;
  const pieces = sentence.split(BULLET).slice(1);
  const items = pieces.map(itemOf);
  if (items.length < MIN_ITEMS || items.some((i) => i === null)) return null;
  const listed = [...(items as Item[])].sort((a, b) => (lowest ? a.change - b.change : b.change - a.change));
  const [top, next] = listed as [Item, Item];
  // a tie names no single item
  if (top.change === next.change) return null;
  const figures = listed.map((i) => `${i.name} ${i.written}`).join(", ");
  return { item: top.text, among: ` (the ${lowest ? "lowest" : "highest"} of the ${listed.length} listed: ${figures})` };
}
