// PDF text per page with unpdf (pdf.js), and the failures a user must be told
// about in plain words. pdf.js detaches the buffer it is given, so callers pass a
// copy if they still need the bytes.
import { extractText, getDocumentProxy } from "unpdf";
import { DOCUMENT_MESSAGES } from "../contract/documents";
import { isEmptyPage } from "../library/chunker";

/** A failure that retrying cannot fix: the document is marked failed with this message. */
export class IndexingFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IndexingFailure";
  }
}

export interface ExtractedPdf {
  pageCount: number;
  pages: string[]; // pages[0] = the PDF's first page
}

export async function extractPdfPages(bytes: Uint8Array, maxPages: number): Promise<ExtractedPdf> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // verbosity 0: text extraction needs no font files, so pdf.js font warnings are noise
    pdf = await getDocumentProxy(bytes, { useSystemFonts: false, stopAtErrors: false, verbosity: 0 });
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === "PasswordException") throw new IndexingFailure(DOCUMENT_MESSAGES.passwordProtected);
    throw new IndexingFailure(DOCUMENT_MESSAGES.notPdf);
  }
  try {
    if (pdf.numPages > maxPages) {
      throw new IndexingFailure(
        `This PDF has ${pdf.numPages} pages; your plan allows up to ${maxPages} pages per document. Upgrade your plan to index it.`,
      );
    }
    let pages: string[];
    try {
      ({ text: pages } = await extractText(pdf, { mergePages: false }));
    } catch (err) {
      if ((err as Error)?.name === "PasswordException") throw new IndexingFailure(DOCUMENT_MESSAGES.passwordProtected);
      throw new IndexingFailure(DOCUMENT_MESSAGES.notPdf);
    }
    const empty = pages.filter(isEmptyPage).length;
    if (pages.length === 0 || empty === pages.length || empty > pages.length / 2) throw new IndexingFailure(DOCUMENT_MESSAGES.scanned);
    return { pageCount: pdf.numPages, pages };
  } finally {
    await pdf.loadingTask.destroy().catch(() => {});
  }
}
