// A scanned PDF whose text is known: each page's sentences are drawn onto a
// canvas inside the browser (so the pixels come from a real font rasteriser,
// like a scanner's), and each PNG becomes a full page with no text layer
// (pdf-lib). Also the character accuracy the text recognition is judged by.
import type { Page } from "@playwright/test";
import { PDFDocument } from "pdf-lib";

/** Two pages of plain business prose; the phrase about the lighthouse keeper is only on page 2. */
export const SCANNED_PAGES: readonly string[] = [
  "Employee Handbook. Annual leave is twenty five working days for every full time employee. " +
    "Requests for leave must be approved by the line manager at least two weeks in advance. " +
    "Unused leave may be carried into the next year up to a limit of five days.",
  "Pensions and Benefits. The lighthouse keeper pension is paid on the second Thursday of every month. " +
    "Members may retire early from the age of fifty five with a reduced pension. " +
    "Questions about contributions should be sent to the benefits office in writing.",
];

/** A US letter page at 150 dpi, the resolution of an ordinary office scan. */
const PAGE_PX = { width: 1275, height: 1650 };
const PAGE_PT = { width: 612, height: 792 };

// The few canvas calls the drawing makes, typed here rather than through the DOM
// library, so the benchmarks (Node types only) can share this file.
interface Canvas {
  width: number;
  height: number;
  getContext(kind: "2d"): {
    fillStyle: string;
    font: string;
    fillRect(x: number, y: number, w: number, h: number): void;
    fillText(text: string, x: number, y: number): void;
    measureText(text: string): { width: number };
  } | null;
  toDataURL(type: string): string;
}

/** Draws each page's text in the browser and returns PNG bytes per page. */
async function renderPages(page: Page, texts: readonly string[]): Promise<Buffer[]> {
  const pngs = await page.evaluate(
    ({ texts, size }) =>
      texts.map((text) => {
        const canvas = (globalThis as unknown as { document: { createElement(tag: "canvas"): Canvas } }).document.createElement("canvas");
        canvas.width = size.width;
        canvas.height = size.height;
        const ctx = canvas.getContext("2d")!;
        ctx.fillStyle = "#fff";
        ctx.fillRect(0, 0, size.width, size.height);
        ctx.fillStyle = "#000";
        ctx.font = "30px 'DejaVu Serif', 'Liberation Serif', serif";
        const margin = 120;
        let line = "";
        let y = 180;
        for (const word of text.split(" ")) {
          const next = line ? `${line} ${word}` : word;
          if (ctx.measureText(next).width > size.width - 2 * margin) {
            ctx.fillText(line, margin, y);
            y += 52;
            line = word;
          } else line = next;
        }
        if (line) ctx.fillText(line, margin, y);
        return canvas.toDataURL("image/png").split(",")[1]!;
      }),
    { texts: [...texts], size: PAGE_PX },
  );
  return pngs.map((b64) => Buffer.from(b64, "base64"));
}

/** A PDF of full-page images of `texts` (one page each), with no text layer at all. */
export async function makeScannedPdf(page: Page, texts: readonly string[] = SCANNED_PAGES): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (const png of await renderPages(page, texts)) {
    const image = await pdf.embedPng(png);
    pdf.addPage([PAGE_PT.width, PAGE_PT.height]).drawImage(image, { x: 0, y: 0, ...PAGE_PT });
  }
  return Buffer.from(await pdf.save());
}

const normalise = (text: string) => text.replace(/\s+/g, " ").trim();

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** 1 - edit distance / length of the known text, after whitespace normalisation (1 = every character right). */
export function characterAccuracy(recognised: string, known: string): number {
  const truth = normalise(known);
  return Math.max(0, 1 - levenshtein(normalise(recognised), truth) / truth.length);
}
