// Proves the browser side of scanned PDFs (issue 17) on My Files: a needs_ocr
// row says "Needs text recognition" with "Recognise text"; recognition starts
// by itself once per document, shows "Recognising page N of M" as a progress
// bar, can be cancelled, and after a reload continues with the pages the server
// still lists; each page's text (even "") is posted; failures are explained.
// The recognition engine (pdf.js + tesseract.js) is a fake: it never loads here.
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { FileItem, IndexingStatusResponse } from "../../worker/contract/documents";
import { chipStatus } from "../../client/components/chat/ChatFiles";
import { answerAsMarkdown, sourcePage } from "../../client/lib/answer";
import { needsRefresh, statusLabel } from "../../client/lib/files";
import Files from "../../client/pages/Files";
import { showChatFiles } from "../../client/state/chatDocuments";
import { ocrState, stopAllRecognitions } from "../../client/state/ocr";
import { userInfo } from "../../client/state/user";
import { stubJsonFetch, type RecordedRequest, type Reply } from "../helpers/fetch-stub";

// ---------------------------------------------------------------- the fake engine

interface PendingRead {
  page: number;
  resolve: (text: string) => void;
  reject: (err: Error) => void;
}
const engine = vi.hoisted(() => ({
  /** reads waiting for the test to answer them (when `manual`) */
  reads: [] as PendingRead[],
  manual: false,
  texts: {} as Record<number, string>,
  opened: [] as string[],
  closed: 0,
}));

vi.mock("../../client/lib/ocr/engine", () => ({
  openPageReader: async (url: string) => {
    engine.opened.push(url);
    return {
      read: (page: number) =>
        engine.manual
          ? new Promise<string>((resolve, reject) => engine.reads.push({ page, resolve, reject }))
          : Promise.resolve(engine.texts[page] ?? `Text of page ${page}`),
      close: async () => {
        engine.closed += 1;
      },
    };
  },
}));

// ---------------------------------------------------------------- the server

const requests: RecordedRequest[] = [];
/** the scanned document's pages still waiting, as the server keeps them */
let waiting: number[];
let postReply: ((pages: number[]) => Reply) | null;
/** a text document with a few scanned pages: indexed, its scanned pages listed */
let mixed: boolean;

function scanned(overrides: Partial<FileItem> = {}): FileItem {
  return {
    fileId: "scan1",
    fileName: "Signed contract.pdf",
    status: waiting.length && !mixed ? "needs_ocr" : "indexed",
    createdAt: new Date(2026, 10, 2, 12).toISOString(),
    uploadedAt: null,
    fileHash: "hash-scan",
    pageCount: 3,
    error: null,
    ocrPages: [...waiting],
    ...overrides,
  };
}

function status(): IndexingStatusResponse {
  return {
    fileId: "scan1",
    status: waiting.length && !mixed ? "needs_ocr" : "indexed",
    pagesDone: 3 - waiting.length,
    pagesTotal: 3,
    error: null,
    ocrPages: [...waiting],
  };
}

function serve(url: string, init?: RequestInit): Reply {
  if (url.startsWith("/api/documents?")) {
    return { status: 200, body: { files: [scanned()], pagination: { pageNumber: 1, pageSize: 10, total: 1, totalPages: 1 } } };
  }
  if (url.startsWith("/api/documents/indexingStatus")) return { status: 200, body: status() };
  if (url.startsWith("/api/documents/viewDocument")) return { status: 200, body: { url: "/api/documents/file/scan1?signature=s" } };
  if (url === "/api/documents/scan1/ocr-pages" && init?.method === "POST") {
    const pages = (JSON.parse(init.body as string) as { pages: { page: number }[] }).pages.map((p) => p.page);
    if (postReply) return postReply(pages);
    waiting = waiting.filter((p) => !pages.includes(p));
    return { status: 200, body: status() };
  }
  return { status: 200, body: {} };
}

const posts = () => requests.filter((r) => r.method === "POST" && r.url.endsWith("/ocr-pages")).map((r) => r.body);
const statusCalls = () => requests.filter((r) => r.url.startsWith("/api/documents/indexingStatus"));

beforeEach(() => {
  requests.length = 0;
  waiting = [1, 3];
  postReply = null;
  mixed = false;
  Object.assign(engine, { reads: [], manual: false, texts: {}, opened: [], closed: 0 });
  stubJsonFetch(requests, serve);
  localStorage.setItem("token", "t.o.k");
  userInfo.user = { id: "u1", email: "ann@example.com", name: "Ann", phone: "", picture: null };
});

afterEach(async () => {
  stopAllRecognitions();
  ocrState.finished = 0;
  await act(async () => {}); // let cancelled runs end before the next test
  vi.unstubAllGlobals();
  userInfo.user = null;
});

function renderPage() {
  return render(
    <MemoryRouter initialEntries={["/app/files"]}>
      <Files />
    </MemoryRouter>,
  );
}

const row = () => screen.getByRole("row", { name: /Signed contract\.pdf/ });

/** The next read the fake engine is waiting on (manual mode). */
async function nextRead(): Promise<PendingRead> {
  await waitFor(() => expect(engine.reads.length).toBeGreaterThan(0));
  return engine.reads.shift()!;
}

// ---------------------------------------------------------------- tests

describe("scanned documents on My Files", () => {
  it("labels needs_ocr rows and keeps the list polling only while recognising here", () => {
    expect(statusLabel("needs_ocr")).toBe("Needs text recognition");
    expect(needsRefresh([{ fileId: "a", status: "needs_ocr" }])).toBe(false);
    expect(needsRefresh([{ fileId: "a", status: "needs_ocr" }], new Set(["a"]))).toBe(true);
  });

  it("shows Needs text recognition with a Recognise text action when already started once", async () => {
    localStorage.setItem("ocrAutoStarted", JSON.stringify(["scan1"]));
    renderPage();
    await waitFor(() => expect(within(row()).getByText("Needs text recognition")).toBeTruthy());
    expect(within(row()).getByRole("button", { name: "Recognise text" })).toBeTruthy();
    expect(statusCalls()).toHaveLength(0);
    expect(row().getAttribute("aria-selected")).toBe("false");

    await userEvent.click(within(row()).getByRole("button", { name: "Recognise text" }));
    await waitFor(() => expect(within(row()).getByText("Indexed")).toBeTruthy());
    expect(row().getAttribute("aria-selected")).toBe("false"); // the action is not a row click
    expect(posts()).toEqual([{ pages: [{ page: 1, text: "Text of page 1" }] }, { pages: [{ page: 3, text: "Text of page 3" }] }]);
  });

  it("starts by itself once per document, posting every listed page (an empty one too)", async () => {
    engine.texts = { 1: "  Lease of the harbour office.  ", 3: "" };
    const first = renderPage();
    await waitFor(() => expect(within(row()).getByText("Indexed")).toBeTruthy());
    expect(engine.opened).toEqual(["/api/documents/file/scan1?signature=s"]);
    expect(posts()).toEqual([{ pages: [{ page: 1, text: "Lease of the harbour office." }] }, { pages: [{ page: 3, text: "" }] }]);
    expect(engine.closed).toBe(1);
    expect(JSON.parse(localStorage.getItem("ocrAutoStarted")!)).toEqual(["scan1"]);
    first.unmount();

    // still listed as waiting (say a page was added back): never started by itself again
    waiting = [2];
    requests.length = 0;
    renderPage();
    await waitFor(() => expect(within(row()).getByRole("button", { name: "Recognise text" })).toBeTruthy());
    expect(statusCalls()).toHaveLength(0);
  });

  it("offers an indexed document's few scanned pages without starting by itself", async () => {
    mixed = true;
    waiting = [1];
    renderPage();
    await waitFor(() => expect(within(row()).getByText("1 scanned page not searchable yet")).toBeTruthy());
    expect(within(row()).getByText("Indexed")).toBeTruthy();
    expect(statusCalls()).toHaveLength(0);
    await userEvent.click(within(row()).getByRole("button", { name: "Recognise text" }));
    await waitFor(() => expect(posts()).toEqual([{ pages: [{ page: 1, text: "Text of page 1" }] }]));
    await waitFor(() => expect(within(row()).queryByText("1 scanned page not searchable yet")).toBeNull());
  });

  it("shows per-page progress, then Indexed", async () => {
    engine.manual = true;
    renderPage();
    const bar = await within(await waitFor(row)).findByRole("progressbar", { name: "Recognising the text of Signed contract.pdf" });
    const first = await nextRead();
    expect(first.page).toBe(1);
    expect(bar.getAttribute("aria-valuetext")).toBe("Recognising page 1 of 2");
    expect(bar.getAttribute("aria-valuenow")).toBe("0");
    expect(within(row()).getByText("Needs text recognition")).toBeTruthy(); // until the last page is in
    expect(within(row()).queryByRole("button", { name: "Recognise text" })).toBeNull();

    first.resolve("Page one");
    const second = await nextRead();
    expect(second.page).toBe(3);
    await waitFor(() => expect(within(row()).getByText("Recognising page 2 of 2")).toBeTruthy());
    expect(within(row()).getByRole("progressbar").getAttribute("aria-valuenow")).toBe("1");

    second.resolve("Page three");
    await waitFor(() => expect(within(row()).getByText("Indexed")).toBeTruthy());
    expect(within(row()).queryByRole("progressbar")).toBeNull();
  });

  it("cancels: nothing more is read or sent, and Recognise text comes back", async () => {
    engine.manual = true;
    renderPage();
    await nextRead(); // page 1 is being read
    await userEvent.click(within(row()).getByRole("button", { name: "Cancel text recognition of Signed contract.pdf" }));
    expect(within(row()).queryByRole("progressbar")).toBeNull();
    expect(within(row()).getByText("Needs text recognition")).toBeTruthy();
    expect(within(row()).getByRole("button", { name: "Recognise text" })).toBeTruthy();
    await waitFor(() => expect(engine.closed).toBe(1));
    expect(posts()).toEqual([]);
    expect(JSON.parse(localStorage.getItem("ocrInProgress")!)).toEqual([]); // a reload will not start it again
  });

  it("continues by itself after a reload, with the pages the server still lists", async () => {
    // page 1 was sent before the reload interrupted the recognition
    waiting = [3];
    localStorage.setItem("ocrAutoStarted", JSON.stringify(["scan1"]));
    localStorage.setItem("ocrInProgress", JSON.stringify(["scan1"]));
    engine.manual = true;
    renderPage();
    const read = await nextRead();
    expect(read.page).toBe(3);
    expect(within(row()).getByRole("progressbar").getAttribute("aria-valuetext")).toBe("Recognising page 1 of 1");
    read.resolve("Page three");
    await waitFor(() => expect(within(row()).getByText("Indexed")).toBeTruthy());
    expect(posts()).toEqual([{ pages: [{ page: 3, text: "Page three" }] }]);
    expect(JSON.parse(localStorage.getItem("ocrInProgress")!)).toEqual([]);
  });

  it("after a cancel, a reload waits for Recognise text, which continues where it stopped", async () => {
    waiting = [3];
    localStorage.setItem("ocrAutoStarted", JSON.stringify(["scan1"]));
    renderPage();
    await userEvent.click(await within(await waitFor(row)).findByRole("button", { name: "Recognise text" }));
    await waitFor(() => expect(within(row()).getByText("Indexed")).toBeTruthy());
    expect(posts()).toEqual([{ pages: [{ page: 3, text: "Text of page 3" }] }]);
  });

  it("keeps an indexed document's scanned pages offered, with the reason, when recognising them fails", async () => {
    mixed = true;
    waiting = [1];
    engine.manual = true;
    renderPage();
    await userEvent.click(await within(await waitFor(row)).findByRole("button", { name: "Recognise text" }));
    (await nextRead()).reject(new Error("Invalid page request"));
    await waitFor(() =>
      expect(within(row()).getByText("Text recognition stopped at page 1. Try again to continue from there.")).toBeTruthy(),
    );
    expect(within(row()).getByText("1 scanned page not searchable yet")).toBeTruthy();
    expect(within(row()).getByRole("button", { name: "Recognise text" })).toBeTruthy();
    expect(posts()).toEqual([]);
  });

  it("explains a failure in plain words and can be tried again", async () => {
    postReply = () => ({ status: 400, body: { status: "error", message: "The recognised text of a page is too long." } });
    renderPage();
    await waitFor(() => expect(within(row()).getByText("The recognised text of a page is too long.")).toBeTruthy());
    expect(within(row()).getByText("Needs text recognition")).toBeTruthy();

    // a page the reader could not draw: the page is named
    postReply = null;
    engine.manual = true;
    await userEvent.click(within(row()).getByRole("button", { name: "Recognise text" }));
    (await nextRead()).reject(new Error("Invalid page request"));
    await waitFor(() =>
      expect(within(row()).getByText("Text recognition stopped at page 1. Try again to continue from there.")).toBeTruthy(),
    );
  });

  it("a page another tab already sent is skipped, not an error", async () => {
    postReply = (pages) =>
      pages[0] === 1
        ? { status: 400, body: { status: "error", message: "Page 1 does not need text recognition." } }
        : ((waiting = []), { status: 200, body: status() });
    renderPage();
    await waitFor(() => expect(within(row()).getByText("Indexed")).toBeTruthy());
    expect(posts()).toHaveLength(2);
  });

  it("a chat's chip shows the recognition's progress", () => {
    const file = { status: "needs_ocr" as const, pagesDone: 1, pagesTotal: 3 };
    expect(chipStatus(file)).toBe("Needs text recognition");
    expect(chipStatus(file, { phase: "waiting", pagesDone: 0, pagesTotal: 0 })).toBe("Recognising text…");
    expect(chipStatus(file, { phase: "running", pagesDone: 1, pagesTotal: 2 })).toBe("Recognising text 1/2");
    expect(chipStatus(file, { phase: "done", pagesDone: 2, pagesTotal: 2 })).toBe("Needs text recognition");
  });

  it("starts for a scanned document a chat takes", async () => {
    showChatFiles([{ fileId: "scan1", fileName: "Signed contract.pdf", status: "needs_ocr", pagesDone: 0, pagesTotal: 3, error: null }]);
    await waitFor(() => expect(posts()).toHaveLength(2));
    expect(JSON.parse(localStorage.getItem("ocrAutoStarted")!)).toEqual(["scan1"]);
  });
});

describe("sources from recognised text", () => {
  it("say so wherever their page is shown", () => {
    const recognised = { n: 1, fileId: "scan1", fileName: "Signed contract.pdf", page: 3, recognised: true };
    expect(sourcePage(recognised)).toBe("p. 3 (recognised text)");
    expect(sourcePage({ page: 2 })).toBe("p. 2");
    expect(answerAsMarkdown("Paid monthly [1].", [recognised])).toBe(
      "Paid monthly [1].\n\nSources:\n[1] Signed contract.pdf, p. 3 (recognised text)",
    );
  });
});
