// The quotable sentences of a passage: each sentence as matched and as quoted, table rows only as
// labelled lines, form lines, contents entries; headings, index entries and cells never quoted.

import { type FactKind } from "../question/fact-kind";
import { holdsListEntry, isContentsPassage, isIndexEntry, isIndexPassage } from "./contents";
import { formLines } from "./form-lines";
import { ageBracketRows } from "./age-rows";
import { labelledRows } from "./labelled-rows";
import { forMatching } from "./line-breaks";
import { OPENS_NUMBERED_LIST, leadInOfFirstItem, listedCases, numberedItem } from "./listed-cases";
import { isHeading, leadingHeading, namesWhatFollows, splitSentences, withoutRunInHeading } from "./sentences";
import { isTableRow, runsTableCells } from "./table-rows";
import { taxTableRows } from "./tax-table";
import { unitNote, withTableUnit, type TableUnit } from "./table-units";

export interface QuotableSentence {
  text: string;
  /** for finding question terms in (forMatching) */
  lower: string;
  quote: string;
  /** a table row as a labelled line: never the answer to when, how long or whether */
  row?: true;
  /** part of a worked example ("Example. Lennon, a teacher, ..."): the rule it illustrates answers first */
  example?: true;
  /** an entry of a table of contents: only the answer to where to look */
  entry?: true;
  /** a form's numbered line: a unit of its own, like a row, with no sentence before it */
  formLine?: true;
  /** a heading before its paragraph ("Substantial understatement of income tax."): the next sentence's context, never quoted */
  heading?: true;
  words?: number;
  /** factStrength by kind of fact, once asked: the same sentences are scored for question after question */
  strength?: Partial<Record<FactKind, number>>;
  /** the cases a sentence lists after a colon, each read with the lead-in (listed-cases.ts); null: none; read once an answer asks */
  cases?: ListedCase[] | null;
}

/** One case of a listed sentence: `text` is the lead-in and the case, `caseLower` the case alone. */
export interface ListedCase extends QuotableSentence {
  caseLower: string;
}

/** A form's header block read as text ("Form 1040 ... Department of the Treasury ... OMB No. 1545-0074 ..."): names the form, answers nothing. */
const FORM_HEADER = /\bOMB No\. \d{4}-\d{4}/;

/** A press release's dateline before its first sentence ("(August 30, 2023) – Johnson & Johnson today announced..."). */
const DATELINE = /^\(\p{Lu}\p{Ll}+\.? \d{1,2}, (?:19|20)\d\d\)\s*[–—-]\s*(?=\p{Lu})/u;

/** A list item's end ("..., a decrease of 44%;", "...; and"): quoted alone, it ends as a sentence. */
const LIST_ITEM_END = /(?<=[\p{L}\p{N}%)])\s*;(?:\s+(?:and|or))?$/u;

/** A filing's signature ("/s/ Michael F. Roman Chief Executive Officer February 7, 2019"): quoted as who signed ("Signed by Michael F. Roman ..."). */
const SIGNATURE = /^\/s\/\s*(?=\p{Lu})/u;
/** A filing's running page head, a link back to its contents on every page ("Table of Contents Report of..."). */
const RUNNING_HEAD = /^Table of Contents\s+(?=\S)/;
/** A sentence set wholly in parentheses ("(The buyers add the $215 to their cost of the home.)"): quoted without them. */
const PARENTHESISED = /^\((\p{Lu}[^()]*[.!?])\)$/u;

/**
 * A sentence as quoted: a form line without its dot leaders ("enter 12, etc. . . . . ." -> "enter
 * 12, etc."), without the next list item's bullet and heading run into its end ("...name on line 2.
 * • Disregarded entity."), its own bullet, or a form field's number before it ("3 You must show your name..."),
 * a release's dateline, a list item's ";", its enclosing parentheses, a filing's running page head;
 * a signature as who signed.
 */
function asQuoted(sentence: string): string {
  const quote = sentence
    .replace(RUNNING_HEAD, "")
    .replace(/(?:\s\.){3,}/g, "")
    .replace(/(?<=[.!?])\s+•\s+[^•]{1,40}$/, "")
    .replace(/^[•▪\uf0b7]\s+/u, "")
    .replace(/^\d{1,2}[a-z]?\s+(?=\p{Lu}\p{Ll}+ \p{Ll})/u, "")
    .replace(/^\d{1,2}\.\s*(?=["“])/, "") // a note's number before the term it defines: 2."Adjusted EBITDAR" is...
    .replace(DATELINE, "")
    .replace(LIST_ITEM_END, ".")
    .replace(PARENTHESISED, "$1")
    .replace(SIGNATURE, "Signed by ");
  return quote === sentence || /[.!?]$/.test(quote) ? quote : `${quote}.`;
}

/**
 * A heading asked as a question, in title case, run into its answer ("When Do I Have To File? April
 * 15, 2025, is..."), the page's running head too ("2017 Form 1040—Line 6c Is Your Qualifying Relative
 * Your Dependent? A qualifying relative is...").
 */
const QUESTION_HEADING =
  /^((?:[\p{Lu}\d][\p{L}\d'’—–-]*|a|an|and|for|in|of|on|or|the|to) ){2,11}[\p{Lu}\d][\p{L}\d'’-]*\? (?=["“]?[\p{Lu}\p{N}$])/u;

/** A question a guide asks in a sentence's case before its answer ("What is backup withholding? Persons making..."). */
const QUESTION_BEFORE_ANSWER =
  /^(?:What|Who|When|Where|Why|How|Which|Can|Do|Does|Is|Are|Should|Must|May|Will) [^?]{3,120}\? (?=["“]?[\p{Lu}\p{N}$])/u;

/** A sentence as quoted without a heading run into it ("Base amount. Your base amount is..."). */
function withoutHeading(piece: string): string {
  const asked = piece.includes("? ") ? (QUESTION_HEADING.exec(piece) ?? QUESTION_BEFORE_ANSWER.exec(piece)) : null;
  if (asked && piece.length - asked[0].length >= 20) return piece.slice(asked[0].length);
  const glued = leadingHeading(piece)?.sentence;
  return glued && glued.length >= 20 && !isHeading(glued) ? glued : withoutRunInHeading(piece);
}

/** A passage's sentence as an answer quotes it: without a heading run into it, bullets or leaders. */
export const quoteOf = (sentence: string) => asQuoted(withoutHeading(sentence));

/** The cases a sentence lists, each quoted with its lead-in and an ellipsis for the cases left out before it. */
export function casesOf(piece: string): ListedCase[] | null {
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

/** A worked example's opening ("Example.", "Example 2—Friend.", "Example: ..."), and how many sentences it runs at most. */
const EXAMPLE_OPENS = /^Examples?\b(?: \d+)?(?:[—–-][\p{L} ]+)?[.:]/u;
const EXAMPLE_SENTENCES = 4;
/**
 * A worked example told of a couple by name, with no "Example." before it in the passage ("Reese and
 * Quin Brown bought a new home on May 3, 2024.", "Casey and Pat Hopkins file a joint return..."):
 * two first names (and a family name), then what they did or are.
 */
const COUPLE_OPENS =
  /^\p{Lu}\p{Ll}+ and \p{Lu}\p{Ll}+(?: (?!(?:We|They|You|It|He|She)\b)\p{Lu}\p{Ll}+)? (?:bought|sold|owned|own|paid|received|filed|file|are|were|have|had|married|divorced|lived|live|made|gave)\b/u;
/** A sentence that illustrates in passing ("For example, if you..."). */
const FOR_EXAMPLE = /^(?:For (?:example|instance)|E\.g\.)[, ]/;
/**
 * A sentence that works figures out: a sum written out ("$600 ($150 + $450)", "$2,400 (12 × $200)") or
 * one amount chosen of two ("$1,300 (the smaller of $1,300 and $14,600)"). It tells one case's numbers,
 * as a worked example does, not the rule. (A phone number or a range in brackets, "(800-829-1040)",
 * "(2023 - 2024)", is no sum: a minus or a dash counts only after an amount in dollars.)
 */
const WORKED_FIGURES =
  /\((?:\$\d[\d,.]*\s+[+−–×÷*/x-]|\d[\d,.]*\s+[+×÷*x])\s+\$?\d|\bthe (?:smaller|larger|lesser|greater) of \$\d[\d,.]* (?:and|or) \$\d/;

/** A stop that ends an abbreviation or an initial ("U.S.", "Inc.", "Pub.", "David M."), perhaps no sentence's. */
const ENDS_ON_ABBREVIATION = /(?:\b(?:U\.S|Inc|Corp|Co|Ltd|Pub|Nos?|e\.g|i\.e|Mrs?|Ms|Dr|St|vs)|\s\p{Lu})\.$/u;

export function quotableSentences(text: string): QuotableSentence[] {
  const cached = quotableCache.get(text);
  if (cached) return cached;
  const sentences: QuotableSentence[] = [];
  // a book's index quotes nothing
  const form = isIndexPassage(text) ? { lines: [], stretches: [] } : formLines(text);
  for (const line of form.lines) sentences.push({ text: line, lower: forMatching(line), quote: line, formLine: true });
  const contents = isContentsPassage(form.stretches.join(" "));
  // a page of the tax table: each row with its range and each status's tax
  for (const row of taxTableRows(text)) sentences.push({ text: row, lower: forMatching(row), quote: row, row: true });
  let example = 0;
  // the numbered list being read: its lead-in as quoted, and the last item's number
  let list: { leadIn: string; item: number } | null = null;
  const pieces = form.stretches.flatMap(splitSentences);
  // the unit the table being read states its amounts in ("(Millions, except per share amounts)")
  let unit: TableUnit | null = null;
  for (const [at, piece] of pieces.entries()) {
    unit = unitNote(piece) ?? unit;
    // an item of a numbered list says what it says only after the list's lead-in ("The IRS can't
    // figure your tax for you if any of the following apply: … 4. Your taxable income is $100,000 or more.")
    const item = numberedItem(piece);
    if (list && item?.number === list.item + 1) {
      list.item = item.number;
      const quote = `${list.leadIn}: ${item.number > 1 ? "… " : ""}${quoteOf(piece)}`;
      // its number is no figure of what it says
      sentences.push({ text: item.said, lower: forMatching(`${list.leadIn} ${item.said}`), quote });
      continue;
    }
    if (namesWhatFollows(piece, pieces[at + 1])) {
      sentences.push({ text: piece, lower: forMatching(piece), quote: piece, heading: true });
      continue;
    }
    const runOn = leadInOfFirstItem(piece);
    if (runOn) list = { leadIn: quoteOf(runOn), item: 1 };
    else list = OPENS_NUMBERED_LIST.test(piece) ? { leadIn: quoteOf(piece).replace(/[.:]$/, ""), item: 0 } : null;
    if (contents && holdsListEntry(piece)) {
      sentences.push({ text: piece, lower: forMatching(piece), quote: piece, entry: true });
      continue;
    }
    if (isTableRow(piece)) {
      // a row of age brackets is matched with the table's column heads: what each row's amount is
      const brackets = ageBracketRows(piece, pieces[at - 1]);
      for (const row of brackets.rows) sentences.push({ text: row, lower: forMatching(`${brackets.heads} ${row}`), quote: row, row: true });
      if (brackets.rows.length) continue;
      for (const row of labelledRows(piece)) {
        sentences.push({ text: row, lower: forMatching(row), quote: withTableUnit(row, unit), row: true });
      }
      continue;
    }
    // a signature is a name and a title, read as who signed, no heading
    const heading = isHeading(piece) && !SIGNATURE.test(piece);
    if (heading || runsTableCells(piece) || isIndexEntry(piece) || FORM_HEADER.test(piece)) {
      example = 0;
      continue;
    }
    // running text: the table, and its unit, have ended
    if (!unitNote(piece)) unit = null;
    // a worked example runs from its "Example." to the next heading, a few sentences at most
    if (EXAMPLE_OPENS.test(piece) || (piece.includes(" and ") && COUPLE_OPENS.test(piece))) example = EXAMPLE_SENTENCES;
    else if (example > 0) example--;
    const inExample = example > 0 || FOR_EXAMPLE.test(piece) || WORKED_FIGURES.test(piece);
    // a passage cut after an abbreviation may have cut its last sentence short ("...married to a U.S.")
    const quote = at === pieces.length - 1 && ENDS_ON_ABBREVIATION.test(piece) ? `${quoteOf(piece)} …` : quoteOf(piece);
    sentences.push({ text: piece, lower: forMatching(piece), quote, ...(inExample && { example: true as const }) });
  }
  if (quotableCache.size >= QUOTABLE_CACHE_MAX) quotableCache.delete(quotableCache.keys().next().value!);
  quotableCache.set(text, sentences);
  return sentences;
}
