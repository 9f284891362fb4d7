// The keyword search of a question: which full-text searches its words, the concept it names, the
// documents it names by name and the table rows it names by their labels call for, and how their
// rankings are fused. The Library answers the searches themselves (KeywordIndex: library/full-text.ts)
// over its own chunks; what they are is the question's to decide.
import { askedFactKind, rowAnswers } from "../question/fact-kind";
import { conceptMatchExpression, questionMatchPhrases } from "../question/terms";
import { documentNames, namedDocuments } from "../question/named-files";
import { fuseByRank } from "./rank-fusion";
import { rowBoundWords, statedAmounts } from "../passages/tax-table";
import { rowLabelScore, rowQuestion } from "./row-labels";
import type { ChunkHit } from "../../library/types";

/** The full-text searches a keyword search runs, over the complete documents or over `documentIds`. */
export interface KeywordIndex {
  /** The chunks whose whole text matches an FTS5 MATCH expression, best (BM25) first. */
  matching(match: string, documentIds: readonly string[] | null, limit: number): ChunkHit[];
  /** The chunks whose table rows' labels match it, best first, with those labels. */
  labelsMatching(match: string, documentIds: readonly string[] | null, limit: number): (ChunkHit & { row_labels: string })[];
  /** The documents a search over `documentIds` (or the whole Library) reads, with their file names. */
  searchableDocuments(documentIds: readonly string[] | null): { id: string; file_name: string }[];
  /** The year each document is about (the year its first pages write most), null when none. */
  documentYears(documents: readonly { id: string }[]): Map<string, number | null>;
  /** The phrases worth matching: those held by too many chunks to weigh anything are left out while others remain. */
  weighty(phrases: readonly string[]): string[];
}

/**
 * How much the search for the concept a question names counts beside the search for the whole
 * question (rank fusion). bench:offline: 0.3 put an evidence page first for 4 more FinanceBench
 * questions (8 -> 12/23) and changed no IRS figure; 0.5-1 lowered FinanceBench hit@5 or dev.
 */
const CONCEPT_WEIGHT = 0.3;

/**
 * How much the same search within the documents the question names (named-documents.ts) counts
 * beside it. bench:offline with SCOPE=all (every question over all 14 files): dev hit@5 69 -> 75/89,
 * FinanceBench 15 -> 20/23, held-out 33 -> 34/44; weight 1 gave less on every set.
 */
const NAMED_WEIGHT = 2;

/**
 * How much the search of table rows' labels (rowsNamed) counts beside the search of the whole
 * text (rank fusion). bench:offline, our filings questions (dev): hit@5 10 -> 14/14, fact in answer
 * 7 -> 13/14 with the row weight of the answer (row-labels.ts); IRS unchanged; weights below 1 cost
 * FinanceBench hit@1 (12 -> 9-11), 2 and up none.
 */
const ROW_LABEL_WEIGHT = 2;

/**
 * How much the search within the documents about the year a question names counts beside the search
 * of all of them. bench:offline SCOPE=all: IRS held-out hit@5 34 -> 36/44, dev 76 -> 77/89, filings
 * held-out 10 -> 9/12; weight 2 cost FinanceBench hit@5 (20 -> 19) and dev.
 */
const YEAR_WEIGHT = 1;

/**
 * How much the search for the tax table's row holding an amount the question states counts beside
 * the search of the whole question: the row's words are its figures, no words of the question.
 */
const TAX_ROW_WEIGHT = 1;

/** The tax table's rows holding the amounts a question about tax states ("taxable income of $35,220": "35,200"), as a MATCH expression; null for none. */
function taxRowExpression(question: string): string | null {
  const amounts = /\btax\b/i.test(question) ? statedAmounts(question) : [];
  return amounts.length ? amounts.map((a) => `"${rowBoundWords(a)}"`).join(" OR ") : null;
}

/** The years a question names ("2017", "FY2018", "fiscal 2023"). */
const questionYears = (question: string) => [...new Set((question.match(/(?<![\p{N}.,$])(?:19|20)\d\d(?![\p{N}%])/gu) ?? []).map(Number))];

/** The documents about one of `years`; none when none is, or all are (the year tells them apart no better). */
function documentsOfYears(index: KeywordIndex, documents: readonly { id: string }[], years: readonly number[]): string[] {
  if (years.length === 0 || documents.length < 2) return [];
  const about = index.documentYears(documents);
  const dated = documents.filter((d) => years.includes(about.get(d.id) ?? NaN)).map((d) => d.id);
  return dated.length < documents.length ? dated : [];
}

/** A question naming no document has its rows looked for in the documents of this many of its best hits. */
const LABEL_DOCUMENT_HITS = 10;

/** Label matches read per chunk the search returns, to find those naming a row wholly among them. */
const LABEL_CANDIDATES = 3;

/**
 * Each page's first place goes to its chunk holding the row the question names best (`rowScores`,
 * rowsNamed), when another of its chunks ranks first: a page is answered from one
 * chunk, and the one discussing "revenue" in prose would stand for the statement above it.
 */
function namedRowsFirst(hits: ChunkHit[], rowScores: ReadonlyMap<string, number>): ChunkHit[] {
  const byPage = new Map<string, ChunkHit[]>();
  for (const hit of hits) {
    const page = `${hit.document_id}:${hit.page}`;
    byPage.set(page, [...(byPage.get(page) ?? []), hit]);
  }
  const order = [...hits];
  for (const chunks of byPage.values()) {
    const best = chunks.reduce((a, b) => ((rowScores.get(b.id) ?? 0) > (rowScores.get(a.id) ?? 0) ? b : a));
    if (best === chunks[0]) continue;
    const [first, at] = [order.indexOf(chunks[0]!), order.indexOf(best)];
    [order[first], order[at]] = [best, chunks[0]!];
  }
  return order;
}

/**
 * The keyword search over the complete documents, or over `documentIds` (complete, or the pages
 * done so far), best first: the question's terms and the other phrasings of what it names, fused
 * with a search for that concept alone (CONCEPT_WEIGHT).
 */
export function keywordSearch(index: KeywordIndex, question: string, documentIds: readonly string[] | null, limit: number): ChunkHit[] {
  const phrases = questionMatchPhrases(question);
  if (phrases.length === 0) return [];
  const weighty = index.weighty(phrases);
  let hits = index.matching(weighty.join(" OR "), documentIds, limit);
  // fewer than asked: the chunks holding only common phrases follow, as the whole question ranks them
  if (weighty.length < phrases.length && hits.length < limit) hits = index.matching(phrases.join(" OR "), documentIds, limit);
  // the concept the question names (glossary.ts), searched alone in all its phrasings: among a
  // long question's many terms ("FY2018", "amount", "USD", "millions"...) the chunk naming it
  // ("Purchases of property, plant and equipment") can rank low
  const concept = conceptMatchExpression(question);
  if (concept) hits = fuseByRank([hits, index.matching(concept, documentIds, limit)], undefined, [1, CONCEPT_WEIGHT]).slice(0, limit);
  // the documents the question names by name ("my W-9", "3M's"), searched alone: in a chat over
  // many files, the others that mention the same form or company would outrank them
  // (the files' names are read only for a question that names something: most name nothing)
  const names = documentNames(question);
  const years = questionYears(question);
  const documents = names.length || years.length ? index.searchableDocuments(documentIds) : [];
  const named = namedDocuments(names, documents);
  // a question naming a year, and none of the documents, looks first in those about that year
  // ("my 2017 return" in the 2017 instructions, not in the 2024 publication that states the same rule)
  const dated = named.length ? [] : documentsOfYears(index, documents, years);
  // the table rows the question names by their labels: a statement's "Revenue" or "Total assets"
  // row, on a page of figures that names it once, ranks low by its whole text. Only in the
  // documents the question names, else in those its best hits are from: every filing has a
  // "Revenue" row, and a tax question's "taxable income" is no row of a 10-K's
  const rowsIn = named.length
    ? documents.filter((d) => named.includes(d.id))
    : [...new Map(hits.slice(0, LABEL_DOCUMENT_HITS).map((h) => [h.document_id, { id: h.document_id, file_name: h.file_name }])).values()];
  const labelled = rowsIn.length && rowAnswers(askedFactKind(question)) ? rowsNamed(index, question, rowsIn, limit) : [];
  // one fusion of the three, the rows weighing against the whole text of the documents they are
  // in as in a chat about one file: the named documents' whole text counts in both text searches
  const lists: { hits: ChunkHit[]; weight: number }[] = [{ hits, weight: 1 }];
  const wholeText = 1 + (named.length ? NAMED_WEIGHT : 0);
  if (labelled.length) lists.push({ hits: labelled.map((l) => l.hit), weight: ROW_LABEL_WEIGHT * wholeText });
  if (named.length) lists.push({ hits: index.matching(weighty.join(" OR "), named, limit), weight: NAMED_WEIGHT });
  if (dated.length) lists.push({ hits: index.matching(weighty.join(" OR "), dated, limit), weight: YEAR_WEIGHT });
  const taxRows = taxRowExpression(question);
  if (taxRows) lists.push({ hits: index.matching(taxRows, dated.length ? dated : documentIds, limit), weight: TAX_ROW_WEIGHT });
  if (lists.length > 1)
    hits = fuseByRank(
      lists.map((l) => l.hits),
      undefined,
      lists.map((l) => l.weight),
    ).slice(0, limit);
  return labelled.length ? namedRowsFirst(hits, new Map(labelled.map((l) => [l.hit.id, l.score]))) : hits;
}

/**
 * The chunks with a table row the question names (row-labels.ts), the most wholly named first:
 * among those whose labels hold any of the question's row words.
 */
function rowsNamed(
  index: KeywordIndex,
  question: string,
  documents: readonly { id: string; file_name: string }[],
  limit: number,
): { hit: ChunkHit; score: number }[] {
  const asked = rowQuestion(
    question,
    documents.map((d) => d.file_name),
  );
  const words = [...new Set([...asked.stems, ...asked.concepts.flat(2)])];
  if (words.length === 0) return [];
  const match = words.map((stemmed) => `"${stemmed}"*`).join(" OR ");
  return index
    .labelsMatching(
      match,
      documents.map((d) => d.id),
      limit * LABEL_CANDIDATES,
    )
    .map(({ row_labels, ...hit }) => ({ hit, score: rowLabelScore(row_labels, asked) }))
    .filter((h) => h.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}
