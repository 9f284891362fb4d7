// A document's overview from its pages' text: an outline of its headings (when the PDF has no
// bookmarks of its own), a three-sentence extractive summary, and three questions from its
// headings. Pure: the indexer gives it the pages as extracted (lines kept), and a document
// indexed before overviews existed gives it the pages as its Library's chunks hold them (one
// line each, so fewer headings are told apart; docs/decisions.md).
import { OUTLINE_MAX_ENTRIES, type OutlineEntry } from "../contract/overview";
import type { Passage } from "../providers/llm/types";
import { isContentsPassage, isIndexPassage } from "./passages/contents";
import { isHeading, leadingHeading, readsWhole, sentencePieces, splitSentences, wordCount } from "./passages/sentences";
import { headingSuggestions, isSectionHeading, MAX_SUGGESTIONS } from "./suggestions";
import { squeezed } from "./question/named-files";

export const SUMMARY_SENTENCES = 3;

/** A numbered part's title on its own line ("Chapter 2. Filing Status", "Section 3: Leave Policy"). */
const NUMBERED_TITLE = /^(?:Chapter|Part|Section|Article)\s+[\dIVX]{1,4}[.:]?\s+\p{Lu}[^.!?]{2,80}$/u;

const looksLikeHeading = (line: string) => isSectionHeading(line) || (NUMBERED_TITLE.test(line) && wordCount(line) <= 10);

/** Lines that open front matter or back matter: an outline entry, never a suggested question. */
const NOT_A_TOPIC =
  /^(contents|table of contents|introduction|preface|foreword|index|glossary|reminders|what'?s new|appendix|inside cover|cover)\b/i;

const lines = (page: string) =>
  page
    .split("\n")
    .map((l) => l.replace(/\s+/g, " ").trim())
    .filter(Boolean);

/** A line that opens with an abbreviation and goes on ("JAK Janus kinase", "IPR&D in-process research"). */
const ABBREVIATION_FIRST = /^(?=\S*\p{Lu}\S*\p{Lu})[\p{L}&-]{2,8} \S/u;

/** A list of defined terms (a filing's abbreviations): most of its lines open with one. */
const isGlossaryPage = (page: string) => {
  const own = lines(page);
  const defining = own.filter((line) => ABBREVIATION_FIRST.test(line)).length;
  return defining >= 8 && defining >= 0.4 * own.length;
};

/** Pages that list where things are (a table of contents, an index) or what words mean: no headings or summary there. */
const isListingPage = (page: string) => {
  const flat = page.replace(/\s+/g, " ");
  return isContentsPassage(flat) || isIndexPassage(flat) || isGlossaryPage(page);
};

/** A line's sentence goes on in the next line: it ends on a comma, a hyphen or a word no sentence ends with ("...the Investors section of the"). */
const RUNS_ON = /(?:[,-]|\b(?:a|an|the|of|at|in|on|to|for|with|by|from|and|or|as|that|which|its|their|our|your))$/;
/** A contact's e-mail address or telephone number: the line above it is a name, no heading ("Jake Sargent Jessica Moore"). */
const CONTACT = /[\w.-]+@[\w-]+\.\w|\(?\b\d{3}\)?[ -]\d{3}-\d{4}\b/;

/**
 * A line that reads as a heading but is not one where it stands: the end of the sentence the
 * line before began (after "...section of the", or after a line of running text with no stop, for
 * a line ending with one), the start of one the next line goes on with in lower case, or the
 * names above their e-mail addresses in a press release's contacts.
 */
function outOfPlace(line: string, before = "", after = ""): boolean {
  if (RUNS_ON.test(before) || /^\p{Ll}/u.test(after) || CONTACT.test(after)) return true;
  return /\.$/.test(line) && /\p{L}$/u.test(before) && wordCount(before) >= 6 && !looksLikeHeading(before);
}

/** The headings of a page, in order: lines of their own, or (a page read as one line) headings run into a sentence. */
function pageHeadings(page: string): string[] {
  const own = lines(page);
  if (own.length > 1) return own.filter((line, i) => looksLikeHeading(line) && !outOfPlace(line, own[i - 1], own[i + 1]));
  return sentencePieces(own[0] ?? "").flatMap((piece) => {
    if (isSectionHeading(piece)) return [piece.replace(/[.:]$/, "")];
    const run = leadingHeading(piece)?.heading;
    return run && looksLikeHeading(run) ? [run] : [];
  });
}

/**
 * One entry per page that opens with a heading (its first), level 1: a heading printed on
 * many pages is a running header and is left out.
 */
export function headingOutline(pages: readonly string[]): OutlineEntry[] {
  const found = pages.map((page) => (isListingPage(page) ? [] : pageHeadings(page)));
  const pagesWith = new Map<string, number>();
  for (const headings of found) for (const h of new Set(headings)) pagesWith.set(h, (pagesWith.get(h) ?? 0) + 1);
  const running = (h: string) => (pagesWith.get(h) ?? 0) > Math.max(2, pages.length / 5);
  const outline: OutlineEntry[] = [];
  found.forEach((headings, i) => {
    const title = headings.find((h) => !running(h));
    if (title && title !== outline.at(-1)?.title && outline.length < OUTLINE_MAX_ENTRIES) outline.push({ title, page: i + 1, level: 1 });
  });
  return outline;
}

/** A page's running text: its heading lines left out, so no heading runs into a sentence. */
export function bodyText(page: string): string {
  return lines(page)
    .filter((line) => !looksLikeHeading(line))
    .join(" ");
}

/** A sentence a summary can quote: whole, a statement of 8-45 words, no link or leader dots. */
function summarySentence(sentence: string): string | null {
  const text = leadingHeading(sentence)?.sentence ?? sentence;
  const words = wordCount(text);
  if (words < 8 || words > 45 || !readsWhole(text) || isHeading(text)) return null;
  if (/https?:|www\.|\.{4}|\?$/.test(text)) return null;
  // a title page's words run together ("Your Federal Income Tax For Individuals For use in...")
  if (text.split(" ").filter((w) => /^\p{Lu}/u.test(w)).length > 0.4 * words) return null;
  return text;
}

/** The first three sentences of the document's running text (its lead), skipping contents and index pages. */
export function extractiveSummary(pages: readonly string[]): string {
  const picked: string[] = [];
  for (const page of pages) {
    if (isListingPage(page)) continue;
    for (const sentence of splitSentences(bodyText(page))) {
      const text = summarySentence(sentence);
      if (text && !picked.includes(text)) picked.push(text);
      if (picked.length === SUMMARY_SENTENCES) return picked.join(" ");
    }
  }
  return picked.join(" ");
}

/** The document's opening text for a model's summary, at most `max` characters. */
export function openingText(pages: readonly string[], max = 6000): string {
  let text = "";
  for (const page of pages) {
    if (isListingPage(page)) continue;
    text += `${bodyText(page)}\n\n`;
    if (text.length >= max) break;
  }
  return text.slice(0, max);
}

/** A model's summary cut to its first three sentences; "" when it wrote none. */
export function firstSentences(text: string): string {
  const sentences = sentencePieces(text.replace(/\s+/g, " ").trim()).filter((s) => /[.!?]["”')]?$/.test(s));
  return sentences.slice(0, SUMMARY_SENTENCES).join(" ");
}

const asPassage = (fileName: string, text: string, page: number): Passage => ({
  chunkId: "",
  documentId: "",
  fileName,
  page,
  text,
  charStart: 0,
  charEnd: text.length,
});

/** "1. Filing Information" -> "Filing Information": a title's number makes it no heading to ask about. */
const withoutNumber = (title: string) => title.replace(/^(?:(?:chapter|part|section|article)\s+)?[\dIVX]{1,4}[.:)]?\s+/i, "").trim();

/** Words a company's name ends with, which its file's name leaves out ("Best Buy Co., Inc." is BESTBUY_2023_10K.pdf). */
const COMPANY_SUFFIX = /^(inc|corp|corporation|company|co|ltd|llc|plc|group|holdings|and)$/;

/**
 * A heading that is the document's own name, no topic in it: the company's ("Johnson & Johnson" of
 * JOHNSON_JOHNSON_2023_8K.pdf) or the title's ("Employee Handbook" of Employee Handbook 2025.pdf).
 */
function namesTheDocument(heading: string, fileName: string): boolean {
  const name = squeezed(fileName);
  const words = (heading.toLowerCase().match(/\p{L}+/gu) ?? []).filter((w) => !COMPANY_SUFFIX.test(w));
  return words.length > 0 && words.every((w) => name.includes(w));
}

/**
 * Three questions from the outline's topics (then the pages' headings), as the follow-up chips
 * word them; general questions about the document fill up when it has fewer headings.
 */
export function overviewQuestions(fileName: string, outline: readonly OutlineEntry[], pages: readonly string[]): string[] {
  const isTopic = (heading: string) => !NOT_A_TOPIC.test(heading) && !namesTheDocument(heading, fileName);
  const topics = outline.map((e) => withoutNumber(e.title)).filter(isTopic);
  const passages = [
    asPassage(fileName, topics.map((t) => (/[.?!]$/.test(t) ? t : `${t}.`)).join(" "), 1),
    ...pages.flatMap((page, i) =>
      isListingPage(page)
        ? []
        : [
            asPassage(
              fileName,
              pageHeadings(page)
                .filter(isTopic)
                .map((h) => `${h}.`)
                .join(" "),
              i + 1,
            ),
          ],
    ),
  ];
  const questions = headingSuggestions("", passages);
  for (const general of [
    `What is ${fileName} about?`,
    `What are the key points of ${fileName}?`,
    `What deadlines or dates does ${fileName} mention?`,
  ])
    if (questions.length < MAX_SUGGESTIONS && !questions.includes(general)) questions.push(general);
  return questions;
}
