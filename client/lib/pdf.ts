// pdf.js for the document viewer, loaded only when a viewer opens: the library
// and its worker are separate chunks, never part of the first visit. Opened
// documents are kept while the viewer stays open, so stepping between
// citations of one file does not download it again.
import type { PDFDocumentProxy } from "pdfjs-dist";

type PdfJs = typeof import("pdfjs-dist");

let pdfjs: Promise<PdfJs> | null = null;

export function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= Promise.all([import("pdfjs-dist"), import("pdfjs-dist/build/pdf.worker.min.mjs?url")]).then(([lib, worker]) => {
    lib.GlobalWorkerOptions.workerSrc = worker.default;
    return lib;
  });
  // a failed load (offline, a new deploy) may be retried by the next opening
  pdfjs.catch(() => (pdfjs = null));
  return pdfjs;
}

const open = new Map<string, Promise<PDFDocumentProxy>>();

/** The document behind a signed link, keyed by the file (links change, files do not). */
export function openPdf(fileId: string, url: string): Promise<PDFDocumentProxy> {
  let doc = open.get(fileId);
  if (!doc) {
    doc = loadPdfJs().then((lib) => lib.getDocument({ url }).promise);
    doc.catch(() => open.delete(fileId));
    open.set(fileId, doc);
  }
  return doc;
}

/** Frees every opened document (the viewer closed). */
export function closePdfs(): void {
  for (const doc of open.values()) void doc.then((d) => d.loadingTask.destroy()).catch(() => {});
  open.clear();
}
