// An answer's citations as a reader follows them: the writer (local or a model) cites passages by
// their place in the list it was given ([n] = passages[n - 1]); the reader sees sources numbered
// [1], [2], ... in the order the answer first uses them, with no gaps, and one source per file and
// page: passages of one page cited apart share its number, and the viewer marks each of them.
import type { Source, SourceSpan } from "../contract/protocol";
import type { Passage } from "../providers/llm/types";
import { withColumnHeads } from "./passages/column-heads";

/** How much of a passage a source keeps to find it again on the page. */
const QUOTE_CHARS = 80;

const CITATION = /\[(\d{1,2})\]/g;
/** The end of a streamed piece that may be the start of a citation the next piece completes ("[", "[1"). */
const OPEN_CITATION = /\[\d{0,2}$/;

const pageOf = (p: Passage) => `${p.documentId}:${p.page}`;
const spanOf = (p: Passage): SourceSpan => ({ charStart: p.charStart, charEnd: p.charEnd, quote: p.text.slice(0, QUOTE_CHARS) });

/**
 * Renumbers an answer's citations as it streams: `renumber` each piece as it comes, `flush` at the
 * end (a piece may end inside a citation), then `sources()`. A number naming no passage is left as
 * the writer wrote it and cites nothing.
 */
export class Citations {
  /** source number by page, in order of first use */
  private readonly byPage = new Map<string, number>();
  /** the passages each source cites, by source number - 1 */
  private readonly cited: Passage[][] = [];
  private held = "";

  constructor(private readonly passages: readonly Passage[]) {}

  /** The source number the reader sees for passage [n], given on its first use. */
  private numberOf(n: number): number | null {
    const passage = this.passages[n - 1];
    if (!passage) return null;
    const page = pageOf(passage);
    let number = this.byPage.get(page);
    if (number === undefined) {
      number = this.byPage.size + 1;
      this.byPage.set(page, number);
      this.cited.push([]);
    }
    const same = this.cited[number - 1]!;
    if (!same.includes(passage)) same.push(passage);
    return number;
  }

  /** A streamed piece with its citations renumbered; the end of a citation cut by the stream is held for the next piece. */
  renumber(piece: string): string {
    const text = this.held + piece;
    const open = OPEN_CITATION.exec(text);
    this.held = open ? open[0] : "";
    const ready = open ? text.slice(0, open.index) : text;
    return ready.replace(CITATION, (whole, n: string) => {
      const number = this.numberOf(Number(n));
      return number === null ? whole : `[${number}]`;
    });
  }

  /** What is still held at the end of the stream. */
  flush(): string {
    const rest = this.held;
    this.held = "";
    return rest;
  }

  /** The sources cited so far, by number: each page's first passage, the others of the page in `more`. */
  sources(): Source[] {
    return this.cited.map(([first, ...others], i) => ({
      n: i + 1,
      fileId: first!.documentId,
      fileName: first!.fileName,
      page: first!.page,
      ...spanOf(first!),
      ...(first!.recognised ? { recognised: true } : {}),
      ...(others.length ? { more: others.map(spanOf) } : {}),
    }));
  }

  /** What each source number cites, as its passages read (with the column heads they inherit): what verify.ts checks against. */
  citedTexts(): Map<number, string[]> {
    return new Map(this.cited.map((passages, i) => [i + 1, passages.map(withColumnHeads)]));
  }

  /** The passages cited, in source order (each page's first). */
  citedPassages(): Passage[] {
    return this.cited.map(([first]) => first!);
  }
}

/** A whole answer with its citations renumbered, its sources, and what each source number cites. */
export function citeAnswer(
  answer: string,
  passages: readonly Passage[],
): { text: string; sources: Source[]; cited: Map<number, string[]> } {
  const citations = new Citations(passages);
  const text = citations.renumber(answer) + citations.flush();
  return { text, sources: citations.sources(), cited: citations.citedTexts() };
}
