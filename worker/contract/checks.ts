// An answer's check against the pages it cites (#43), as the wire carries it and as a person reads
// it: the quiet line under an answer, the reason beside a marked sentence, and the same in words for
// Copy and the memo. worker/answer/verify.ts writes the checks; the chat, Copy and the memo read them.

/** What the wording needs of an answer's source (protocol.ts Source): its number, file and page. */
export interface CitedSource {
  n: number;
  fileName: string;
  page: number;
}

/** One sentence of an answer and whether its cited pages hold what it states. */
export interface SentenceCheck {
  /** the sentence as the answer writes it, its [n] marks included */
  sentence: string;
  status: "supported" | "unsupported";
  /** the figures, quoted phrases ("…"), citations ([n]) or words not found on the cited pages */
  missing: string[];
}

export interface Verified {
  sentences: number;
  unsupported: number;
}

/** The line under an answer whose every sentence was found on its cited pages. */
export const ALL_CHECKED = "Figures checked against the cited pages";

const CITATION = /\[(\d{1,2})\]/g;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const isCitation = (item: string) => /^\[\d{1,2}\]$/.test(item);
const isQuote = (item: string) => item.startsWith('"');
const isFigure = (item: string) => !isCitation(item) && !isQuote(item) && /\d/.test(item);
/** a figure put in the place of the page sentence's own: "2017 (in place of 2018)" */
const REPLACED = /^(.+) \(in place of (.+)\)$/;
/** a negation the sentence adds to the page sentence it restates */
const NEGATIONS = new Set(["not", "never", "none", "nothing", "neither", "nor", "cannot", "without", "no", "n't"]);

/** The line under a checked answer: all found, or what was not ("1 figure not found on the cited pages"); null when it cites nothing and states nothing unsupported. */
export function checkSummary(checks: readonly SentenceCheck[], sources: readonly CitedSource[] = []): string | null {
  const unsupported = checks.filter((c) => c.status === "unsupported");
  if (!unsupported.length) return sources.length ? ALL_CHECKED : null;
  const figures = unsupported.reduce((n, c) => n + c.missing.filter(isFigure).length, 0);
  const statements = unsupported.filter((c) => !c.missing.some(isFigure)).length;
  const parts = [figures ? plural(figures, "figure") : "", statements ? plural(statements, "statement") : ""].filter(Boolean);
  return `${parts.join(" and ")} not found on the cited pages`;
}

/** "p. 3 of p17.pdf" for each source a sentence cites. */
function citedPages(sentence: string, sources: readonly CitedSource[]): string[] {
  const numbers = new Set([...sentence.matchAll(CITATION)].map((m) => Number(m[1])));
  return sources.filter((s) => numbers.has(s.n)).map((s) => `p. ${s.page} of ${s.fileName}`);
}

const listed = (items: readonly string[]) => (items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);
const either = (pages: readonly string[]) => pages.join(" or ");

/** Why a sentence is marked, as a person reads it: "$99,999 is not on p. 3 of p17.pdf". */
export function checkReason(check: SentenceCheck, sources: readonly CitedSource[] = []): string {
  const pages = citedPages(check.sentence, sources);
  const reasons: string[] = [];
  const citations = check.missing.filter(isCitation);
  if (citations.length) reasons.push(`${listed(citations)} ${citations.length === 1 ? "is" : "are"} not a source of this answer`);
  const page = pages.length ? either(pages) : "the cited page";
  const stated = check.missing.filter((m) => (isFigure(m) && !REPLACED.test(m)) || isQuote(m));
  if (stated.length)
    reasons.push(
      pages.length
        ? `${listed(stated)} ${stated.length === 1 ? "is" : "are"} not on ${page}`
        : `${listed(stated)} ${stated.length === 1 ? "is" : "are"} stated without a cited page`,
    );
  for (const m of check.missing) {
    const [, figure, own] = REPLACED.exec(m) ?? [];
    if (figure) reasons.push(`${page} says ${own}, not ${figure}`);
  }
  const words = check.missing.filter((m) => !isCitation(m) && !isFigure(m) && !isQuote(m));
  const negations = words.filter((w) => NEGATIONS.has(w));
  if (negations.length) reasons.push(`it adds "${negations.join('", "')}", which ${page} does not say`);
  const others = words.filter((w) => !NEGATIONS.has(w));
  if (others.length) reasons.push(`its wording (${others.join(", ")}) is not on ${page}`);
  const reason = reasons.join("; ") || "not found on the cited pages";
  return reason[0]!.toUpperCase() + reason.slice(1);
}

/** A marked sentence in words, for Copy and the memo: `Not found on the cited pages: "…" ($99,999 is not on p. 3 of p17.pdf).` */
export function uncheckedNote(check: SentenceCheck, sources: readonly CitedSource[] = []): string {
  const sentence = check.sentence
    .replace(CITATION, "")
    .replace(/\s+([.,;:!?])/g, "$1")
    .trim();
  return `Not found on the cited pages: "${sentence}" (${checkReason(check, sources)}).`;
}
