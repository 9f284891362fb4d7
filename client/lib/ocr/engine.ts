// Text recognition of a scanned PDF's pages, in the browser that owns the
// document (a Worker on the edge has no canvas): pdf.js draws each page at 2x
// onto a canvas and tesseract.js (English) reads it in its own Web Worker.
// This module and everything it pulls in (pdf.js, tesseract.js, the WASM core,
// the model) load only when a recognition starts, never on a first visit.
import { createWorker, OEM } from "tesseract.js";
import type { PDFDocumentProxy } from "pdfjs-dist";
import { loadPdfJs } from "../pdf";
import { OCR_PATHS } from "./assets";

/** pdf.js's CSS-pixel size times two: about 150 dpi for a letter page, where tesseract reads best. */
export const RENDER_SCALE = 2;

/** Reads the text of one PDF's pages, one at a time. */
export interface PageReader {
  /** The recognised text of a page (1-based); "" when the page holds no text. */
  read(page: number): Promise<string>;
  /** Frees the document and ends the recognition worker (also stops a page being read). */
  close(): Promise<void>;
}

/** Opens the PDF behind a (short-lived) link and starts the recognition worker beside it. */
export async function openPageReader(pdfUrl: string): Promise<PageReader> {
  const recogniser = createWorker("eng", OEM.LSTM_ONLY, {
    ...OCR_PATHS,
    // our policy allows workers from our own origin only, not blob: ones
    workerBlobURL: false,
  });
  let pdf: PDFDocumentProxy;
  try {
    const pdfjs = await loadPdfJs();
    pdf = await pdfjs.getDocument({ url: pdfUrl }).promise;
  } catch (err) {
    void recogniser.then((w) => w.terminate()).catch(() => {});
    throw err;
  }
  const worker = await recogniser.catch(async (err: unknown) => {
    await pdf.loadingTask.destroy();
    throw err;
  });

  return {
    async read(pageNumber) {
      const page = await pdf.getPage(pageNumber);
      const viewport = page.getViewport({ scale: RENDER_SCALE });
      const canvas = document.createElement("canvas");
      canvas.width = Math.ceil(viewport.width);
      canvas.height = Math.ceil(viewport.height);
      try {
        await page.render({ canvas, viewport }).promise;
        const { data } = await worker.recognize(canvas);
        return data.text;
      } finally {
        page.cleanup();
        // a 2x page is several megabytes of pixels: give them back at once
        canvas.width = canvas.height = 0;
      }
    },
    async close() {
      await Promise.allSettled([worker.terminate(), pdf.loadingTask.destroy()]);
    },
  };
}
