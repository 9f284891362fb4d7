// Proves that a page of the document viewer marks the sentences the answer quotes
// from a source (within the passage it cites) or, when they are not the page's
// text, every passage the source cites on it: the source's own and each of its `more`, scrolls to the source's own
// (or, when that one is not found, to the first one found), and says the
// passage could not be marked only when none was. pdf.js is a fake that draws
// nothing and lays out one text element per item (the e2e draws real pages).
import { render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Source } from "../../worker/contract/protocol";
import { pageText, quotedSpans, quotesFor, type TextItem } from "../../client/lib/highlight";
import { PdfPage } from "../../client/components/viewer/PdfPage";

const ITEMS: TextItem[] = [
  { str: "Travel policy.", hasEOL: true },
  { str: "Economy class is required for flights shorter than six hours.", hasEOL: true },
  { str: "Receipts must be submitted within thirty days.", hasEOL: true },
  { str: "Page 2" },
];

vi.mock("../../client/lib/pdf", () => {
  class TextLayer {
    textDivs: HTMLElement[] = [];
    private readonly items: readonly TextItem[];
    private readonly container: HTMLElement;
    constructor({ textContentSource, container }: { textContentSource: { items: TextItem[] }; container: HTMLElement }) {
      this.items = textContentSource.items;
      this.container = container;
    }
    async render() {
      for (const item of this.items) {
        const span = document.createElement("span");
        span.textContent = item.str;
        this.textDivs.push(span);
        this.container.append(span);
      }
    }
    cancel() {}
  }
  const page = {
    getViewport: ({ scale }: { scale: number }) => ({ width: 600 * scale, height: 800 * scale }),
    render: () => ({ promise: Promise.resolve(), cancel() {} }),
    getTextContent: async () => ({ items: ITEMS }),
  };
  return {
    loadPdfJs: async () => ({ TextLayer }),
    openPdf: async (_id: string, url: string) => {
      if (url === "blob:broken") throw new Error("Invalid `workerSrc` type.");
      return { numPages: 3, getPage: async () => page };
    },
    closePdfs: vi.fn(),
  };
});

const NOT_MARKED = "The cited passage could not be marked on this page.";
const text = pageText(ITEMS).text;
const scrolled: Element[] = [];
const scrollIntoView = Element.prototype.scrollIntoView;

/** The stored form of the sentence starting with `words`. */
function passage(words: string) {
  const charStart = text.indexOf(words);
  const charEnd = text.indexOf(".", charStart) + 1;
  return { charStart, charEnd, quote: text.slice(charStart, charStart + 30) };
}

function source(own: Partial<Source>, more: Source["more"]): Source {
  return { n: 1, fileId: "f1", fileName: "Handbook.pdf", page: 2, ...own, more };
}

async function marks(box: HTMLElement): Promise<string[]> {
  await waitFor(() => expect(box.querySelector(".textLayer")).not.toBeNull());
  return [...box.querySelectorAll("mark.cited-passage")].map((mark) => mark.textContent ?? "");
}

beforeEach(() => {
  scrolled.length = 0;
  Element.prototype.scrollIntoView = function (this: Element) {
    scrolled.push(this);
  };
});

afterEach(() => {
  Element.prototype.scrollIntoView = scrollIntoView;
});

describe("a page of the document viewer", () => {
  it("marks the source's own passage and each of its more, and scrolls to its own", async () => {
    const { container } = render(<PdfPage url="blob:x" source={source(passage("Receipts"), [passage("Economy")])} />);
    expect(await marks(container)).toEqual([
      "Economy class is required for flights shorter than six hours.",
      "Receipts must be submitted within thirty days.",
    ]);
    expect(scrolled.map((mark) => mark.textContent)).toEqual(["Receipts must be submitted within thirty days."]);
    await waitFor(() => expect(container.querySelector("[aria-busy=false]")).not.toBeNull());
    expect(screen.queryByText(NOT_MARKED)).toBeNull();
  });

  it("scrolls to the first passage found when the source's own is not on the page", async () => {
    const missing = { charStart: 5000, charEnd: 5100, quote: "words that are nowhere on it" };
    const { container } = render(<PdfPage url="blob:x" source={source(missing, [passage("Receipts"), passage("Travel")])} />);
    expect(await marks(container)).toEqual(["Travel policy.", "Receipts must be submitted within thirty days."]);
    expect(scrolled.map((mark) => mark.textContent)).toEqual(["Travel policy."]);
    await waitFor(() => expect(container.querySelector("[aria-busy=false]")).not.toBeNull());
    expect(screen.queryByText(NOT_MARKED)).toBeNull();
  });

  it("marks only the sentence the answer quotes from a longer passage, and the passage when the quote is not found", async () => {
    const whole = {
      charStart: text.indexOf("Economy"),
      charEnd: text.indexOf("thirty days.") + 12,
      quote: "Economy class is required for",
    };
    const answer = "Receipts must be submitted within thirty days. [1]\n\nSee also: [2]";
    const quoted = render(<PdfPage url="blob:x" source={{ ...source(whole, []), quotes: quotesFor(answer, 1) }} />);
    expect(await marks(quoted.container)).toEqual(["Receipts must be submitted within thirty days."]);
    quoted.unmount();
    // a table row written as a labelled line is not the page's text: the passage is marked
    const row = render(<PdfPage url="blob:x" source={{ ...source(whole, []), quotes: ["Economy class: flights under six hours"] }} />);
    expect(await marks(row.container)).toEqual([
      "Economy class is required for flights shorter than six hours.",
      "Receipts must be submitted within thirty days.",
    ]);
  });

  it("says the passage could not be marked only when none of them is found", async () => {
    const missing = { charStart: 5000, charEnd: 5100, quote: "words that are nowhere on it" };
    const { container } = render(<PdfPage url="blob:x" source={source(missing, [missing])} />);
    expect(await screen.findByText(NOT_MARKED)).toBeTruthy();
    expect(await marks(container)).toEqual([]);
    expect(scrolled).toEqual([]);
  });
});

describe("a page that cannot be shown", () => {
  it("says so in plain words, naming a page past the end", async () => {
    const broken = render(<PdfPage url="blob:broken" source={source(passage("Receipts"), [])} />);
    expect(await broken.findByText("Handbook.pdf could not be shown. Check your connection, then reload the page.")).toBeTruthy();
    expect(broken.queryByText(/workerSrc/)).toBeNull();
    broken.unmount();
    render(<PdfPage url="blob:x" source={{ ...source(passage("Receipts"), []), page: 9 }} />);
    expect(await screen.findByText("Handbook.pdf has no page 9.")).toBeTruthy();
  });
});

describe("what an answer quotes from a source", () => {
  it("is the text before each of its [n], cut at an excerpt's …, without bullets, notes or markdown", () => {
    const answer = [
      "_p17.pdf is still being indexed (25/417 pages); this answer uses the pages done so far._",
      "",
      "**April 15, 2025**, is the due date for filing your 2024 income tax return. [1]",
      "",
      "Also in your documents:",
      "- The penalty is figured on the unpaid tax. [2] It applies each month. [1, 3]",
      "- The IRS can't figure your tax for you if any of the following apply: … 4. Your taxable income is $100,000 or more. [1]",
      "",
      "See also: [4] [5]",
    ].join("\n");
    expect(quotesFor(answer, 1)).toEqual([
      "April 15, 2025, is the due date for filing your 2024 income tax return.",
      "It applies each month.",
      "The IRS can't figure your tax for you if any of the following apply:",
      "4. Your taxable income is $100,000 or more.",
    ]);
    expect(quotesFor(answer, 2)).toEqual(["The penalty is figured on the unpaid tax."]);
    expect(quotesFor(answer, 4)).toEqual([]);
  });

  it("is found on the page with the stop the page writes, and all of them or none", () => {
    const page = "2. You are not subject to backup withholding; or 3. Claim exemption if you are a U.S. exempt\npayee; and";
    const [span] = quotedSpans(page, ["Claim exemption if you are a U.S. exempt payee."], [])!;
    expect(page.slice(span!.start, span!.end)).toBe("Claim exemption if you are a U.S. exempt\npayee;");
    expect(quotedSpans(page, ["Claim exemption if you are a U.S. exempt payee.", "Not on this page at all."], [])).toBeNull();
  });
});
