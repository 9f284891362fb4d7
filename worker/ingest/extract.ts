// PDF text per page with PDFium (./pdfium.ts), and the failures a user must be
// told about in plain words. Pages come one at a time, with a pause between
// slices of them, so a long PDF never holds the isolate: requests it also
// serves (health checks, chats) run between two slices.
import { DOCUMENT_MESSAGES } from "../contract/documents";
import type { OutlineEntry } from "../contract/overview";
import { isEmptyPage } from "../library/chunker";
import { yieldToOtherWork } from "../lib/yield";
import { openPdfium, PdfOpenError, type PdfiumDocument } from "./pdfium";

/** A failure that retrying cannot fix: the document is marked failed with this message. */
export class IndexingFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IndexingFailure";
  }
}

/** One page as read: its text layer, and for a page without text whether it is a picture (a scan to recognise). */
export interface PageRead {
  text: string;
  scanned: boolean;
}

export interface PdfPages {
  pageCount: number;
  /** each page in order (index 0 = the PDF's first page), pausing for other work every few pages */
  pages(): AsyncGenerator<PageRead>;
  /** the PDF's own bookmarks, first two levels; [] when it has none or they cannot be read */
  outline(): OutlineEntry[];
  close(): Promise<void>;
}

const readFailure = (err: unknown) =>
  new IndexingFailure(
    err instanceof PdfOpenError && err.reason === "password" ? DOCUMENT_MESSAGES.passwordProtected : DOCUMENT_MESSAGES.notPdf,
  );

/**
 * Pages are read one at a time (a page is one synchronous PDFium call of
 * 1-25 ms), with a pause for other work once a slice of them has taken
 * SLICE_MS. A pause (a timer) leaves the isolate idle for about 1 ms, so light
 * pages share one. Where the clock stands still while code runs (deployed
 * Workers), MAX_PAGES_PER_SLICE bounds a slice instead. 10 ms: with the Library's
 * steps in two turns, health p99 while Pub 17 is indexed 80-114 ms at 20 ms, 72-83 ms
 * at 10 ms, with the same indexing time (docs/decisions.md).
 */
const SLICE_MS = 10;
const MAX_PAGES_PER_SLICE = 8;

export async function openPdfPages(bytes: Uint8Array, maxPages: number): Promise<PdfPages> {
  let pdf: PdfiumDocument;
  try {
    pdf = await openPdfium(bytes);
  } catch (err) {
    throw readFailure(err);
  }
  const close = async () => pdf.close();
  if (pdf.pageCount > maxPages) {
    await close();
    throw new IndexingFailure(
      `This PDF has ${pdf.pageCount} pages; your plan allows up to ${maxPages} pages per document. Upgrade your plan to index it.`,
    );
  }
  return {
    pageCount: pdf.pageCount,
    async *pages() {
      let sliceStart = performance.now();
      let sliceLength = 0;
      for (let index = 0; index < pdf.pageCount; index++) {
        let read: PageRead;
        try {
          // a page with (almost) no text is a scan to recognise where it paints an image
          const { text, paintsImage } = pdf.readPage(index, isEmptyPage);
          read = { text, scanned: paintsImage };
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
    outline: () => {
      try {
        return pdf.outline();
      } catch (err) {
        console.warn("could not read the PDF's bookmarks", err);
        return [];
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
