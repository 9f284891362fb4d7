// PDFium (the PDF engine of Chrome, compiled to WebAssembly) reading a PDF's
// text page by page. It reads Pub 17 about three times as fast as pdf.js in the
// same isolate, with the same words (docs/decisions.md), and each page is one
// short synchronous call, so other requests run between pages.
//
// The engine is instantiated once per isolate; its memory is its own, so every
// document and page opened is closed again, even when reading fails. Its module
// (4.6 MB of WebAssembly) is loaded with the first PDF read, not with the Worker:
// an isolate that reads none (every test file of the Worker suite) never compiles it.
import type { init } from "@embedpdf/pdfium";
import type { OutlineEntry } from "../contract/overview";
import { ligatureReader } from "./ligatures";
import { readBookmarks } from "./pdf-outline";

export type Pdfium = Awaited<ReturnType<typeof init>>;

let engine: Promise<Pdfium> | null = null;

async function startEngine(): Promise<Pdfium> {
  const [{ init }, { default: pdfiumWasm }] = await Promise.all([import("@embedpdf/pdfium"), import("@embedpdf/pdfium/pdfium.wasm")]);
  const module = await init({
    // the Worker's bundle holds the compiled module (no fetch, no eval)
    instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance) => void) {
      void WebAssembly.instantiate(pdfiumWasm, imports).then((instance) => receive(instance));
      return {};
    },
  });
  module.PDFiumExt_Init();
  return module;
}

function pdfium(): Promise<Pdfium> {
  engine ??= startEngine();
  engine.catch(() => (engine = null));
  return engine;
}

/**
 * Runs `read`; when the engine itself failed (a WebAssembly trap, or Emscripten's abort on a
 * PDF that exhausted its memory), the next document gets a new engine instead of a broken one.
 */
function guarded<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof WebAssembly.RuntimeError || String((err as Error)?.message).startsWith("Aborted")) engine = null;
    throw err;
  }
}

/** Why PDFium could not open a PDF (FPDF_ERR_*): a password, or anything else. */
export type OpenFailure = "password" | "unreadable";
export class PdfOpenError extends Error {
  constructor(readonly reason: OpenFailure) {
    super(`PDFium could not open the PDF (${reason})`);
    this.name = "PdfOpenError";
  }
}
const FPDF_ERR_PASSWORD = 4;
/** encrypted with a scheme PDFium cannot open (a certificate's): protected, as a password's is */
const FPDF_ERR_SECURITY = 5;
/**
 * A page with at most this many characters is read within its visible box only: a word drawn
 * off the page (an image-only scan labelled "Background" outside its box) is hidden from every
 * reader, so it is no text that makes the page searchable instead of recognised.
 */
const FEW_CHARS = 100;
const FPDF_PAGEOBJ_IMAGE = 3;
const FPDF_PAGEOBJ_FORM = 5;
/** Forms within forms looked into for an image; deeper nesting is no scan's. */
const MAX_FORM_DEPTH = 4;

/**
 * PDFium's text, written as pdf.js writes it (which the viewer's text layer and
 * the chunker read): line ends as "\n"; a word it joined at a line-end hyphen
 * ("lump\uFFFEsum") as "lump-\nsum"; no zero-width no-break spaces ("chapter\uFEFF \uFEFF1")
 * and no NULs. The codes of glyphs it could not name ("e-\u001fle") are left for
 * the document's ligature reader (ligatures.ts).
 */
export function asPdfJsText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/\uFFFE/g, "-\n")
    .replace(/[\uFEFF\u0000]/g, "");
}

export interface PdfiumDocument {
  pageCount: number;
  /** the text of a page (0-based), and where `asksImages(text)` whether the page paints an image */
  readPage(index: number, asksImages: (text: string) => boolean): { text: string; paintsImage: boolean };
  /** the PDF's own bookmarks, first two levels ([] when it has none) */
  outline(): OutlineEntry[];
  close(): void;
}

/** Opens a PDF from its bytes; throws PdfOpenError. */
export async function openPdfium(bytes: Uint8Array): Promise<PdfiumDocument> {
  const m = await pdfium();
  const { wasmExports, UTF16ToString } = m.pdfium;
  // the heap's views, read at each use: a memory that grew has new ones
  const heap = m.pdfium as unknown as { HEAPU8: Uint8Array; HEAPF32: Float32Array };
  const data = guarded(() => wasmExports.malloc(bytes.length));
  if (!data) throw new PdfOpenError("unreadable");
  heap.HEAPU8.set(bytes, data);
  const doc = guarded(() => m.FPDF_LoadMemDocument(data, bytes.length, ""));
  if (!doc) {
    const error = m.FPDF_GetLastError();
    wasmExports.free(data);
    throw new PdfOpenError(error === FPDF_ERR_PASSWORD || error === FPDF_ERR_SECURITY ? "password" : "unreadable");
  }
  // The characters inside the page's visible box (crop box within media box), into `buffer`.
  const textOnPage = (page: number, textPage: number, buffer: number, length: number): number => {
    const box = wasmExports.malloc(16);
    try {
      if (!m.FPDF_GetPageBoundingBox(page, box)) return 0;
      const [left, top, right, bottom] = heap.HEAPF32.subarray(box >> 2, (box >> 2) + 4);
      return m.FPDFText_GetBoundedText(textPage, left!, top!, right!, bottom!, buffer, length);
    } finally {
      wasmExports.free(box);
    }
  };
  // An image among the objects, or inside a form among them (a scan is often wrapped in one).
  const holdsImage = (count: number, object: (i: number) => number, depth = 0): boolean => {
    for (let i = 0; i < count; i++) {
      const found = object(i);
      const type = m.FPDFPageObj_GetType(found);
      if (type === FPDF_PAGEOBJ_IMAGE) return true;
      if (
        type === FPDF_PAGEOBJ_FORM &&
        depth < MAX_FORM_DEPTH &&
        holdsImage(m.FPDFFormObj_CountObjects(found), (j) => m.FPDFFormObj_GetObject(found, j), depth + 1)
      )
        return true;
    }
    return false;
  };
  const withLigatures = ligatureReader();
  let open = true;
  return {
    pageCount: m.FPDF_GetPageCount(doc),
    readPage: (index, asksImages) =>
      guarded(() => {
        const page = m.FPDF_LoadPage(doc, index);
        if (!page) throw new PdfOpenError("unreadable");
        try {
          const textPage = m.FPDFText_LoadPage(page);
          let text = "";
          if (textPage) {
            const count = m.FPDFText_CountChars(textPage);
            if (count > 0) {
              const buffer = wasmExports.malloc((count + 1) * 2);
              if (!buffer) throw new PdfOpenError("unreadable"); // out of memory
              const written =
                count <= FEW_CHARS ? textOnPage(page, textPage, buffer, count + 1) : m.FPDFText_GetText(textPage, 0, count, buffer);
              text = withLigatures(asPdfJsText(UTF16ToString(buffer, written * 2)));
              wasmExports.free(buffer);
            }
            m.FPDFText_ClosePage(textPage);
          }
          return { text, paintsImage: asksImages(text) && holdsImage(m.FPDFPage_CountObjects(page), (i) => m.FPDFPage_GetObject(page, i)) };
        } finally {
          m.FPDF_ClosePage(page);
        }
      }),
    outline: () => guarded(() => readBookmarks(m, doc)),
    close() {
      if (!open) return;
      open = false;
      m.FPDF_CloseDocument(doc);
      wasmExports.free(data);
    },
  };
}
