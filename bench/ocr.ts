// Text recognition of scanned PDFs (issue 17), through the product's own path
// in Chromium against a running product: sign up, upload a generated scan whose
// text is known on My Files, let the browser recognise it, and read the pages'
// text from the requests that send it to the server. Reports character
// accuracy, pages per second and the sizes of what recognition downloads.
import { chromium, type Request } from "@playwright/test";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { OCR_ASSET_SOURCES } from "../client/lib/ocr/assets";
import type { OcrPagesRequest } from "../worker/contract/documents";
import { characterAccuracy, makeScannedPdf, SCANNED_PAGES } from "../test/e2e/scanned-pdf";
import { fmt } from "./format";
import { startProduct } from "./product";

export interface OcrAssetSize {
  name: string;
  kb: number;
  gzipKb: number;
}

export interface OcrFigures {
  pages: number;
  /** 1 - Levenshtein / length over all pages, whitespace normalised */
  accuracy: number;
  /** pages / seconds from the recognition's start (engine and model loading included) to the last page sent */
  pagesPerSecond: number;
  /** pages per second once the engine is loaded (between the first and the last page sent) */
  steadyPagesPerSecond: number;
  /** seconds from the start to the first page's text (loading pdf.js, tesseract.js, its core and the model) */
  firstPageSeconds: number;
  /** /ocr/* files (worker script, WASM core, English model) */
  assets: OcrAssetSize[];
  /** the lazily loaded JavaScript chunks recognition needs, when a production build is in dist/client */
  chunks: OcrAssetSize[];
}

const ROOT = join(import.meta.dirname, "..");
const PASSWORD = "Secret123";

function sizeOf(name: string, bytes: Buffer): OcrAssetSize {
  return { name, kb: bytes.length / 1024, gzipKb: gzipSync(bytes).length / 1024 };
}

/** What /ocr/ serves, measured from the packages it comes from. */
export function ocrAssetSizes(): OcrAssetSize[] {
  const resolve = createRequire(join(ROOT, "package.json")).resolve;
  return Object.entries(OCR_ASSET_SOURCES).map(([name, source]) => sizeOf(name, readFileSync(resolve(source))));
}

/** The recognition chunk and pdf.js (library and worker) of the last production build, if any. */
export function ocrChunkSizes(): OcrAssetSize[] {
  const dir = join(ROOT, "dist/client/assets");
  try {
    statSync(dir);
  } catch {
    return [];
  }
  return readdirSync(dir)
    .filter((f) => /^(engine|ocr|pdf|pdf\.worker\.min)-[\w-]+\.m?js$/.test(f))
    .map((f) => sizeOf(f, readFileSync(join(dir, f))));
}

/** `pages` pages of known text (the e2e's two, then the same again with the page number, so no two are alike). */
function pageTexts(pages: number): string[] {
  return Array.from({ length: pages }, (_, i) => {
    const text = SCANNED_PAGES[i % SCANNED_PAGES.length]!;
    return i < SCANNED_PAGES.length ? text : `Page ${i + 1}. ${text}`;
  });
}

export async function benchOcr(baseUrl: string, { pages = 6 }: { pages?: number } = {}): Promise<OcrFigures> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-dev-shm-usage"],
  });
  try {
    const page = await browser.newPage();
    const email = `bench-ocr-${Date.now()}@example.com`;
    await page.goto(new URL("/app/auth/register", baseUrl).href);
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("button", { name: `Account menu for ${email}` }).waitFor();
    await page.goto(new URL("/app/files", baseUrl).href);

    const texts = pageTexts(pages);
    const pdf = await makeScannedPdf(page, texts);
    const sent = new Map<number, string>();
    const sentAt: number[] = [];
    let startedAt = 0;
    page.on("request", (request: Request) => {
      // the browser asks which pages wait just before it starts reading them
      if (!startedAt && request.url().includes("/api/documents/indexingStatus")) startedAt = Date.now();
      if (request.method() === "POST" && request.url().endsWith("/ocr-pages")) {
        for (const p of (request.postDataJSON() as OcrPagesRequest).pages) sent.set(p.page, p.text);
        sentAt.push(Date.now());
      }
    });

    const name = `bench-scan-${Date.now()}.pdf`;
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Upload file" }).click();
    await (await chooser).setFiles({ name, mimeType: "application/pdf", buffer: pdf });
    await page
      .getByRole("row")
      .filter({ hasText: name })
      .getByText("Indexed")
      .waitFor({ timeout: 60_000 + pages * 30_000 });

    const recognised = texts.map((_, i) => sent.get(i + 1) ?? "").join(" ");
    const last = sentAt.at(-1) ?? Date.now();
    const first = sentAt[0] ?? last;
    return {
      pages,
      accuracy: characterAccuracy(recognised, texts.join(" ")),
      pagesPerSecond: pages / ((last - startedAt) / 1000),
      steadyPagesPerSecond: pages > 1 && last > first ? (pages - 1) / ((last - first) / 1000) : NaN,
      firstPageSeconds: (first - startedAt) / 1000,
      assets: ocrAssetSizes(),
      chunks: ocrChunkSizes(),
    };
  } finally {
    await browser.close();
  }
}

/** Text recognition in Chromium on a product started for it (issue 17); why not, when it cannot be measured. */
export async function measureOcr(): Promise<OcrFigures | string> {
  const app = await startProduct();
  try {
    return await benchOcr(app.base);
  } catch (err) {
    return `Not measured: ${(err as Error).message.split("\n")[0]}`;
  } finally {
    await app.stop();
  }
}

export function ocrSection(ocr: OcrFigures | string): string[] {
  const head = [
    "## Text recognition of scanned PDFs (in the browser)",
    "",
    "A generated scan of known English text (pages rendered at 2x, no text layer) uploaded on My Files in Debian's",
    "Chromium; the browser renders each page with pdf.js and recognises it with tesseract.js (English), and the",
    "text it sends to the server is compared with the known text. Character accuracy: 1 - edit distance / length.",
    "",
  ];
  if (typeof ocr === "string") return [...head, ocr];
  const size = (a: { name: string; kb: number; gzipKb: number }) => `| ${a.name} | ${fmt(a.kb)} kB | ${fmt(a.gzipKb)} kB |`;
  return [
    ...head,
    "| pages | character accuracy | pages/s (loading included) | pages/s (engine loaded) | first page after |",
    "|---|---|---|---|---|",
    `| ${ocr.pages} | ${fmt(ocr.accuracy * 100, 1)}% | ${fmt(ocr.pagesPerSecond, 2)} | ${fmt(ocr.steadyPagesPerSecond, 2)} | ${fmt(ocr.firstPageSeconds, 1)} s |`,
    "",
    "What recognition downloads, only when it starts (never on the first visit):",
    "",
    "| file | size | gzip |",
    "|---|---|---|",
    ...ocr.assets.map(size),
    ...ocr.chunks.map(size),
  ];
}

// `npx tsx bench/ocr.ts [base URL]`: the figures alone, against a running product.
if (process.argv[1] && import.meta.filename === process.argv[1]) {
  console.log(await benchOcr(process.argv[2] ?? "http://127.0.0.1:5173"));
}
