// Proves that real-world PDFs (../shared/corpus: IRS publications, SEC filings,
// and malformed, encrypted and scanned files from pdf.js and py-pdf) each end
// `indexed`, `failed` with a reason a user understands, or (scans) waiting for
// text recognition with the pages to recognise listed: no crash, no hang.
// Skipped when the corpus is not beside the project.
import { describe, expect, it } from "vitest";
import { corpus, corpusBytes } from "../helpers/corpus";
import { DOCUMENT_MESSAGES as M } from "../../worker/contract/documents";
import { newUser } from "../helpers/api";
import { uploadAndIndex, waitUntilDone } from "../helpers/documents";

const REASONS: string[] = [M.notPdf, M.passwordProtected, M.noText];

// Files whose outcome we know and pin (from corpus/MANIFEST.md).
const EXPECTED: Record<string, { status: "indexed" | "failed" | "needs_ocr"; error?: string; pages?: number; ocrPages?: number[] }> = {
  "irs/p17.pdf": { status: "indexed", pages: 417, ocrPages: [1] }, // its cover is a picture
  "irs/fw9.pdf": { status: "indexed", pages: 6, ocrPages: [] },
  "irs/f1040.pdf": { status: "indexed", pages: 2 },
  "sec_financebench/3M_2018_10K.pdf": { status: "indexed", pages: 160 },
  "sec_financebench/BESTBUY_2024Q2_10Q.pdf": { status: "indexed", pages: 30 }, // owner-password only
  "edge_pypdf/libreoffice-writer-password.pdf": { status: "failed", error: M.passwordProtected },
  // encrypted, but readable without a password (as in Chrome): its one page holds only "Example"
  "edge_pdfjs/encrypted-attachment.pdf": { status: "failed", error: M.noText },
  "edge_pdfjs/scan-bad.pdf": { status: "needs_ocr", ocrPages: [1] },
  "edge_pypdf/imagemagick-images.pdf": { status: "needs_ocr", ocrPages: [1, 2, 3, 4, 5, 6] },
  "edge_pdfjs/empty.pdf": { status: "failed", error: M.noText },
  "edge_pdfjs/REDHAT-1531897-0.pdf": { status: "failed", error: M.notPdf },
  "edge_pdfjs/tracemonkey.pdf": { status: "indexed", pages: 14 },
};

const selected = (corpus?.files ?? []).filter((f) => !f.startsWith("sec_financebench/") || f in EXPECTED);

describe.skipIf(!corpus)("real-world corpus", () => {
  it.each(selected)(
    "%s ends indexed or failed with a reason",
    async (file) => {
      const { token } = await newUser("corpus");
      const bytes = await corpusBytes(file);
      const { fileId } = await uploadAndIndex(token, file.split("/").pop()!, bytes);
      const done = await waitUntilDone(token, fileId, 110_000);

      if (done.status === "failed") expect(REASONS).toContain(done.error);
      else expect(done.error).toBeNull();
      const expected = EXPECTED[file];
      if (expected) {
        expect(done.status).toBe(expected.status);
        if (expected.error) expect(done.error).toBe(expected.error);
        if (expected.pages) expect(done).toMatchObject({ pagesTotal: expected.pages, pagesDone: expected.pages });
        if (expected.ocrPages) expect(done.ocrPages).toEqual(expected.ocrPages);
      }
    },
    120_000,
  );
});
