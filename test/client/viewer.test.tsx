// Proves the document viewer's controls and its passage finding: a citation or
// a Sources entry opens the viewer at that source (file, page, "n / total"),
// next/previous step through the answer's sources, Escape and Close close it, a
// file the user may not open shows the server's reason; and the cited span is
// found in a page's text items as the server indexed it, tolerant of different
// whitespace and hyphenation. pdf.js itself is a fake here (the e2e draws real pages).
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Source } from "../../worker/contract/protocol";
import { normalisePageText } from "../../worker/library/chunker";
import { citedSpan, citedSpans, markedRanges, pageText, type TextItem } from "../../client/lib/highlight";
import { OWNER_ONLY } from "../../client/components/viewer/DocumentViewer";
import Chat from "../../client/pages/Chat";
import { chatState, resetChat } from "../../client/state/chat";
import { userInfo } from "../../client/state/user";
import { closeViewer, viewer } from "../../client/state/viewer";

// pdf.js never finishes loading here: the viewer shows its frame and "Loading page n…"
vi.mock("../../client/lib/pdf", () => ({
  loadPdfJs: () => new Promise(() => {}),
  openPdf: () => new Promise(() => {}),
  closePdfs: vi.fn(),
}));

const SOURCES: Source[] = [
  { n: 1, fileId: "f1", fileName: "Handbook.pdf", page: 2, charStart: 0, charEnd: 40, quote: "Receipts must be submitted" },
  { n: 2, fileId: "f2", fileName: "Policy.pdf", page: 7 },
];

let linkStatus = 200;
const linkRequests: string[] = [];

// the markdown renderer is its own chunk, loaded with the first answer; loaded here once so
// a busy machine's first import of it never outlasts a test's wait
beforeAll(async () => {
  await import("../../client/components/chat/MarkdownText");
});

beforeEach(() => {
  linkStatus = 200;
  linkRequests.length = 0;
  localStorage.setItem("token", "tok");
  userInfo.user = { id: "u1", email: "ann@example.com", name: "Ann", phone: "", picture: null };
  resetChat();
  chatState.messages = [
    { id: "q", type: "user", text: "When are receipts due?" },
    { id: "a", type: "bot", text: "Receipts are due in thirty days [1]. See also [2].", sources: SOURCES },
  ];
  vi.stubGlobal("fetch", async (url: string) => {
    linkRequests.push(url);
    const body =
      linkStatus === 200 ? { url: `http://127.0.0.1/api/documents/file/x?signature=s` } : { status: "error", message: "Not found." };
    return new Response(JSON.stringify(body), { status: linkStatus, headers: { "Content-Type": "application/json" } });
  });
});

afterEach(() => {
  closeViewer();
  vi.unstubAllGlobals();
});

function renderChat() {
  return render(
    <MemoryRouter initialEntries={["/app/chat"]}>
      <Chat />
    </MemoryRouter>,
  );
}

describe("the document viewer", () => {
  it("opens at the clicked citation beside the chat, steps through the sources and closes on Escape", async () => {
    const user = userEvent.setup();
    renderChat();
    const citation = await screen.findByRole("link", { name: "[1]" });
    await user.click(citation);
    const panel = await screen.findByRole("complementary", { name: "Document viewer" });
    expect(panel.textContent).toContain("[1] Handbook.pdf");
    expect(panel.textContent).toContain("p. 2");
    expect(panel.textContent).toContain("1 / 2");
    await waitFor(() => expect(panel.textContent).toContain("Loading page 2"));
    expect(linkRequests.some((u) => u.includes("viewDocument") && u.includes("file_id=f1"))).toBe(true);
    expect(document.querySelector("main")?.className).toContain("with-viewer");
    expect((screen.getByRole("button", { name: "Previous citation" }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByRole("button", { name: "Next citation" }));
    expect(panel.textContent).toContain("[2] Policy.pdf");
    expect(panel.textContent).toContain("p. 7");
    expect(panel.textContent).toContain("2 / 2");
    expect((screen.getByRole("button", { name: "Next citation" }) as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(linkRequests.some((u) => u.includes("file_id=f2"))).toBe(true));

    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("complementary", { name: "Document viewer" })).toBeNull());
    expect(viewer.index).toBe(-1);
    expect(document.querySelector("main")?.className).not.toContain("with-viewer");
    // the citation that opened it has the focus again
    expect(document.activeElement).toBe(citation);
  });

  it("zooms the page in and out (a phone's panel is too narrow to read it), and opens the next citation unzoomed", async () => {
    const user = userEvent.setup();
    renderChat();
    await user.click(await screen.findByRole("link", { name: "[1]" }));
    const zoomOut = await screen.findByRole("button", { name: "Zoom out" });
    const zoomIn = screen.getByRole("button", { name: "Zoom in" });
    const drawnWidth = () => document.querySelector<HTMLElement>(".pdf-page")?.style.width;
    await waitFor(() => expect(drawnWidth()).toBe("100%"));
    expect((zoomOut as HTMLButtonElement).disabled).toBe(true);
    await user.click(zoomIn);
    expect(drawnWidth()).toBe("150%");
    for (let i = 0; i < 3; i++) await user.click(zoomIn);
    expect(drawnWidth()).toBe("300%");
    expect((zoomIn as HTMLButtonElement).disabled).toBe(true);
    await user.click(zoomOut);
    expect(drawnWidth()).toBe("200%");
    await user.keyboard("{Escape}");
    await user.click(await screen.findByRole("link", { name: "[1]" }));
    await waitFor(() => expect(drawnWidth()).toBe("100%"));
  });

  it("opens from the Sources list at that source, and Close closes it", async () => {
    const user = userEvent.setup();
    renderChat();
    await user.click(screen.getByRole("link", { name: "[2] Policy.pdf, p. 7" }));
    const panel = await screen.findByRole("complementary", { name: "Document viewer" });
    expect(panel.textContent).toContain("2 / 2");
    await user.click(screen.getByRole("button", { name: "Close viewer" }));
    await waitFor(() => expect(screen.queryByRole("complementary", { name: "Document viewer" })).toBeNull());
  });

  it("shows why a file cannot be opened", async () => {
    linkStatus = 404;
    const user = userEvent.setup();
    renderChat();
    await user.click(await screen.findByRole("link", { name: "[1]" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Not found.");
  });

  it("tells a shared chat's reader that only the owner opens the files, without asking for them", async () => {
    chatState.readOnly = true;
    const user = userEvent.setup();
    renderChat();
    await user.click(await screen.findByRole("link", { name: "[1]" }));
    const panel = await screen.findByRole("complementary", { name: "Document viewer" });
    expect(panel.textContent).toContain(OWNER_ONLY);
    expect(linkRequests.filter((u) => u.includes("viewDocument"))).toEqual([]);
    // nor is there a tab to open the file in, nor a page to zoom
    expect(screen.queryByRole("button", { name: "Open in new tab" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Zoom in" })).toBeNull();
  });

  it("closes when another chat opens", async () => {
    renderChat();
    await act(async () => {
      chatState.sessionId = "ann@example.com-1";
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("link", { name: "[1]" }));
    await screen.findByRole("complementary", { name: "Document viewer" });
    await act(async () => {
      chatState.sessionId = "ann@example.com-2";
    });
    await waitFor(() => expect(screen.queryByRole("complementary", { name: "Document viewer" })).toBeNull());
  });
});

/** Text items as pdf.js gives them for a page: pieces of lines, some ending a line. */
const ITEMS: TextItem[] = [
  { str: "Travel policy.", hasEOL: true },
  { str: "Economy class is required for flights shorter than six" },
  { str: " ", hasEOL: false },
  { str: "hours.  Receipts must be sub-", hasEOL: true },
  { str: "mitted within thirty days.", hasEOL: true },
  { str: "Page 2" },
];

function marked(items: readonly TextItem[], ranges: ReturnType<typeof markedRanges>): string {
  return ranges.map((r) => items[r.item]!.str.slice(r.from, r.to)).join("|");
}

describe("finding the cited passage on the page", () => {
  it("rebuilds the page's text exactly as the server normalised it", () => {
    const raw = ITEMS.map((i) => i.str + (i.hasEOL ? "\n" : "")).join("");
    expect(pageText(ITEMS).text).toBe(normalisePageText(raw));
  });

  it("marks exactly the stored span, across items and line ends", () => {
    const page = pageText(ITEMS);
    const start = page.text.indexOf("Receipts");
    const end = page.text.indexOf("Page 2") - 1;
    const span = citedSpan(page.text, { charStart: start, charEnd: end, quote: page.text.slice(start, start + 30) });
    expect(span).toEqual({ start, end });
    expect(marked(ITEMS, markedRanges(page, span!))).toBe("Receipts must be sub-|mitted within thirty days.");
  });

  it("finds the passage by its first words when the page's text differs around it", () => {
    // the stored span was measured on text with one more line before it
    const page = pageText(ITEMS);
    const span = citedSpan(page.text, { charStart: 120, charEnd: 200, quote: "Receipts must be submitted within" });
    expect(page.text.slice(span!.start, span!.start + 8)).toBe("Receipts");
  });

  it("falls back to the stored span when the words are not there, and to nothing when the span is off the page", () => {
    const page = pageText(ITEMS);
    expect(citedSpan(page.text, { charStart: 0, charEnd: 14, quote: "words that are nowhere on it" })).toEqual({ start: 0, end: 14 });
    expect(citedSpan(page.text, { charStart: 5000, charEnd: 5100 })).toBeNull();
    expect(citedSpan(page.text, {})).toBeNull();
  });
});

describe("finding all the passages a source cites on the page", () => {
  const page = pageText(ITEMS);
  /** The stored form of the passage starting at `words` and `length` characters long. */
  const at = (words: string, length: number) => {
    const charStart = page.text.indexOf(words);
    return { charStart, charEnd: charStart + length, quote: page.text.slice(charStart, charStart + 30) };
  };

  it("finds the source's own passage and each of its more, its own first", () => {
    const own = at("Receipts", 40);
    const more = at("Economy", 30);
    expect(citedSpans(page.text, { ...own, more: [more] })).toEqual([
      { start: own.charStart, end: own.charEnd },
      { start: more.charStart, end: more.charEnd },
    ]);
  });

  it("merges overlapping and repeated passages and leaves out one not on the page", () => {
    const own = at("Economy", 40);
    const overlapping = at("flights", 40);
    const missing = { charStart: 5000, charEnd: 5100, quote: "words that are nowhere on it" };
    expect(citedSpans(page.text, { ...own, more: [overlapping, own, missing] })).toEqual([
      { start: own.charStart, end: overlapping.charEnd },
    ]);
  });

  it("puts the passages in page order when the source's own is not found, and finds none on an empty page", () => {
    const first = at("Economy", 20);
    const second = at("Receipts", 20);
    expect(citedSpans(page.text, { charStart: 5000, charEnd: 5100, more: [second, first] })).toEqual([
      { start: first.charStart, end: first.charEnd },
      { start: second.charStart, end: second.charEnd },
    ]);
    expect(citedSpans("", { ...first, more: [second] })).toEqual([]);
  });
});
