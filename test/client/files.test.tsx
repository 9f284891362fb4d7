// Proves the My Files page follows the spec (sections 2, 4, 8 and 9): the pure
// row/status/date rules, the upload helper (link -> PUT with progress and no
// Authorization -> index), and the page: rows from the list call, selection and
// the floating bar, the row menu, deleting through the modal (single and several
// files, with errors), the upload banner, the temporary upload row, and a
// file's indexing followed from pushed progress with a 30-second fallback read.
// fetch, XMLHttpRequest and the chat connection are stubs.
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { FileItem, FileListResponse } from "../../worker/contract/documents";
import type { FileProgress } from "../../worker/contract/protocol";
import { formatDate, needsRefresh, statusLabel, visibleFiles } from "../../client/lib/files";
import type { RealtimeConnection } from "../../client/lib/realtime";
import { uploadPdf } from "../../client/lib/upload";
import Files from "../../client/pages/Files";
import { setChatConnection } from "../../client/state/chat";
import { handleServerMessage } from "../../client/state/chatMessages";
import { resetDrive } from "../../client/state/drive";
import { rewatchFiles, watchFiles } from "../../client/state/fileProgress";
import { userInfo } from "../../client/state/user";
import { stubJsonFetch } from "../helpers/fetch-stub";

// ---------------------------------------------------------------- stubs

type Reply = { status: number; body: unknown };
type Handler = (url: string, init?: RequestInit) => Reply | Promise<Reply>;
let handler: Handler;
const requests: { method: string; url: string; body: unknown; headers: Record<string, string> }[] = [];

class FakeXHR {
  static instances: FakeXHR[] = [];
  /** What happens on send(); by default: progress 50%, then 200. */
  static onSend: (xhr: FakeXHR) => void = (xhr) => {
    xhr.progress(50, 100);
    xhr.respond(200, "");
  };
  method = "";
  url = "";
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = "";
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  aborted = false;
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  send(body: unknown) {
    this.body = body;
    FakeXHR.instances.push(this);
    FakeXHR.onSend(this);
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  respond(status: number, text: string) {
    this.status = status;
    this.responseText = text;
    this.onload?.();
  }
}

beforeEach(() => {
  requests.length = 0;
  FakeXHR.instances = [];
  FakeXHR.onSend = (xhr) => {
    xhr.progress(50, 100);
    xhr.respond(200, "");
  };
  handler = () => ({ status: 200, body: {} });
  stubJsonFetch(requests, (url, init) => handler(url, init));
  vi.stubGlobal("XMLHttpRequest", FakeXHR);
  resetDrive();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  userInfo.user = null;
});

function signIn() {
  localStorage.setItem("token", "t.o.k");
  userInfo.user = { id: "u1", email: "ann@example.com", name: "Ann", phone: "", picture: null };
}

/** Noon local time on the given day, as ISO: the shown date is the same in every time zone. */
const day = (y: number, m: number, d: number) => new Date(y, m - 1, d, 12).toISOString();

function file(overrides: Partial<FileItem>): FileItem {
  return {
    fileId: "f1",
    fileName: "a.pdf",
    status: "indexed",
    createdAt: day(2026, 11, 2),
    uploadedAt: null,
    fileHash: "hash-a",
    pageCount: 3,
    error: null,
    ocrPages: [],
    ...overrides,
  };
}

function listOf(files: FileItem[], totalPages = 1): FileListResponse {
  return { files, pagination: { pageNumber: 1, pageSize: 10, total: files.length, totalPages } };
}

const SAMPLE: FileItem[] = [
  file({ fileId: "f1", fileName: "contract.pdf", fileHash: "h1", createdAt: day(2026, 11, 2), uploadedAt: day(2026, 11, 5) }),
  file({
    fileId: "f2",
    fileName: "scan.pdf",
    fileHash: "h2",
    status: "failed",
    error: "No text found: this PDF has no text and no scanned pages to recognise.",
    createdAt: day(2026, 10, 15),
  }),
  file({ fileId: "f3", fileName: "notes.pdf", fileHash: null, status: "processing", createdAt: day(2026, 1, 9) }),
];

/** Answers the list call with `list`, and anything else with `other`. */
function serveList(list: FileListResponse, other?: (url: string, init?: RequestInit) => Reply) {
  handler = (url, init) =>
    url.startsWith("/api/documents?") ? { status: 200, body: list } : (other?.(url, init) ?? { status: 200, body: {} });
}

function renderPage() {
  return render(
    <MemoryRouter initialEntries={["/app/files"]}>
      <Files />
    </MemoryRouter>,
  );
}

const listCalls = () => requests.filter((r) => r.method === "GET" && r.url.startsWith("/api/documents?"));

// ---------------------------------------------------------------- pure rules

describe("file helpers", () => {
  it("labels statuses", () => {
    expect(statusLabel("uploading")).toBe("Uploading");
    expect(statusLabel("Uploading")).toBe("Uploading");
    expect(statusLabel("pending")).toBe("Pending");
    expect(statusLabel("processing")).toBe("Processing");
    expect(statusLabel("indexed")).toBe("Indexed");
    expect(statusLabel("failed")).toBe("Failed");
    expect(statusLabel("partially_indexed_now")).toBe("Partially indexed now");
  });

  it("formats dates as MMM DD, YYYY and null as a dash", () => {
    expect(formatDate(day(2026, 11, 2))).toBe("Nov 02, 2026");
    expect(formatDate(day(2025, 1, 31))).toBe("Jan 31, 2025");
    expect(formatDate(null)).toBe("—");
    expect(formatDate("not a date")).toBe("—");
  });

  it("shows only rows with a fileHash or uploading/processing status", () => {
    const rows = visibleFiles([
      file({ fileId: "1", fileName: "a.pdf", fileHash: "h" }),
      file({ fileId: "2", fileName: "b.pdf", fileHash: null, status: "pending" }),
      file({ fileId: "3", fileName: "c.pdf", fileHash: null, status: "processing" }),
      file({ fileId: "4", fileName: "d.pdf", fileHash: "", status: "uploading" }),
      file({ fileId: "5", fileName: "e.pdf", fileHash: null, status: "failed" }),
      file({ fileId: "6", fileName: "f.pdf", fileHash: "h6", status: "failed" }),
    ]);
    expect(rows.map((r) => r.fileId)).toEqual(["1", "3", "4", "6"]);
  });

  it("collapses duplicate names: the uploading one wins, otherwise the later one", () => {
    const older = file({ fileId: "old", fileName: "x.pdf", createdAt: "2026-01-01T00:00:00Z", fileHash: "h1" });
    const newer = file({ fileId: "new", fileName: "x.pdf", createdAt: "2026-02-01T00:00:00Z", fileHash: "h2" });
    const temp = file({ fileId: "temp-1", fileName: "x.pdf", status: "uploading", fileHash: "", createdAt: "2025-01-01T00:00:00Z" });
    expect(visibleFiles([older, newer]).map((r) => r.fileId)).toEqual(["new"]);
    expect(visibleFiles([newer, older]).map((r) => r.fileId)).toEqual(["new"]);
    expect(visibleFiles([temp, newer, older]).map((r) => r.fileId)).toEqual(["temp-1"]);
    expect(visibleFiles([newer, temp]).map((r) => r.fileId)).toEqual(["temp-1"]);
    const other = file({ fileId: "y", fileName: "y.pdf", fileHash: "h3" });
    expect(visibleFiles([newer, other, older]).map((r) => r.fileId)).toEqual(["new", "y"]);
  });

  it("needs a refresh only while something is pending or processing", () => {
    expect(needsRefresh([])).toBe(false);
    expect(needsRefresh([{ status: "indexed" }, { status: "failed" }])).toBe(false);
    expect(needsRefresh([{ status: "indexed" }, { status: "pending" }])).toBe(true);
    expect(needsRefresh([{ status: "processing" }])).toBe(true);
  });
});

// ---------------------------------------------------------------- upload helper

describe("uploadPdf", () => {
  const pdf = () => new File(["%PDF-1.7 test"], "Report.PDF", { type: "application/pdf" });

  it("gets a link, PUTs with progress and no Authorization header, then indexes", async () => {
    localStorage.setItem("token", "t.o.k");
    handler = (url) =>
      url.startsWith("/api/documents/uploadLink")
        ? { status: 200, body: { presignedUrl: "https://uploads.example/put?sig=1", s3Key: "uploads/u1/x.pdf" } }
        : { status: 200, body: { status: "pending", fileId: "f9" } };
    const progress: number[] = [];
    const result = await uploadPdf(pdf(), (p) => progress.push(p));

    expect(result).toEqual({ status: "pending", fileId: "f9", s3Key: "uploads/u1/x.pdf" });
    expect(requests[0]?.url).toBe("/api/documents/uploadLink?fileName=Report.PDF&contentType=application%2Fpdf");
    expect(requests[0]?.headers.Authorization).toBe("Bearer t.o.k");
    const xhr = FakeXHR.instances[0]!;
    expect(xhr.method).toBe("PUT");
    expect(xhr.url).toBe("https://uploads.example/put?sig=1");
    expect(xhr.headers).toEqual({ "Content-Type": "application/pdf" });
    expect(xhr.body).toBeInstanceOf(File);
    expect(progress).toEqual([0, 50, 100]);
    expect(requests[1]).toMatchObject({ method: "POST", url: "/api/documents/index", body: { s3_key: "uploads/u1/x.pdf" } });
  });

  it("rejects non-PDF files before any call", async () => {
    await expect(uploadPdf(new File(["x"], "notes.txt", { type: "text/plain" }), () => {})).rejects.toThrow(
      "Only PDF files can be uploaded.",
    );
    await expect(uploadPdf(new File(["x"], "fake.pdf", { type: "image/png" }), () => {})).rejects.toThrow(
      "Only PDF files can be uploaded.",
    );
    expect(requests).toHaveLength(0);
  });

  it("accepts an empty type with a .pdf name", async () => {
    handler = (url) =>
      url.startsWith("/api/documents/uploadLink")
        ? { status: 200, body: { presignedUrl: "https://u/p", s3Key: "k" } }
        : { status: 200, body: { status: "pending", fileId: "f1" } };
    await expect(uploadPdf(new File(["x"], "a.pdf", { type: "" }), () => {})).resolves.toMatchObject({ fileId: "f1" });
  });

  it("fails when the link or key is missing", async () => {
    handler = () => ({ status: 200, body: { presignedUrl: "https://u/p" } });
    await expect(uploadPdf(pdf(), () => {})).rejects.toThrow("Presigned URL or S3 key not received.");
    expect(FakeXHR.instances).toHaveLength(0);
  });

  it("reports the upload's JSON message, or S3 upload failed.", async () => {
    handler = () => ({ status: 200, body: { presignedUrl: "https://u/p", s3Key: "k" } });
    FakeXHR.onSend = (xhr) => xhr.respond(413, JSON.stringify({ status: "error", message: "Too large." }));
    await expect(uploadPdf(pdf(), () => {})).rejects.toThrow("Too large.");
    FakeXHR.onSend = (xhr) => xhr.respond(403, "<Error>expired</Error>");
    await expect(uploadPdf(pdf(), () => {})).rejects.toThrow("S3 upload failed.");
    FakeXHR.onSend = (xhr) => xhr.onerror?.();
    await expect(uploadPdf(pdf(), () => {})).rejects.toThrow("S3 upload failed.");
    expect(requests.some((r) => r.url === "/api/documents/index")).toBe(false);
  });

  it("sends the file once more when the connection or the server drops it, and not after a refusal", async () => {
    handler = (url) =>
      url.startsWith("/api/documents/uploadLink")
        ? { status: 200, body: { presignedUrl: "https://u/p", s3Key: "k" } }
        : { status: 200, body: { status: "pending", fileId: "f1" } };
    let sends = 0;
    FakeXHR.onSend = (xhr) => (++sends === 1 ? xhr.onerror?.() : xhr.respond(200, ""));
    await expect(uploadPdf(pdf(), () => {})).resolves.toMatchObject({ fileId: "f1" });
    expect(FakeXHR.instances).toHaveLength(2);
    sends = 0;
    FakeXHR.onSend = (xhr) => (++sends === 1 ? xhr.respond(500, "<html>fetch failed</html>") : xhr.respond(200, ""));
    await expect(uploadPdf(pdf(), () => {})).resolves.toMatchObject({ fileId: "f1" });
    // dropped twice: the user is told
    FakeXHR.onSend = (xhr) => xhr.onerror?.();
    await expect(uploadPdf(pdf(), () => {})).rejects.toThrow("S3 upload failed.");
    // a refusal is not sent again
    FakeXHR.instances = [];
    FakeXHR.onSend = (xhr) => xhr.respond(413, JSON.stringify({ status: "error", message: "Too large." }));
    await expect(uploadPdf(pdf(), () => {})).rejects.toThrow("Too large.");
    expect(FakeXHR.instances).toHaveLength(1);
  });

  it("gives up an upload that stalls for a minute, and not one that keeps sending", async () => {
    vi.useFakeTimers();
    handler = () => ({ status: 200, body: { presignedUrl: "https://u/p", s3Key: "k" } });
    FakeXHR.onSend = () => {};
    const stalled = uploadPdf(pdf(), () => {});
    const outcome = expect(stalled).rejects.toThrow("S3 upload failed.");
    await vi.waitFor(() => expect(FakeXHR.instances).toHaveLength(1));
    const xhr = FakeXHR.instances[0]!;
    // bytes still flowing: each progress event restarts the minute
    await vi.advanceTimersByTimeAsync(50_000);
    xhr.progress(10, 100);
    await vi.advanceTimersByTimeAsync(50_000);
    expect(xhr.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(xhr.aborted).toBe(true);
    await outcome;
    expect(requests.some((r) => r.url === "/api/documents/index")).toBe(false);
  });
});

// ---------------------------------------------------------------- the page

describe("My Files page", () => {
  it("asks anonymous visitors to log in and loads nothing", () => {
    renderPage();
    expect(screen.getByRole("heading", { name: "My Files" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Log in" }).getAttribute("href")).toBe("/app/auth/login");
    expect(screen.getByText(/to upload and manage your documents\./)).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Upload file/ })).toBeNull();
    expect(requests).toHaveLength(0);
  });

  it("renders the rows from the list call", async () => {
    signIn();
    serveList(listOf(SAMPLE, 3));
    renderPage();

    expect(await screen.findByText("contract.pdf")).toBeTruthy();
    expect(listCalls()[0]?.url).toBe("/api/documents?pageSize=10&pageNumber=1");
    const headers = screen.getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers).toEqual(["Name", "Status", "Uploaded Date", "Last opened", "Actions"]);

    const contract = screen.getByRole("row", { name: /contract\.pdf/ });
    expect(within(contract).getByText("Indexed")).toBeTruthy();
    expect(within(contract).getByText("Nov 02, 2026")).toBeTruthy();
    expect(within(contract).getByText("Nov 05, 2026")).toBeTruthy();

    const scan = screen.getByRole("row", { name: /scan\.pdf/ });
    expect(within(scan).getByText("Failed")).toBeTruthy();
    expect(within(scan).getByText(/No text found/)).toBeTruthy();
    expect(within(scan).getByText("Oct 15, 2026")).toBeTruthy();
    expect(within(scan).getByText("—")).toBeTruthy();

    expect(within(screen.getByRole("row", { name: /notes\.pdf/ })).getByText("Processing")).toBeTruthy();
    expect(screen.getByText("Page 1 of 3")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Previous" }) as HTMLButtonElement).disabled).toBe(true);

    expect(screen.getByRole("button", { name: /Upload file/ })).toBeTruthy();
    // not connected (the status call answers nothing useful here): the button starts the connection
    const drive = (await screen.findByRole("button", { name: /Connect to cloud drive/ })) as HTMLButtonElement;
    expect(drive.disabled).toBe(false);
  });

  it("reads the list once more when the connection drops the first read, and not after the server's own error", async () => {
    signIn();
    let reads = 0;
    // a cold local runtime resets the first read (fetch fails); a proxy's page has no JSON body
    const dropped = [() => Promise.reject(new TypeError("Failed to fetch")), () => ({ status: 502, body: null })];
    for (const drop of dropped) {
      reads = 0;
      handler = (url) => (url.startsWith("/api/documents?") && reads++ === 0 ? drop() : { status: 200, body: listOf(SAMPLE) });
      const { unmount } = renderPage();
      expect(await screen.findByText("contract.pdf")).toBeTruthy();
      expect(reads).toBe(2);
      expect(screen.queryByText("Could not load your files. Please try again.")).toBeNull();
      unmount();
    }

    reads = 0;
    handler = (url) =>
      url.startsWith("/api/documents?") && ++reads ? { status: 500, body: { message: "Internal error." } } : { status: 200, body: {} };
    renderPage();
    expect(await screen.findByText("Could not load your files. Please try again.")).toBeTruthy();
    expect(reads).toBe(1);
  });

  it("pages with Next", async () => {
    signIn();
    serveList(listOf(SAMPLE, 2));
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole("button", { name: "Next" }));
    await waitFor(() => expect(listCalls().at(-1)?.url).toBe("/api/documents?pageSize=10&pageNumber=2"));
    expect(await screen.findByText("Page 2 of 2")).toBeTruthy();
  });

  it("toggles selection on row click and keyboard, with the selection bar", async () => {
    signIn();
    serveList(listOf(SAMPLE));
    const user = userEvent.setup();
    renderPage();
    const contract = (await screen.findByText("contract.pdf")).closest("tr")!;
    const scan = screen.getByText("scan.pdf").closest("tr")!;
    expect(screen.queryByRole("toolbar", { name: "Selected files" })).toBeNull();

    await user.click(contract);
    expect(contract.getAttribute("aria-selected")).toBe("true");
    expect(screen.getByText("1 selected")).toBeTruthy();

    scan.focus();
    await user.keyboard("{Enter}");
    expect(scan.getAttribute("aria-selected")).toBe("true");
    expect(screen.getByText("2 selected")).toBeTruthy();
    await user.keyboard(" ");
    expect(scan.getAttribute("aria-selected")).toBe("false");
    expect(screen.getByText("1 selected")).toBeTruthy();

    await user.click(contract);
    expect(contract.getAttribute("aria-selected")).toBe("false");
    expect(screen.queryByText(/selected$/)).toBeNull();

    await user.click(contract);
    await user.click(scan);
    const bar = screen.getByRole("toolbar", { name: "Selected files" });
    expect(within(bar).getByText("2 selected")).toBeTruthy();
    expect(within(bar).getByRole("button", { name: "View all" })).toBeTruthy();
    expect(within(bar).getByRole("button", { name: "Delete all" })).toBeTruthy();
    await user.click(within(bar).getByRole("button", { name: "Clear selection" }));
    expect(screen.queryByRole("toolbar", { name: "Selected files" })).toBeNull();
    expect(contract.getAttribute("aria-selected")).toBe("false");
  });

  it("opens the row menu without selecting, closes it on Escape and outside click, and views", async () => {
    signIn();
    serveList(listOf(SAMPLE), (url) =>
      url.startsWith("/api/documents/viewDocument")
        ? { status: 200, body: { url: "https://files.example/view/f1" } }
        : { status: 200, body: {} },
    );
    const open = vi.spyOn(window, "open").mockImplementation(() => null);
    const user = userEvent.setup();
    renderPage();
    const menuButton = await screen.findByRole("button", { name: "Actions for contract.pdf" });

    await user.click(menuButton);
    expect(screen.getByRole("menu")).toBeTruthy();
    expect(menuButton.getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByText("contract.pdf").closest("tr")!.getAttribute("aria-selected")).toBe("false");
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(menuButton);

    await user.click(menuButton);
    await user.click(screen.getByRole("heading", { name: "My Files" }));
    expect(screen.queryByRole("menu")).toBeNull();

    await user.click(menuButton);
    await user.click(screen.getByRole("menuitem", { name: "View" }));
    await waitFor(() => expect(open).toHaveBeenCalledWith("https://files.example/view/f1", "_blank", "noopener"));
    expect(requests.some((r) => r.url === "/api/documents/viewDocument?file_id=f1")).toBe(true);
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("views every selected file with View all", async () => {
    signIn();
    serveList(listOf(SAMPLE), (url) => ({ status: 200, body: { url: `https://files.example/${url.split("file_id=")[1]}` } }));
    const open = vi.spyOn(window, "open").mockImplementation(() => null);
    const user = userEvent.setup();
    renderPage();
    await user.click((await screen.findByText("contract.pdf")).closest("tr")!);
    await user.click(screen.getByText("scan.pdf").closest("tr")!);
    await user.click(screen.getByRole("button", { name: "View all" }));
    await waitFor(() => expect(open).toHaveBeenCalledTimes(2));
    expect(open).toHaveBeenCalledWith("https://files.example/f1", "_blank", "noopener");
    expect(open).toHaveBeenCalledWith("https://files.example/f2", "_blank", "noopener");
  });

  it("deletes one file through the modal and shows its error", async () => {
    signIn();
    serveList(listOf(SAMPLE), (url, init) =>
      init?.method === "DELETE"
        ? { status: 200, body: { status: "error", deleted: [], errors: [{ error: "File not found.", file_hash: "h1" }] } }
        : { status: 200, body: {} },
    );
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole("button", { name: "Actions for contract.pdf" }));
    await user.click(screen.getByRole("menuitem", { name: "Delete" }));

    const dialog = screen.getByRole("dialog", { name: "Delete file" });
    expect(
      within(dialog).getByText("Are you sure you want to delete this file? The file will be deleted and you can't revert this action."),
    ).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toBeTruthy();
    const listsBefore = listCalls().length;
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));

    expect((await within(dialog).findByRole("alert")).textContent).toBe("File not found.");
    const del = requests.find((r) => r.method === "DELETE")!;
    expect(del.url).toBe("/api/documents");
    expect(del.body).toEqual({ file_hashes: ["h1"] });
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(listsBefore));

    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("deletes an upload whose file never arrived (no hash) by its id", async () => {
    signIn();
    const abandoned = file({
      fileId: "f9",
      fileName: "never-arrived.pdf",
      fileHash: null,
      status: "uploading",
      createdAt: day(2026, 11, 1),
    });
    serveList(listOf([abandoned]), (_url, init) =>
      init?.method === "DELETE" ? { status: 200, body: { status: "success", deleted: ["f9"], errors: [] } } : { status: 200, body: {} },
    );
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole("button", { name: "Actions for never-arrived.pdf" }));
    const del = screen.getByRole("menuitem", { name: "Delete" });
    expect((del as HTMLButtonElement).disabled).toBe(false);
    await user.click(del);
    await user.click(within(screen.getByRole("dialog", { name: "Delete file" })).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(requests.find((r) => r.method === "DELETE")?.body).toEqual({ file_hashes: [], file_ids: ["f9"] });
  });

  it("shows Deleting... while loading, then closes, clears the selection and refetches", async () => {
    signIn();
    let finish: (r: Reply) => void = () => {};
    serveList(listOf(SAMPLE));
    const list = handler;
    handler = (url, init) => (init?.method === "DELETE" ? new Promise<Reply>((resolve) => (finish = resolve)) : list(url, init));
    const user = userEvent.setup();
    renderPage();
    await user.click((await screen.findByText("contract.pdf")).closest("tr")!);
    await user.click(screen.getByRole("button", { name: "Delete all" }));
    const dialog = screen.getByRole("dialog", { name: "Delete file" });
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));

    const busy = await within(dialog).findByRole("button", { name: "Deleting..." });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    const listsBefore = listCalls().length;
    await act(async () => finish({ status: 200, body: { status: "success", deleted: ["h1"], errors: [] } }));

    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(requests.find((r) => r.method === "DELETE")?.body).toEqual({ file_hashes: ["h1"] });
    expect(screen.queryByRole("toolbar", { name: "Selected files" })).toBeNull();
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(listsBefore));
  });

  it("lists failures as name: error and the successes when deleting several", async () => {
    signIn();
    serveList(listOf(SAMPLE), (url, init) =>
      init?.method === "DELETE"
        ? {
            status: 200,
            body: { status: "partial", deleted: ["h1"], errors: [{ error: "File not found.", file_hash: "h2" }] },
          }
        : { status: 200, body: {} },
    );
    const user = userEvent.setup();
    renderPage();
    await user.click((await screen.findByText("contract.pdf")).closest("tr")!);
    await user.click(screen.getByText("scan.pdf").closest("tr")!);
    await user.click(screen.getByRole("button", { name: "Delete all" }));
    const dialog = screen.getByRole("dialog", { name: "Delete 2 files" });
    expect(dialog.textContent).toContain(
      "Are you sure you want to delete these 2 files? The files will be deleted and you can't revert this action.",
    );
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));

    const alert = await within(dialog).findByRole("alert");
    expect(within(alert).getByText("scan.pdf: File not found.")).toBeTruthy();
    expect(within(alert).getByText("contract.pdf")).toBeTruthy();
    expect(requests.find((r) => r.method === "DELETE")?.body).toEqual({ file_hashes: ["h1", "h2"] });
    // the selection is cleared after any answer
    expect(screen.queryByRole("toolbar", { name: "Selected files" })).toBeNull();
  });

  it("shows an exception's message in the modal", async () => {
    signIn();
    serveList(listOf(SAMPLE), (url, init) =>
      init?.method === "DELETE"
        ? { status: 400, body: { status: "error", message: "Select at least one file to delete." } }
        : { status: 200, body: {} },
    );
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole("button", { name: "Actions for contract.pdf" }));
    await user.click(screen.getByRole("menuitem", { name: "Delete" }));
    const dialog = screen.getByRole("dialog", { name: "Delete file" });
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Select at least one file to delete.");
  });

  it("shows a non-PDF choice in the dismissible banner without uploading", async () => {
    signIn();
    serveList(listOf(SAMPLE));
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const user = userEvent.setup({ applyAccept: false });
    renderPage();
    await screen.findByText("contract.pdf");
    await user.upload(screen.getByLabelText("Choose PDF files to upload"), new File(["hi"], "notes.txt", { type: "text/plain" }));

    const banner = await screen.findByRole("alert");
    expect(banner.textContent).toContain("Only PDF files can be uploaded.");
    expect(logged).toHaveBeenCalled();
    expect(requests.some((r) => r.url.startsWith("/api/documents/uploadLink"))).toBe(false);
    await user.click(within(banner).getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("uploads several chosen or dropped files at once, each with its own row; a non-PDF among them is refused by name", async () => {
    signIn();
    let link = 0;
    serveList(listOf(SAMPLE), (url) =>
      url.startsWith("/api/documents/uploadLink")
        ? { status: 200, body: { presignedUrl: `https://uploads.example/p${++link}`, s3Key: `k${link}` } }
        : { status: 200, body: { status: "pending", fileId: `f${link}` } },
    );
    FakeXHR.onSend = (xhr) => xhr.progress(10, 100); // uploads stay open so their rows can be seen
    vi.spyOn(console, "error").mockImplementation(() => {});
    const user = userEvent.setup({ applyAccept: false });
    renderPage();
    await screen.findByText("contract.pdf");

    await user.upload(screen.getByLabelText("Choose PDF files to upload"), [
      new File(["%PDF"], "one.pdf", { type: "application/pdf" }),
      new File(["%PDF"], "two.pdf", { type: "application/pdf" }),
    ]);
    expect((await screen.findByText("one.pdf")).closest("tr")).toBeTruthy();
    expect((await screen.findByText("two.pdf")).closest("tr")).toBeTruthy();

    const zone = document.querySelector(".drop-zone")!;
    const dropped = [new File(["%PDF"], "three.pdf", { type: "application/pdf" }), new File(["hi"], "notes.txt", { type: "text/plain" })];
    fireEvent.dragOver(zone, { dataTransfer: { types: ["Files"], files: dropped } });
    expect(screen.getByText("Drop PDFs to upload")).toBeTruthy();
    fireEvent.drop(zone, { dataTransfer: { types: ["Files"], files: dropped } });
    expect(await screen.findByText("three.pdf")).toBeTruthy();
    expect((await screen.findByRole("alert")).textContent).toContain("notes.txt: Only PDF files can be uploaded.");
    expect(requests.filter((r) => r.url.startsWith("/api/documents/uploadLink"))).toHaveLength(3);
  });

  it("shows a temporary uploading row with progress, then refetches", async () => {
    signIn();
    serveList(listOf(SAMPLE), (url) =>
      url.startsWith("/api/documents/uploadLink")
        ? { status: 200, body: { presignedUrl: "https://uploads.example/p", s3Key: "k1" } }
        : { status: 200, body: { status: "pending", fileId: "f10" } },
    );
    let pending: FakeXHR | undefined;
    FakeXHR.onSend = (xhr) => {
      pending = xhr;
      xhr.progress(42, 100);
    };
    const user = userEvent.setup();
    renderPage();
    await screen.findByText("contract.pdf");
    const listsBefore = listCalls().length;
    await user.upload(screen.getByLabelText("Choose PDF files to upload"), new File(["%PDF"], "new.pdf", { type: "application/pdf" }));

    const row = (await screen.findByText("new.pdf")).closest("tr")!;
    expect(within(row).getByText("Uploading 42%")).toBeTruthy();
    expect(within(row).getByRole("progressbar").getAttribute("aria-valuenow")).toBe("42");
    expect(screen.getAllByRole("row")[1]).toBe(row); // at the top
    expect(row.getAttribute("tabindex")).toBeNull();
    expect(within(row).queryByRole("button")).toBeNull();

    await act(async () => pending!.respond(200, ""));
    await waitFor(() => expect(screen.queryByText("new.pdf")).toBeNull());
    expect(requests.find((r) => r.url === "/api/documents/index")?.body).toEqual({ s3_key: "k1" });
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(listsBefore));
  });

  it("removes the temporary row and shows the error when the upload fails", async () => {
    signIn();
    serveList(listOf(SAMPLE), () => ({ status: 403, body: { status: "error", message: "Upload quota reached." } }));
    vi.spyOn(console, "error").mockImplementation(() => {});
    const user = userEvent.setup();
    renderPage();
    await screen.findByText("contract.pdf");
    await user.upload(screen.getByLabelText("Choose PDF files to upload"), new File(["%PDF"], "new.pdf", { type: "application/pdf" }));
    expect((await screen.findByRole("alert")).textContent).toContain("Upload quota reached.");
    expect(screen.queryByText("new.pdf")).toBeNull();
  });

  it("falls back to reading the list every 30 s (not every 5 s) while a file is pending or processing, and stops on unmount", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    signIn();
    serveList(listOf(SAMPLE)); // notes.pdf is processing
    const { unmount } = renderPage();
    await screen.findByText("contract.pdf");
    expect(listCalls()).toHaveLength(1);

    await act(async () => vi.advanceTimersByTime(29_000));
    expect(listCalls()).toHaveLength(1); // its progress is pushed: no read in between
    await act(async () => vi.advanceTimersByTime(1_000));
    await waitFor(() => expect(listCalls()).toHaveLength(2));
    await act(async () => vi.advanceTimersByTime(30_000));
    await waitFor(() => expect(listCalls()).toHaveLength(3));

    unmount();
    vi.advanceTimersByTime(60_000);
    expect(listCalls()).toHaveLength(3);
  });

  it("follows a file's indexing from the progress pushed over the chat connection, and reads the list again when it ends", async () => {
    signIn();
    const sent: unknown[] = [];
    setChatConnection({ send: (message: unknown) => sent.push(message) > 0 } as unknown as RealtimeConnection);
    const draft = file({ fileId: "f4", fileName: "draft.pdf", fileHash: "h4", status: "pending", pageCount: null });
    serveList(listOf([draft, SAMPLE[0]!]));
    const told = (status: FileProgress["status"], pagesDone: number): FileProgress => ({
      fileId: "f4",
      fileName: "draft.pdf",
      status,
      pagesDone,
      pagesTotal: 450,
      error: null,
      ocrPages: [],
    });
    try {
      const { unmount } = renderPage();
      const row = () => screen.getByText("draft.pdf").closest("tr")!;
      await screen.findByText("draft.pdf");
      expect(within(row()).getByText("Pending")).toBeTruthy();
      // My Files asks to be told, naming the file it waits on
      expect(sent).toEqual([{ action: "watch_files", watch: true, file_ids: ["f4"] }]);

      act(() => handleServerMessage({ type: "file_progress", files: [told("processing", 25)] }));
      expect(within(row()).getByText("Processing")).toBeTruthy();
      act(() => handleServerMessage({ type: "file_progress", files: [told("processing", 125)] }));
      expect(listCalls()).toHaveLength(1); // followed without a request

      // indexed: the row says so at once, and the page is read again (the server's whole row)
      serveList(listOf([{ ...draft, status: "indexed", pageCount: 450 }, SAMPLE[0]!]));
      act(() => handleServerMessage({ type: "file_progress", files: [told("indexed", 450)] }));
      expect(within(row()).getByText("Indexed")).toBeTruthy();
      await waitFor(() => expect(listCalls()).toHaveLength(2));
      // nothing left being indexed: the watch ends; an older word pushed late changes nothing
      await waitFor(() => expect(sent.at(-1)).toEqual({ action: "watch_files", watch: false }));
      act(() => handleServerMessage({ type: "file_progress", files: [told("processing", 400)] }));
      expect(within(row()).getByText("Indexed")).toBeTruthy();
      unmount();
    } finally {
      setChatConnection(null);
    }
  });

  it("asks again for the progress it watches when the chat connection opens again", () => {
    const sent: unknown[] = [];
    const connection = { send: (message: unknown) => sent.push(message) > 0 } as unknown as RealtimeConnection;
    watchFiles(["f7"]);
    rewatchFiles(connection);
    watchFiles(null);
    rewatchFiles(connection);
    expect(sent).toEqual([{ action: "watch_files", watch: true, file_ids: ["f7"] }]);
  });

  it("does not refresh when nothing is pending or processing", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    signIn();
    serveList(listOf([SAMPLE[0]!, SAMPLE[1]!]));
    renderPage();
    await screen.findByText("contract.pdf");
    await act(async () => vi.advanceTimersByTime(15000));
    expect(listCalls()).toHaveLength(1);
  });
});

describe("searching My Files", () => {
  it("asks the server for names containing the text once typing pauses, from page 1, and says when nothing matches", async () => {
    signIn();
    handler = (url) => {
      if (!url.startsWith("/api/documents?")) return { status: 200, body: {} };
      const search = new URL(url, "http://x").searchParams.get("search");
      if (search === "contr") return { status: 200, body: listOf([SAMPLE[0]!]) };
      if (search === "zzz") return { status: 200, body: listOf([]) };
      return { status: 200, body: listOf(SAMPLE) };
    };
    const user = userEvent.setup();
    renderPage();
    await screen.findByText("scan.pdf");
    const box = screen.getByRole("searchbox", { name: "Search files by name" });
    await user.type(box, "contr");
    await waitFor(() => expect(screen.queryByText("scan.pdf")).toBeNull());
    expect(screen.getByText("contract.pdf")).toBeTruthy();
    // one request for the whole word typed, not one per letter
    const searches = listCalls().filter((r) => r.url.includes("search="));
    expect(searches.map((r) => new URL(r.url, "http://x").searchParams.get("search"))).toEqual(["contr"]);
    expect(new URL(searches[0]!.url, "http://x").searchParams.get("pageNumber")).toBe("1");

    await user.clear(box);
    await user.type(box, "zzz");
    expect(await screen.findByText("No files match “zzz”.")).toBeTruthy();
    await user.clear(box);
    expect(await screen.findByText("scan.pdf")).toBeTruthy();
  });
});
