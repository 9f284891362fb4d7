// PDF text per page with pdf.js (unpdf's serverless build), and the failures a
// user must be told about in plain words. Pages come one at a time, with a
// pause between them, so a long PDF never holds the isolate: requests it also
// serves (health checks, chats) run between two pages. pdf.js detaches the
// buffer it is given, so callers pass a copy if they still need the bytes.
import { getDocumentProxy } from "unpdf";
import { DOCUMENT_MESSAGES } from "../contract/documents";
import { isEmptyPage } from "../library/chunker";

/** A failure that retrying cannot fix: the document is marked failed with this message. */
export class IndexingFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IndexingFailure";
  }
}

type PdfProxy = Awaited<ReturnType<typeof getDocumentProxy>>;

export interface PdfPages {
  pageCount: number;
  /** each page's text in order (index 0 = the PDF's first page), pausing for other work every few pages */
  pages(): AsyncGenerator<string>;
  close(): Promise<void>;
}

const readFailure = (err: unknown) =>
  new IndexingFailure((err as Error)?.name === "PasswordException" ? DOCUMENT_MESSAGES.passwordProtected : DOCUMENT_MESSAGES.notPdf);

/** Lets the event loop run whatever is waiting (a request, a timer) before the next page. */
const yieldToOtherWork = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * One page's text exactly as unpdf's `extractText` gives it: the text items
 * joined, a line end after each item that ends a line.
 */
async function pageText(pdf: PdfProxy, pageNumber: number): Promise<string> {
  const content = await (await pdf.getPage(pageNumber)).getTextContent();
  let text = "";
  for (const item of content.items) if ("str" in item && item.str != null) text += item.str + (item.hasEOL ? "\n" : "");
  return text;
}

/** Pages read together between two pauses: pdf.js pipelines them, and a pause comes every ~50 ms of work. */
const PAGES_PER_SLICE = 8;

export async function openPdfPages(bytes: Uint8Array, maxPages: number): Promise<PdfPages> {
  let pdf: PdfProxy;
  try {
    // verbosity 0: text extraction needs no font files, so pdf.js font warnings are noise
    pdf = await getDocumentProxy(bytes, { useSystemFonts: false, stopAtErrors: false, verbosity: 0 });
  } catch (err) {
    throw readFailure(err);
  }
  const close = () => pdf.loadingTask.destroy().catch(() => {});
  if (pdf.numPages > maxPages) {
    await close();
    throw new IndexingFailure(
      `This PDF has ${pdf.numPages} pages; your plan allows up to ${maxPages} pages per document. Upgrade your plan to index it.`,
    );
  }
  return {
    pageCount: pdf.numPages,
    async *pages() {
      for (let first = 1; first <= pdf.numPages; first += PAGES_PER_SLICE) {
        const numbers = Array.from({ length: Math.min(PAGES_PER_SLICE, pdf.numPages - first + 1) }, (_, i) => first + i);
        let texts: string[];
        try {
          texts = await Promise.all(numbers.map((n) => pageText(pdf, n)));
        } catch (err) {
          throw readFailure(err);
        }
        yield* texts;
        await yieldToOtherWork();
      }
    },
    close,
  };
}

/** Too few pages with text to search (`empty` of `pages` have none): a scanned PDF, pages that are pictures of text. */
export function looksScanned(pages: number, empty: number): boolean {
  return pages === 0 || empty === pages || empty > pages / 2;
}

export interface ExtractedPdf {
  pageCount: number;
  pages: string[]; // pages[0] = the PDF's first page
}

/** Every page's text at once (tests, the offline benchmark); fails a scanned PDF. */
export async function extractPdfPages(bytes: Uint8Array, maxPages: number): Promise<ExtractedPdf> {
  const pdf = await openPdfPages(bytes, maxPages);
  try {
    const pages: string[] = [];
    for await (const text of pdf.pages()) pages.push(text);
    if (looksScanned(pages.length, pages.filter(isEmptyPage).length)) throw new IndexingFailure(DOCUMENT_MESSAGES.scanned);
    return { pageCount: pdf.pageCount, pages };
  } finally {
    await pdf.close();
  }
}
