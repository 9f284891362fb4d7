// PDF text per page with pdf.js (unpdf's serverless build), and the failures a
// user must be told about in plain words. Pages come one at a time, with a
// pause between them, so a long PDF never holds the isolate: requests it also
// serves (health checks, chats) run between two pages. pdf.js detaches the
// buffer it is given, so callers pass a copy if they still need the bytes.
import { getDocumentProxy, getResolvedPDFJS } from "unpdf";
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

/** One page as read: its text layer, and for a page without text whether it is a picture (a scan to recognise). */
export interface PageRead {
  text: string;
  scanned: boolean;
}

export interface PdfPages {
  pageCount: number;
  /** each page in order (index 0 = the PDF's first page), pausing for other work every few pages */
  pages(): AsyncGenerator<PageRead>;
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

/**
 * A page without text that paints an image: a scan or a photo of text, worth
 * recognising. A blank page, or one with only drawings, is not.
 */
async function paintsImage(pdf: PdfProxy, pageNumber: number): Promise<boolean> {
  const { OPS } = await getResolvedPDFJS();
  const imageOps = new Set<number>([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageMaskXObject,
    OPS.paintImageXObjectRepeat,
  ]);
  const { fnArray } = await (await pdf.getPage(pageNumber)).getOperatorList();
  return fnArray.some((op) => imageOps.has(op));
}

async function readPage(pdf: PdfProxy, pageNumber: number): Promise<PageRead> {
  const text = await pageText(pdf, pageNumber);
  return { text, scanned: isEmptyPage(text) && (await paintsImage(pdf, pageNumber)) };
}

/**
 * Pages are read one at a time, with a pause for other work once a slice of
 * them has taken SLICE_MS. pdf.js's in-isolate ("fake") worker answers through
 * promise callbacks, so pages read together (as before: 8 at once) are one
 * uninterrupted task of 60-200 ms that a request arriving meanwhile waits for;
 * a page alone is one of 5-50 ms. A pause (a timer) leaves the isolate idle for
 * about 1 ms, so light pages share one (a pause after every page made Pub 17
 * ~0.5-1 s slower to index). Where the clock stands still while code runs
 * (deployed Workers), MAX_PAGES_PER_SLICE bounds a slice instead.
 */
const SLICE_MS = 20;
const MAX_PAGES_PER_SLICE = 3;

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
      let sliceStart = performance.now();
      let sliceLength = 0;
      for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
        let read: PageRead;
        try {
          read = await readPage(pdf, pageNumber);
        } catch (err) {
          throw readFailure(err);
        }
        yield read;
        if (++sliceLength >= MAX_PAGES_PER_SLICE || performance.now() - sliceStart >= SLICE_MS) {
          await yieldToOtherWork();
          sliceStart = performance.now();
          sliceLength = 0;
        }
      }
    },
    close,
  };
}

/** Too few pages with text to search (`empty` of `pages` have none) and no scanned page to recognise. */
export function hasTooLittleText(pages: number, empty: number): boolean {
  return pages === 0 || empty === pages || empty > pages / 2;
}

export interface ExtractedPdf {
  pageCount: number;
  pages: string[]; // pages[0] = the PDF's first page
  /** pages (1-based) that are pictures of text, for recognition */
  scannedPages: number[];
}

/** Every page's text at once (tests, the offline benchmark); fails a PDF with too little text and no scans. */
export async function extractPdfPages(bytes: Uint8Array, maxPages: number): Promise<ExtractedPdf> {
  const pdf = await openPdfPages(bytes, maxPages);
  try {
    const pages: string[] = [];
    const scannedPages: number[] = [];
    for await (const { text, scanned } of pdf.pages()) {
      pages.push(text);
      if (scanned) scannedPages.push(pages.length);
    }
    if (!scannedPages.length && hasTooLittleText(pages.length, pages.filter(isEmptyPage).length))
      throw new IndexingFailure(DOCUMENT_MESSAGES.noText);
    return { pageCount: pdf.pageCount, pages, scannedPages };
  } finally {
    await pdf.close();
  }
}
