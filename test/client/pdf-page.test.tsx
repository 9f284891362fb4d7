// Proves that a page of the document viewer marks every passage a source cites
// on it: the source's own and each of its `more`, scrolls to the source's own
// (or, when that one is not found, to the first one found), and says the
// passage could not be marked only when none was. pdf.js is a fake that draws
// nothing and lays out one text element per item (the e2e draws real pages).
import { render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Source } from "../../worker/contract/protocol";
import { pageText, type TextItem } from "../../client/lib/highlight";
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
    openPdf: async () => ({ numPages: 3, getPage: async () => page }),
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

  it("says the passage could not be marked only when none of them is found", async () => {
    const missing = { charStart: 5000, charEnd: 5100, quote: "words that are nowhere on it" };
    const { container } = render(<PdfPage url="blob:x" source={source(missing, [missing])} />);
    expect(await screen.findByText(NOT_MARKED)).toBeTruthy();
    expect(await marks(container)).toEqual([]);
    expect(scrolled).toEqual([]);
  });
});
