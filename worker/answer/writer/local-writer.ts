// The local default: a deterministic extractive responder. It leads with the one
// sentence of the retrieved passages that best states what was asked (the
// densest in question terms, preferring the kind of fact asked: an amount, a
// date, a rule), then at most two supporting quotes (from other pages, or from
// the lead's page when they score nearly as well as the lead), each with
// its [n], and the other best-ranked pages about the question as "See also" (an
// extractive answer can quote the wrong sentence; those pages are where to check),
// in about 120 words, streamed a few words at a time. Table rows and
// headings are never quoted as sentences: a row answers an amount asked only as
// a compact labelled line ("Net income: 2023 1,058; 2022 815"), and a change asked
// is worked out from its figures ("(from 2022 to 2023: up 243, or 30%)"). The same
// sentence is never quoted twice. With nothing relevant it says so plainly; it
// never writes anything that is not in the documents.
import { documentNames, namedDocuments, squeezed } from "../question/named-files";
import { asksChange, isPartOf, rowChange } from "./row-change";
import { labelNamesAny, rowNaming, rowQuestion } from "../ranking/row-labels";
import { rowFiguresText, rowLabelText } from "../passages/labelled-rows";
import { scoreSentences, type ScoredSentence } from "../ranking/sentence-scores";
import { withColumnHeads } from "../passages/column-heads";
import { withWholeWords } from "../passages/line-breaks";
import { readsWhole, wordCount } from "../passages/sentences";
import type { ChatTurnInput } from "../../providers/llm/types";

/** The answer: one leading sentence, then at most this many supporting quotes from other pages. */
const MAX_SUPPORT = 2;
const MAX_SENTENCE_CHARS = 400;
/** A shorter sentence is a heading or a list's item ("Chronically ill individual."): quoted by no answer. */
const MIN_QUOTE_WORDS = 5;
/** About this many words at most, so the fact is not buried. */
const MAX_ANSWER_WORDS = 120;
/** A supporting quote must score at least this share of the leading one. */
const SUPPORT_MIN_SHARE = 0.5;
/**
 * A supporting quote from a page already quoted must score at least this share of the leading one: the
 * page's rule beside a lead that only names its subject ("The custodial parent can revoke a release…"
 * before "For the revocation to be effective for 2024, … in 2023 or earlier"). bench:offline: dev fact
 * 74 -> 75, fresh IRS 18 -> 20/30 at 0.8 and 0.7; 0.6 marked one answer unsupported, 0.9 gained one.
 */
const SAME_PAGE_MIN_SHARE = 0.8;
/**
 * Sources among the best-ranked SEE_ALSO_RANKS that were not quoted are listed as "See also" when
 * their best sentence scores at least this share of the leading one: where else to check. Over
 * several files, each file's best such source is listed even ranked below: the form a question is
 * about ranks below the guide that discusses it at length (bench:offline over all files: cited
 * evidence dev 78 -> 80/89, held-out 37 -> 38/44; no other figure moved).
 */
const SEE_ALSO_RANKS = 5;
const SEE_ALSO_MIN_SHARE = 0.2;
/** How much a sentence of another file counts when the question names a file among the sources. */
const ELSEWHERE_WEIGHT = 0.5;
/**
 * How much less a sentence counts for each place its document's best passage ranks below the first
 * passage: over several files, a sentence of a file retrieval puts last ("The current quarter was
 * affected by..." of an earnings release, for "more than a quarter of my income") yields to the files it
 * puts first. One file's sentences are weighed alike. bench:offline over all files: leads on an evidence
 * page dev 51 -> 54/89, held-out 19 -> 23/44; facts unchanged but one answer that states it in other words
 * (0.05: held-out leads 23, dev 52; 0.2: dev 55, held-out 24, fresh IRS fact 21 -> 20).
 */
const DOCUMENT_RANK_WEIGHT = 0.1;
/** How much a sentence of a worked example counts: the rule it illustrates answers first. */
const EXAMPLE_WEIGHT = 0.5;

interface Candidate {
  /** the source's number, [n] */
  n: number;
  text: string;
  score: number;
  /** a table row as a labelled line */
  row?: true;
  /** a table row or a form's line: "Label: ..." */
  labelled: boolean;
  /** what its figures show, worked out for the reader: a table row's change asked (row-change.ts) */
  workedOut?: string;
  /** the sentence before it in its passage */
  before?: string;
}

/** The file and page a passage [n] is from: one source each. */
const pageOf = (passages: ChatTurnInput["passages"], n: number) => `${fileOf(passages, n)}:${passages[n - 1]!.page}`;
/** The file a passage [n] is from. */
const fileOf = (passages: ChatTurnInput["passages"], n: number) => passages[n - 1]!.documentId;

/**
 * A table row of several figures no column head names ("Adjusted EBITDA: 2,117; 2,018", "Form: 1040; (2024)"):
 * which is which year, the reader cannot tell. A headed row writes each figure after its head ("2023 $46,298");
 * a row of one figure ("Single, under 65: $14,600") needs none.
 */
function headless(c: Candidate): boolean {
  const figures = (rowFiguresText(c.text) ?? "").split("; ");
  return c.row === true && figures.length > 1 && !figures.some((figure) => figure.includes(" "));
}

/** A sentence mostly of figures and signs ("They can exclude $1,516.15 ($3,052 × ($4,000 ÷ $8,052)) of interest"): a calculation, no rule. */
function mostlyFigures(text: string): boolean {
  const visible = text.replace(/\s/g, "");
  return (visible.match(/\p{L}/gu)?.length ?? 0) < visible.length / 2;
}

const tooShort = (c: Candidate) => !c.labelled && wordCount(c.text) < MIN_QUOTE_WORDS;

/**
 * A sentence that can lead: read alone it is whole (no fragment of a chunk cut inside a sentence),
 * short enough to quote uncut and mostly words; a row names its figures' columns.
 */
const canLead = (c: Candidate) =>
  readsWhole(c.text, c.labelled) &&
  c.text.length <= MAX_SENTENCE_CHARS &&
  (c.labelled ? !headless(c) : !mostlyFigures(c.text) && !tooShort(c));

/**
 * The leading sentence, then up to MAX_SUPPORT quotes that score nearly as well, from other pages
 * or from a quoted one (SAME_PAGE_MIN_SHARE); `related`: the sources whose best sentence scores at
 * least SEE_ALSO_MIN_SHARE of the leading one, best-ranked first.
 */
export function pickSentences(question: string, input: Pick<ChatTurnInput, "passages">): { picked: Candidate[]; related: number[] } {
  // a file the question names ("my W-9") is where it asks to look: another file's sentences count less
  const files = [...new Map(input.passages.map((p) => [p.documentId, { id: p.documentId, file_name: p.fileName }])).values()];
  const named = new Set(namedDocuments(documentNames(question), files));
  // where each document's best passage ranks: a document retrieval ranks lower answers after the others
  const firstRank = new Map<string, number>();
  input.passages.forEach((p, rank) => firstRank.has(p.documentId) || firstRank.set(p.documentId, rank));
  const weight = (passage: number) => {
    const { documentId } = input.passages[passage]!;
    return (named.size && !named.has(documentId) ? ELSEWHERE_WEIGHT : 1) / (1 + DOCUMENT_RANK_WEIGHT * firstRank.get(documentId)!);
  };
  // a change asked is worked out from a row's figures
  const changeAsked = asksChange(question);
  const fileNames = files.map((f) => squeezed(f.file_name));
  const asked = rowQuestion(question, fileNames);
  const candidate = (s: ScoredSentence): Candidate => ({
    n: s.passage + 1,
    text: s.text,
    // better-ranked sources break ties
    score: s.score * weight(s.passage) * (s.example ? EXAMPLE_WEIGHT : 1) - s.passage * 0.01,
    ...(s.row && { row: true as const }),
    labelled: Boolean(s.row || s.formLine),
    workedOut: (changeAsked && s.row && rowChange(s.text, question)) || undefined,
    before: s.before,
  });
  const ranked = scoreSentences(question, input.passages.map(withColumnHeads), {
    quoteCases: true,
    percentRows: true,
    fileNames,
    rowNaming: rowNaming(question, fileNames, asked),
  })
    .map(candidate)
    .sort((a, b) => b.score - a.score);
  if (!ranked[0]) return { picked: [], related: [] };
  // a fragment (a chunk cut inside a sentence) is quoted by no answer while a whole sentence scores
  const whole = ranked.filter((c) => readsWhole(c.text, c.labelled));
  const top = ranked.find(canLead) ?? whole[0] ?? ranked[0];
  // a row of one segment leads no answer its company's row answers as well ("Revenue" of the
  // Domestic segment's table and of the statement of earnings): the whole is the figure asked
  const lead = whole.reduce(
    (best, c) => (c.score >= top.score * SUPPORT_MIN_SHARE && canLead(c) && isPartOf(best.text, c.text) ? c : best),
    top,
  );
  const related = [...new Set(ranked.filter((c) => c.score >= lead.score * SEE_ALSO_MIN_SHARE).map((c) => c.n))].sort((a, b) => a - b);
  const picked = [lead];
  const page = (c: Candidate) => pageOf(input.passages, c.n);
  for (const c of whole) {
    if (picked.length > MAX_SUPPORT) break;
    if (c.score < lead.score * SUPPORT_MIN_SHARE) break;
    // a supporting row names what is asked in its label: a row holding only the period and the company is another table's
    if (c.row && !labelNamesAny(rowLabelText(c.text), asked)) continue;
    if (tooShort(c)) continue;
    if (
      picked.some(
        (p) =>
          (page(p) === page(c) && c.score < lead.score * SAME_PAGE_MIN_SHARE) ||
          sameWords(p.text, c.text) ||
          sameFigures(p.text, c.text) ||
          isPartOf(c.text, p.text),
      )
    )
      continue;
    picked.push(c);
  }
  return { picked, related };
}

/**
 * One table row quoted from two pages, its label read with a section's title on one ("Assets Current
 * assets Cash and cash equivalents: July 29, 2023 $1,093; ..."): the same figures under the same heads.
 */
const sameFigures = (a: string, b: string) => {
  const figures = rowFiguresText(a);
  return figures !== null && figures.includes("; ") && figures === rowFiguresText(b);
};

/** The same words and figures, written apart only by signs and spacing: a table row on two pages, "$(1,577)" on one. */
const sameWords = (a: string, b: string) =>
  a.replace(/[^\p{L}\p{N}]/gu, "").toLowerCase() === b.replace(/[^\p{L}\p{N}]/gu, "").toLowerCase();

/** Nothing found in a chat that searches only its attached documents: say where it looked and how to look further. */
function notInChatDocuments(names: readonly string[]): string {
  // no count of the others: an answer states figures only from a cited page (verify.ts)
  const list = names.length <= 3 ? names.join(", ") : `${names.slice(0, 3).join(", ")} and the others`;
  const them = names.length === 1 ? "it" : "them";
  return `I could not find this in this chat's documents (${list}). Remove ${them} from the chat to search all your files, or attach the document that covers it.`;
}

/**
 * A sentence opening on words that point back ("This exclusion is known as...", "These include...",
 * "Because of this,") says what it is about in the sentence before: a lead quotes that one with it.
 * "This publication", "This year" and the like point at the document or a time, not back.
 */
const POINTS_BACK =
  /^(?:(?:However|Also|Instead|Otherwise), )?(?:(?:This|These|Those|Such)(?! (?:publication|chapter|part|section|form|guide|report|document|year|quarter|month|week|period)\b)\b|It|They|Because of (?:this|that)|As a result(?! of)|In (?:that|this|either) case)\b/;

function withWhatItPointsTo(lead: Candidate, quote: (c: Candidate) => string): string {
  const text = quote(lead);
  const before = lead.before && quote({ ...lead, text: lead.before });
  if (!before || !POINTS_BACK.test(lead.text) || !readsWhole(before, false)) return text;
  const both = `${before} ${text}`;
  return both.length <= MAX_SENTENCE_CHARS ? both : text;
}

function clip(sentence: string, maxChars = MAX_SENTENCE_CHARS): string {
  return sentence.length <= maxChars ? sentence : `${sentence.slice(0, maxChars).replace(/\s+\S*$/, "")}…`;
}

/**
 * The answer leads with the one sentence that best states what was asked, with
 * its [n]; supporting quotes from other pages follow as a short list, then the
 * other best-ranked pages about the question as "See also", within about
 * MAX_ANSWER_WORDS words.
 */
export function localAnswer(input: ChatTurnInput): string {
  const { picked, related } = pickSentences(input.question, input);
  const [lead, ...support] = picked;
  if (!lead) {
    if (input.anonymous) {
      return "I could not find this in your documents: you have none yet. Log in and upload a PDF, then ask about it and I will answer with the page it came from.";
    }
    if (input.documentNames?.length) return notInChatDocuments(input.documentNames);
    return input.passages.length === 0
      ? "I could not find this in your documents. Upload or attach the PDF that covers it, or try other words."
      : "I could not find a passage that answers this in your documents. Try other words, or attach the document that covers it.";
  }
  // words broken at line ends made whole only in what is quoted: it reads the passage again; a
  // row's change worked out follows its figures
  const quote = (c: Candidate) => withWholeWords(c.text, withColumnHeads(input.passages[c.n - 1]!));
  const first = `${clip(withWhatItPointsTo(lead, quote))}${lead.workedOut ?? ""} [${lead.n}]`;
  // room is kept for the "See also" line ("See also:" and a [n] per source)
  let words = wordCount(first) + 2 + SEE_ALSO_RANKS;
  const more: string[] = [];
  for (const c of support) {
    const line = `- ${clip(quote(c), 300)}${c.workedOut ?? ""} [${c.n}]`;
    if (words + wordCount(line) > MAX_ANSWER_WORDS) break;
    words += wordCount(line);
    more.push(line);
  }
  // the other best-ranked pages about the question, for the reader to check: cited, not quoted,
  // each page once (a page quoted, or listed already, is not listed again); over several files, a
  // file none of them is from is listed by its best page wherever retrieval ranked it
  const quoted = [lead, ...support.slice(0, more.length)];
  const listed = new Set(quoted.map((c) => pageOf(input.passages, c.n)));
  const files = new Set(quoted.map((c) => fileOf(input.passages, c.n)));
  const seeAlso = related.filter((n) => {
    const page = pageOf(input.passages, n);
    const file = fileOf(input.passages, n);
    if (listed.has(page) || (n > SEE_ALSO_RANKS && files.has(file))) return false;
    listed.add(page);
    files.add(file);
    return true;
  });
  const also = seeAlso.length ? `\n\nSee also: ${seeAlso.map((n) => `[${n}]`).join(" ")}` : "";
  return (more.length ? `${first}\n\nAlso in your documents:\n${more.join("\n")}` : first) + also;
}
