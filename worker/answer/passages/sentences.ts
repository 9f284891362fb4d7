// A passage's text cut into sentences, and the headings in it: set alone, or run into the
// sentence after them ("Amount You Owe To avoid interest...").

/** Words naming a part of a document, after which a letter ends a sentence ("Complete Schedule A."). */
export const DOCUMENT_PARTS =
  "Schedule|Worksheet|Part|Section|Information|Exhibit|Appendix|Annex|Table|Form|Item|Step|Chapter|Note|Line|Box|Column|Figure|Class|Series|Category|Plan|Option|Method|Test|Tier|Type";

/**
 * Abbreviations a number follows ("see Pub. 505, Tax Withholding...", "OMB No. 1545-0074", "Cat. No. 11320B",
 * "Rev. Proc. 2014-55, 2014-44 I.R.B. 753").
 */
const NUMBERED = "Pubs?|[Nn]os?|Cat|Rev|Proc|Rul|Sec|Fig|Vol|Regs?|[A-Z](?:\\.[A-Z])+";

/**
 * Where a sentence ends and the next begins: a capital or a number after . ! or ?, but never after
 * a title ("Ms. Barry", "St. Paul"), "U.S." ("U.S. GAAP"), "U.S.C.", "P.O." ("P.O. Box 2188"), "Rev." before
 * "Proc." or "Rul." ("Rev. Proc. 2014-55") or a name's middle initial ("/s/ Nicholas
 * C. Gangestad"), nor between an abbreviation and its number ("Pub. 505"), while a part of a form
 * named by a letter ends one ("on Schedule A."); a filing's signature ("/s/ Michael F. Roman") starts one.
 */
const SENTENCE_END = new RegExp(
  String.raw`(?<=[.!?]|[.!?]\))(?<!\b(?:Mr|Mrs|Ms|Dr|Prof|St|U\.S|U\.S\.C|P\.O)\.)(?!(?<=\bRev\.)\s+(?:Proc|Rul)\.)(?<!(?:^|\s)(?!(?:${DOCUMENT_PARTS})\s)\p{Lu}\p{Ll}+ \p{Lu}\.)(?!(?<=\b(?:${NUMBERED})\.)\s+\p{N})\s+(?=["'(\[]?[\p{Lu}\p{N}]|\/s\/)`,
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
/**
 * A longer bold heading set before its paragraph ("Substantial understatement of income tax. You
 * understate...", "Persons not eligible for the standard deduction."): a capitalised phrase of up to
 * eight words naming a thing, with no verb, pronoun or figure (a sentence of its length has one: "Give
 * Form W-4 to your employer."), before a sentence.
 */
const NAMING_PHRASE = /^\p{Lu}[\p{L}-]*(?: [\p{L}-]+){1,7}\.$/u;
const NOT_A_NAME =
  /\b(?:is|are|was|were|be|been|being|am|has|have|had|do|does|did|done|can|could|may|might|must|shall|should|will|would|no|i|you|he|she|it|we|they|this|these|those|that|there|here|my|your|our|their|his|her|its|see|use|enter|file|attach|check|include|keep|complete|subtract|add|multiply|divide|go|read|report|list|figure|fill|sign|send|mail|call|visit|write|print|make|pay|give|take|ask|get|let|if|when|because|then|also|only)\b|n['’]t\b|\b\w+ed\b|\d/i;
export const namesWhatFollows = (piece: string, next: string | undefined) =>
  piece.length <= 100 &&
  next !== undefined &&
  NAMING_PHRASE.test(piece) &&
  ((/^\p{Lu}\p{Ll}/u.test(next) && !NOT_A_NAME.test(piece.slice(0, -1))) || restates(piece, next));

/**
 * The sentence after a heading opens on its words ("Qualified student loan. A qualified student loan
 * is...", "Series I bonds. Series I bonds were..."): a heading however it reads ("Qualified" is no verb here).
 */
const restates = (heading: string, next: string) =>
  next
    .toLowerCase()
    .replace(/^(?:a|an|the) /, "")
    .startsWith(`${heading.slice(0, -1).toLowerCase()} `);

/** The sentence a run-in heading was read with, without the heading ("By February 2, 2026, furnish..."). */
export function withoutRunInHeading(sentence: string): string {
  const stop = sentence.indexOf(". ");
  return stop > 0 && isRunInHeading(sentence.slice(0, stop + 1)) ? sentence.slice(stop + 2) : sentence;
}

/**
 * An item of a list run into one sentence, ending with the next item's number ("...the rules or
 * regulations, 2.", "...citizen or resident; and 2."): the item, ended as a sentence, and that
 * number. Not a series of short names ("Copies B, C, and 2.", "box 1, 3, 5, or 7."): the item
 * holds three words or more.
 */
const NEXT_ITEM = /^(.*[\p{L})])\s*(?:[,;]|[,;]?\s+(?:and|or))\s+(\(?(?:\d{1,2}|[a-h])[.)])$/u;
/** An item that ends as a sentence, then the next item's number ("...at the top: “131.” 3."; not "see Pub. 54."). */
const ENDED_ITEM = new RegExp(String.raw`^(.*[\p{L}\p{N})](?<!\b(?:${NUMBERED}))[.!?]["”')]?)\s+(\(?(?:\d{1,2}|[a-h])[.)])$`, "u");
const ENDS_WITH_ITEM_NUMBER = /(?:\d|(?<![\p{L}\p{N}])[a-h])[.)]$/u;
function itemBeforeNext(piece: string): { item: string; next: string } | null {
  // most pieces end otherwise: the patterns below read the whole piece
  if (!ENDS_WITH_ITEM_NUMBER.test(piece.slice(-4))) return null;
  const m = NEXT_ITEM.exec(piece);
  const ended = m ? null : ENDED_ITEM.exec(piece);
  const item = m ? `${m[1]}.` : ended?.[1];
  if (!item || item.split(/[,;:]/).at(-1)!.trim().split(/\s+/).length < 3) return null;
  return { item, next: (m ?? ended)![2]! };
}

/**
 * Whether the next item's number follows on from the item it ended ("...: 1. You show..., 2.", "2. You
 * substantially..., 3."): the list is read on with it. Otherwise (a lettered item, a list whose start
 * the passage lacks) the number is left out: it would open a sentence no list explains.
 */
function followsOn({ item, next }: { item: string; next: string }): boolean {
  const n = Number(/\d+/.exec(next)?.[0]);
  return n > 1 && new RegExp(`^\\(?${n - 1}[.)]\\s|:\\s+\\(?${n - 1}[.)]\\s`).test(item);
}

export function splitSentences(text: string): string[] {
  const pieces = sentencePieces(text);
  // A list number ("you: 1.", "your return: a.", not "line 19.") or a question ("How long should
  // records be kept?") belongs with what follows it: the answer is the next sentence.
  const sentences: string[] = [];
  for (const piece of pieces) {
    const last = sentences.at(-1);
    if (last !== undefined && (/(^|[:;]\s*)\(?(\d{1,2}|[a-h])[.)]$/.test(last) || /\?$/.test(last) || isRunInHeading(last))) {
      sentences[sentences.length - 1] = `${last} ${piece}`;
      continue;
    }
    // the next item's number starts the next item ("2. You substantially understate your income tax.")
    const split = last !== undefined ? itemBeforeNext(last) : null;
    if (split) sentences[sentences.length - 1] = split.item;
    sentences.push(split && followsOn(split) ? `${split.next} ${piece}` : piece);
  }
  // a passage cut after the next item's number ends with the item
  const end = sentences.length ? itemBeforeNext(sentences.at(-1)!) : null;
  if (end) sentences[sentences.length - 1] = end.item;
  return sentences.filter((s) => s.length >= 20);
}

// Words that open a sentence in running text. A run of capitalised words ending in
// one of these ("Age Test To meet this test...", "Early Distributions You must...")
// is a heading the text extraction ran into its first sentence.
export const SENTENCE_OPENERS = new Set(
  "a after all also although an any as at because before beginning both by certain check complete do don't don’t each enter even for generally he however if in include it keep most no not once only see she since some the there these they this those to under unless use we what when where whether while with without you your".split(
    " ",
  ),
);
/** Words naming a numbered part of a document before its title ("Step 3:", "Section 2.", "Article IV:"). */
const NUMBERED_PART = /^(Step|Section|Part|Chapter|Article|Item)$/;
const CONNECTORS = new Set(["of", "and", "or", "for", "the", "to", "in", "on", "a", "an", "with", "by", "from", "&"]);

/**
 * A heading run into the sentence after it ("Amount You Owe To avoid interest...",
 * "Line 23 Educator Expenses If you were..."): the heading and the sentence, or
 * null when the piece starts with no such heading.
 */
export function leadingHeading(piece: string): { heading: string; sentence: string } | null {
  const words = piece.split(" ");
  // a numbered part's title ("Step 3: Claim Dependent and Other Credits If...", "Section 3: Leave
  // Policy Full-time employees accrue..."): its sentence may open with any capitalised word;
  const named = NUMBERED_PART.test(words[0] ?? "") && /^[\dIVX]{1,4}[a-z]?[:.]$/.test(words[1] ?? "");
  // or a note's number alone ("13. Contingencies and Commitments We are involved in...")
  const bare = !named && /^\d{1,2}\.$/.test(words[0] ?? "");
  const numbered = named || bare;
  let run = named ? 2 : bare ? 1 : 0;
  while (run < words.length) {
    const w = words[run]!;
    const titled = /^["'(]?[\p{Lu}\p{N}]/u.test(w) && !/[,.;:!?)]$/.test(w);
    if (!titled && !(run > 0 && CONNECTORS.has(w))) break;
    run++;
  }
  // the run ends with the sentence's first word, followed by running text
  if (run < 2 || run >= words.length || !/^\p{Ll}/u.test(words[run]!)) return null;
  // or with its first two, an opener and a name ("Introduction The CTC is a credit...", "... The IRS will")
  if (run >= 3 && !SENTENCE_OPENERS.has(words[run - 1]!.toLowerCase()) && SENTENCE_OPENERS.has(words[run - 2]!.toLowerCase())) run--;
  const opener = words[run - 1]!;
  const heading = words.slice(0, run - 1);
  if (!/^\p{Lu}/u.test(opener) || CONNECTORS.has(heading.at(-1)!)) return null;
  if (!SENTENCE_OPENERS.has(opener.toLowerCase()) && !(numbered && heading.length > 2)) return null;
  // a list or row number before a sentence ("2 Don't report...") is no heading
  if (!heading.some((w) => /\p{L}/u.test(w)) || heading.length > 12) return null;
  return { heading: heading.join(" "), sentence: words.slice(run - 1).join(" ") };
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

/** A labelled line's label: a capitalised phrase ("Revenue: 2023 $46,298; ...", "Line 11: Subtract line 10..."). */
const CAPITALISED_LABEL = /^\p{Lu}[^:]{0,150}: \S/u;

/**
 * A piece opening with a number then a lower-case word, a number whose name was cut off before it:
 * the sentence began before it ("31, 2024, or other tax year beginning..." after a date's month,
 * "515 for more information..." after "Pub.", "12 of Form W-2 with code Q." after "box"); a year may
 * open one ("2024 was a record year").
 */
const OPENS_AFTER_CUT = /^\d{1,2}, (?:19|20)\d\d\b|^(?!(?:19|20)\d\d\s)\d[\d,.]*\s+\p{Ll}/u;

/**
 * A stop that is an abbreviation's, where a chunk or a page ended before its number: "...giving you
 * this form because they Cat." (a form's footer, "Cat. No. 10231X"), "...Internal Revenue Service P.O.".
 */
const CUT_AT_ABBREVIATION = /\b(?:Pubs?|Cat|Rev|Proc|Fig|Vol|P\.O)\.$/;

/**
 * A quote a reader can read alone: it starts as a sentence starts and ends as one ends, or it is a
 * labelled line (a table row, a form's line) with a capitalised label; a footnote's mark ("(5)
 * Represents...") opens none. A chunk cut inside a sentence ("your employer because your employer continued...",
 * "...issues you an ITIN as a result of the") or a row read from the middle of a sentence ("file a
 * return if your gross income was at least... Single under: 65; $14,600") is a fragment.
 */
export const readsWhole = (quote: string, labelled = false) =>
  labelled
    ? CAPITALISED_LABEL.test(quote)
    : /^["“']?[\p{Lu}\p{N}$]/u.test(quote) &&
      !OPENS_AFTER_CUT.test(quote) &&
      /[.!?]["”')]?$/u.test(quote) &&
      !CUT_AT_ABBREVIATION.test(quote);
