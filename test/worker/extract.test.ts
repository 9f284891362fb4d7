// Proves the page-by-page extraction (PDFium) reads the text pdf.js reads in the
// viewer (unpdf's extractText: so spans, chunks and the viewer's highlight stay
// the same), on a generated PDF and on the IRS Form W-9 of ../shared/corpus;
// and that it pauses between groups of pages, so other work runs while a long
// PDF is read.
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { openPdfPages } from "../../worker/ingest/extract";
import { ligatureReader } from "../../worker/ingest/ligatures";
import { asPdfJsText } from "../../worker/ingest/pdfium";
import { corpus, corpusBytes } from "../helpers/corpus";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { scannedPdf, textPdf } from "../helpers/pdfs";

async function readAll(bytes: Uint8Array) {
  const pdf = await openPdfPages(bytes.slice(), 10_000);
  const read = [];
  for await (const page of pdf.pages()) read.push(page);
  await pdf.close();
  return read;
}

async function pagesOf(bytes: Uint8Array): Promise<string[]> {
  const pdf = await openPdfPages(bytes.slice(), 10_000);
  const pages: string[] = [];
  for await (const { text } of pdf.pages()) pages.push(text);
  await pdf.close();
  return pages;
}

const reference = async (bytes: Uint8Array) => (await extractText(await getDocumentProxy(bytes.slice()), { mergePages: false })).text;

describe("reading a PDF page by page", () => {
  it("gives the text unpdf's extractText gives, page for page", async () => {
    const generated = await textPdf(
      Array.from({ length: 20 }, (_, i) => `Page ${i + 1}: the retention policy keeps records for ${i + 1} years.`),
    );
    expect(await pagesOf(generated)).toEqual(await reference(generated));
  });

  it.skipIf(!corpus)("reads the words extractText reads on the real IRS Form W-9, where only line ends may differ", async () => {
    const bytes = await corpusBytes("irs/fw9.pdf");
    const words = (pages: string[]) => pages.map((page) => page.replace(/\s+/g, ""));
    const pages = await pagesOf(bytes);
    expect(pages.join("")).toContain("Request for Taxpayer");
    expect(words(pages)).toEqual(words(await reference(bytes)));
  });

  it("writes PDFium's line ends and joined hyphenations as pdf.js does, keeping an unnamed glyph's code for the ligature reader", () => {
    expect(asPdfJsText("the lump\uFFFEsum election\r\nsee chapter\uFEFF \uFEFF1 to e-\u001fle")).toBe(
      "the lump-\nsum election\nsee chapter 1 to e-\u001fle",
    );
  });

  it("makes an unnamed ligature the letters the document writes out elsewhere ('\\u001fling' -> 'filing', '\\u001eow' -> 'flow')", () => {
    const read = ligatureReader();
    // nothing written out yet shows what the code stands for: left out, as before
    expect(read("You can e-\u001fle.")).toBe("You can e-le.");
    expect(read("Filing and cash flow. Bene\u001fts of \u001fling early; cash \u001eow\u0002 \u0003")).toBe(
      "Filing and cash flow. Benefits of filing early; cash flow ",
    );
    // once shown, the code keeps its letters on later pages
    expect(read("Pro\u001ft and \u001eights")).toBe("Profit and flights");
    expect(read("No codes here.")).toBe("No codes here.");
  });

  it.skipIf(!corpus)(
    "reads the 1040 instructions' unnamed 'fi' ligature as 'fi' ('e-file', 'filing', 'benefits'), as pdf.js does",
    async () => {
      const pages = await pagesOf(await corpusBytes("irs/i1040gi.pdf"));
      expect(pages.some((page) => /[\u0001-\u0008\u000b\u000c\u000e-\u001f]/.test(page))).toBe(false);
      expect(pages.filter((page) => /\be-le\b|(^|\s)ling\b|\bbene ?ts\b/.test(page))).toEqual([]);
      // p. 48 reads "filing" where PDFium alone gave "ling"
      expect(pages[47]).toMatch(/\bfiling\b/);
    },
  );

  it("lets a timer run while a long PDF is read", async () => {
    const bytes = await textPdf(Array.from({ length: 40 }, (_, i) => `Page ${i + 1} text.`));
    const pdf = await openPdfPages(bytes, 10_000);
    let timerRan = -1;
    let read = 0;
    setTimeout(() => (timerRan = read), 0);
    for await (const _ of pdf.pages()) read++;
    await pdf.close();
    expect(read).toBe(40);
    expect(timerRan).toBeGreaterThan(0);
    expect(timerRan).toBeLessThan(40);
  });

  it("finds a scan's picture inside a form, and a scan whose only words are drawn off the page is still a scan", async () => {
    const scan = await PDFDocument.load(await scannedPdf(1));
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    // the scanned page drawn as a form XObject, as some scanners and merging tools write it
    const wrapped = pdf.addPage([612, 792]);
    wrapped.drawPage(await pdf.embedPage(scan.getPage(0)));
    // a label above the page's top edge: in the file, seen by no reader
    const labelled = pdf.addPage([612, 792]);
    labelled.drawPage(await pdf.embedPage(scan.getPage(0)));
    labelled.drawText("Background layer", { x: 20, y: 820, size: 12, font });
    const read = await readAll(await pdf.save());
    expect(read).toEqual([
      { text: "", scanned: true },
      { text: "", scanned: true },
    ]);
  });
});
