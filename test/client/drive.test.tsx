// Proves the Google sign-in and Google Drive client follows the spec (sections
// 2, 4, 5, 7, 8 and 9): "Continue with Google" remembers the flow (authInfo) and
// leaves for the sign-in endpoint; the sign-up-success page confirms the token
// with a bearer signinStatus call, stores the session and goes to redirectTo
// (or the root on failure), or shows the Login/Sign Up error; the
// drive-connected page; the picker (File is required., Importing..., the
// counts, the red badge, single choice in chat -> pending attachment); the My
// Files button and its 10 s re-check, the chat menu and its 30 s re-check.
// fetch is a stub; full-page navigations go through browserNavigation.
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { FileItem, FileListResponse } from "../../worker/contract/documents";
import { AttachMenu } from "../../client/components/chat/AttachMenu";
import { DISCONNECT_QUESTION, DrivePicker } from "../../client/components/drive/DrivePicker";
import { setNavigator } from "../../client/lib/api";
import { browserNavigation } from "../../client/lib/navigation";
import Files from "../../client/pages/Files";
import GdriveConnected from "../../client/pages/GdriveConnected";
import Login from "../../client/pages/Login";
import Register from "../../client/pages/Register";
import SignUpSuccess from "../../client/pages/SignUpSuccess";
import { appInfo, newSessionId } from "../../client/state/app";
import { chatState, resetChat } from "../../client/state/chat";
import { connectChat } from "../../client/state/chatConnection";
import { awaitConnection, driveState, importStats, resetDrive, startConnect } from "../../client/state/drive";
import { userInfo } from "../../client/state/user";
import type { User } from "../../worker/contract/validation";
import { FakeWebSocket } from "../helpers/fake-websocket";
import { stubJsonFetch } from "../helpers/fetch-stub";

// ---------------------------------------------------------------- stubs

type Reply = { status: number; body: unknown };
type Handler = (url: string, init?: RequestInit) => Reply | Promise<Reply>;
let handler: Handler;
const requests: { method: string; url: string; body: unknown; headers: Record<string, string> }[] = [];
let assign: ReturnType<typeof vi.fn<(url: string) => void>>;
const forcedNavigation = vi.fn();

const ann: User = { id: "u1", email: "ann@example.com", name: "Ann", phone: "", picture: null };
const STATUS_URL = "/api/auth/google/connectionStatus";

beforeEach(() => {
  requests.length = 0;
  handler = () => ({ status: 200, body: {} });
  stubJsonFetch(requests, (url, init) => handler(url, init));
  assign = vi.fn<(url: string) => void>();
  vi.spyOn(browserNavigation, "assign").mockImplementation(assign);
  forcedNavigation.mockReset();
  setNavigator(forcedNavigation);
  userInfo.user = null;
  userInfo.chatList = [];
  resetChat();
  resetDrive();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function signIn(user: User = ann, token = "tok-ann") {
  localStorage.setItem("token", token);
  userInfo.user = user;
}

const calls = (url: string) => requests.filter((r) => r.url === url);
const TICKET_URL = "/api/auth/google/connectTicket";
const statusCalls = () => calls(STATUS_URL);

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const DRIVE_FILES = [
  { id: "d1", name: "Lease.pdf", webViewLink: "https://drive.test/d1/view" },
  { id: "d2", name: "Invoice.pdf", webViewLink: "https://drive.test/d2/view" },
  { id: "d3", name: "Notes.pdf", webViewLink: "https://drive.test/d3/view" },
];

function fileItem(overrides: Partial<FileItem>): FileItem {
  return {
    fileId: "f1",
    fileName: "a.pdf",
    status: "indexed",
    createdAt: new Date(2026, 10, 2, 12).toISOString(),
    uploadedAt: null,
    fileHash: "hash-a",
    pageCount: 3,
    error: null,
    ocrPages: [],
    ...overrides,
  };
}

function listOf(files: FileItem[]): FileListResponse {
  return { files, pagination: { pageNumber: 1, pageSize: 10, total: files.length, totalPages: 1 } };
}

// ---------------------------------------------------------------- sign-in

describe("Continue with Google", () => {
  function renderAuth(path: "/app/auth/login" | "/app/auth/register") {
    render(
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/app/auth/login" element={<Login />} />
          <Route path="/app/auth/register" element={<Register />} />
        </Routes>
      </MemoryRouter>,
    );
  }

  it("writes authInfo (login) and navigates to the sign-in endpoint", async () => {
    const user = userEvent.setup();
    renderAuth("/app/auth/login");
    const link = screen.getByRole("link", { name: "Continue with Google" });
    expect(link.getAttribute("href")).toBe("/api/auth/google/connect?action=signin");
    await user.click(link);
    expect(JSON.parse(localStorage.getItem("authInfo")!)).toEqual({ page: "/app/auth/login", type: "login" });
    expect(assign).toHaveBeenCalledExactlyOnceWith("/api/auth/google/connect?action=signin");
    expect(requests).toHaveLength(0);
  });

  it("writes authInfo (signup) on the register page", async () => {
    const user = userEvent.setup();
    renderAuth("/app/auth/register");
    await user.click(screen.getByRole("link", { name: "Continue with Google" }));
    expect(JSON.parse(localStorage.getItem("authInfo")!)).toEqual({ page: "/app/auth/register", type: "signup" });
    expect(assign).toHaveBeenCalledExactlyOnceWith("/api/auth/google/connect?action=signin");
  });
});

describe("Sign-up success page", () => {
  function renderResult(search: string) {
    return render(
      <MemoryRouter initialEntries={[`/sign-up-success${search}`]}>
        <Routes>
          <Route path="/sign-up-success" element={<SignUpSuccess />} />
          <Route path="/" element={<p>home page</p>} />
          <Route path="/dashboard" element={<p>dashboard page</p>} />
          <Route path="/app/files" element={<p>files page</p>} />
          <Route path="/app/auth/login" element={<p>login page</p>} />
          <Route path="/app/auth/register" element={<p>register page</p>} />
        </Routes>
      </MemoryRouter>,
    );
  }

  const success = {
    status: 200,
    body: { status: "success", user_info: { email: "gina@example.com", name: "Gina", picture: "https://pic.test/g.png" }, error: null },
  };

  it("confirms the token with a bearer signinStatus call, stores the session and goes to redirectTo", async () => {
    localStorage.setItem("authInfo", JSON.stringify({ page: "/app/auth/login", type: "login" }));
    window.history.replaceState(null, "", "/sign-up-success?token=jwt.g.1&redirectTo=%2Fapp%2Ffiles");
    handler = (url) => (url === "/api/auth/google/signinStatus" ? success : { status: 404, body: {} });
    renderResult("?token=jwt.g.1&redirectTo=%2Fapp%2Ffiles");
    expect(screen.getByRole("status").textContent).toContain("Signing you in...");

    expect(await screen.findByText("files page")).toBeTruthy();
    expect(requests).toHaveLength(1);
    expect(requests[0]!.url).toBe("/api/auth/google/signinStatus");
    expect(requests[0]!.headers.Authorization).toBe("Bearer jwt.g.1");
    expect(localStorage.getItem("token")).toBe("jwt.g.1");
    expect(userInfo.user).toMatchObject({ email: "gina@example.com", name: "Gina", picture: "https://pic.test/g.png" });
    expect(JSON.parse(localStorage.getItem("user")!)).toMatchObject({ email: "gina@example.com" });
    expect(appInfo.currentSessionId?.startsWith("gina@example.com-")).toBe(true);
    expect(localStorage.getItem("currentSessionId")).toBe(appInfo.currentSessionId);
    // the token no longer shows in the address bar
    expect(window.location.search).not.toContain("token");
    expect(window.location.search).toContain("redirectTo");
    window.history.replaceState(null, "", "/");
  });

  it("goes to /dashboard without a redirectTo", async () => {
    handler = () => success;
    renderResult("?token=jwt.g.2");
    expect(await screen.findByText("dashboard page")).toBeTruthy();
  });

  it.each(["//evil.test/x", "/\t/evil.test", "/\n/evil.test", "/\\evil.test", "https://evil.test/"])(
    "ignores a redirectTo that leaves the site (%j)",
    async (redirectTo) => {
      handler = () => success;
      renderResult(`?token=jwt.g.3&redirectTo=${encodeURIComponent(redirectTo)}`);
      expect(await screen.findByText("dashboard page")).toBeTruthy();
      expect(localStorage.getItem("token")).toBe("jwt.g.3");
    },
  );

  it("goes silently to the root on a 401 (logged, nothing stored, no logout flow)", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    handler = () => ({ status: 401, body: { status: "error", user_info: null, error: "Unauthorized" } });
    renderResult("?token=bad.token&redirectTo=/app/files");
    expect(await screen.findByText("home page")).toBeTruthy();
    expect(requests[0]!.headers.Authorization).toBe("Bearer bad.token");
    expect(localStorage.getItem("token")).toBeNull();
    expect(userInfo.user).toBeNull();
    expect(logged).toHaveBeenCalled();
    expect(forcedNavigation).not.toHaveBeenCalled();
  });

  it("goes to the root when the answer is not a success", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    handler = () => ({ status: 200, body: { status: "error", user_info: null, error: "nope" } });
    renderResult("?token=jwt.g.4");
    expect(await screen.findByText("home page")).toBeTruthy();
    expect(localStorage.getItem("token")).toBeNull();
  });

  it("shows Login Error with a link back to login when authInfo says login", () => {
    localStorage.setItem("authInfo", JSON.stringify({ page: "/app/auth/login", type: "login" }));
    renderResult(`?error=${encodeURIComponent("Access was denied.")}`);
    expect(screen.getByRole("heading", { name: "Login Error" })).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toBe("Access was denied.");
    expect(screen.getByRole("link", { name: "Back to login" }).getAttribute("href")).toBe("/app/auth/login");
    expect(requests).toHaveLength(0);
  });

  it("shows Sign Up Error with a link back to sign up when authInfo says signup", () => {
    localStorage.setItem("authInfo", JSON.stringify({ page: "/app/auth/register", type: "signup" }));
    renderResult(`?error=${encodeURIComponent("Email already used.")}`);
    expect(screen.getByRole("heading", { name: "Sign Up Error" })).toBeTruthy();
    expect(screen.getByText("Email already used.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Back to sign up" }).getAttribute("href")).toBe("/app/auth/register");
  });

  it("shows the loading indicator with neither token nor error", () => {
    renderResult("");
    expect(screen.getByRole("status").textContent).toContain("Signing you in...");
    expect(requests).toHaveLength(0);
  });
});

// ---------------------------------------------------------------- drive connected page

describe("Drive connected page", () => {
  function renderConnected(search: string) {
    return render(
      <MemoryRouter initialEntries={[`/gdrive-connected${search}`]}>
        <Routes>
          <Route path="/gdrive-connected" element={<GdriveConnected />} />
          <Route path="/app/files" element={<p>files page</p>} />
        </Routes>
      </MemoryRouter>,
    );
  }

  it("checks the connection and goes to My Files when connected", async () => {
    signIn();
    const answer = deferred<Reply>();
    handler = (url) => (url === STATUS_URL ? answer.promise : { status: 404, body: {} });
    renderConnected("");
    expect(screen.getByRole("status").textContent).toContain("Checking your Google Drive connection...");
    answer.resolve({ status: 200, body: { status: "connected" } });
    expect(await screen.findByText("files page")).toBeTruthy();
    expect(statusCalls()[0]!.headers.Authorization).toBe("Bearer tok-ann");
    expect(driveState.connected).toBe(true);
  });

  it("shows the error page with the message and a link back, without a status call", () => {
    signIn();
    renderConnected(`?error=${encodeURIComponent("Access was denied.")}`);
    expect(screen.getByRole("heading", { name: "Connect to Google Drive Error" })).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toBe("Access was denied.");
    expect(screen.getByRole("link", { name: "Back to My Files" }).getAttribute("href")).toBe("/app/files");
    expect(statusCalls()).toHaveLength(0);
    expect(driveState.connected).toBe(false);
  });

  it("says so when not connected yet and keeps waiting (loading)", async () => {
    signIn();
    handler = () => ({ status: 200, body: { status: "not_connected" } });
    renderConnected("");
    expect(await screen.findByText(/not connected yet/)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Back to My Files" }).getAttribute("href")).toBe("/app/files");
    expect(driveState.connected).toBe("loading");
  });
});

// ---------------------------------------------------------------- picker

describe("Drive picker", () => {
  it("lists files with View in the drive links and Load more", async () => {
    signIn();
    handler = (url) => {
      if (url === "/api/drive/files") return { status: 200, body: { files: DRIVE_FILES.slice(0, 2), nextPageToken: "p2" } };
      if (url === "/api/drive/files?pageToken=p2") return { status: 200, body: { files: DRIVE_FILES.slice(2) } };
      return { status: 404, body: {} };
    };
    const user = userEvent.setup();
    render(<DrivePicker mode="multi" onClose={() => {}} />);
    const dialog = screen.getByRole("dialog", { name: "Select files from Google Drive" });
    expect(await within(dialog).findByText("Lease.pdf")).toBeTruthy();
    const view = within(dialog).getByRole("link", { name: "View Lease.pdf in the drive" });
    expect(view.textContent).toBe("View in the drive");
    expect(view.getAttribute("href")).toBe("https://drive.test/d1/view");
    expect(view.getAttribute("target")).toBe("_blank");
    expect(view.getAttribute("rel")).toContain("noopener");
    expect(within(dialog).queryByText("Notes.pdf")).toBeNull();

    await user.click(within(dialog).getByRole("button", { name: "Load more" }));
    expect(await within(dialog).findByText("Notes.pdf")).toBeTruthy();
    expect(within(dialog).getAllByRole("checkbox")).toHaveLength(3);
    expect(within(dialog).queryByRole("button", { name: "Load more" })).toBeNull();
  });

  it("refuses an empty import, then imports with Importing... and shows the message and counts", async () => {
    signIn();
    const importAnswer = deferred<Reply>();
    const onImported = vi.fn();
    handler = (url) => {
      if (url === "/api/drive/files") return { status: 200, body: { files: DRIVE_FILES } };
      if (url === "/api/drive/import") return importAnswer.promise;
      return { status: 404, body: {} };
    };
    const user = userEvent.setup();
    render(<DrivePicker mode="multi" onClose={() => {}} onImported={onImported} />);
    const dialog = screen.getByRole("dialog");
    await within(dialog).findByText("Lease.pdf");

    await user.click(within(dialog).getByRole("button", { name: "Import to the product" }));
    expect(within(dialog).getByRole("alert").textContent).toBe("File is required.");
    expect(calls("/api/drive/import")).toHaveLength(0);

    await user.click(within(dialog).getByRole("checkbox", { name: "Lease.pdf" }));
    expect(within(dialog).queryByText("File is required.")).toBeNull();
    await user.click(within(dialog).getByRole("checkbox", { name: "Invoice.pdf" }));
    await user.click(within(dialog).getByRole("checkbox", { name: "Notes.pdf" }));
    await user.click(within(dialog).getByRole("checkbox", { name: "Notes.pdf" })); // unchecked again
    await user.click(within(dialog).getByRole("button", { name: "Import to the product" }));

    expect(within(dialog).getByRole("button", { name: "Importing..." })).toBeTruthy();
    expect(within(dialog).getByText("Indexing selected files...")).toBeTruthy();
    expect(calls("/api/drive/import")[0]!.body).toEqual({ file_ids: ["d1", "d2"] });

    importAnswer.resolve({
      status: 200,
      body: {
        status: "partial",
        message: "2 files imported, 1 failed.",
        results: [
          { file_id: "d1", status: "indexed", fileId: "f1", s3_key: "uploads/u1/lease.pdf", duplicate: true },
          { file_id: "d2", status: "pending", fileId: "f2", s3_key: "uploads/u1/invoice.pdf" },
        ],
        errors: [{ file_id: "d3", error: "Larger than 25 MB: this file is too large to upload." }],
      },
    });
    const result = await within(dialog).findByText(/2 files imported, 1 failed\./);
    expect(result.textContent).toContain("Indexed: 1, Failed: 1, Pending: 1");
    // the file that failed, by name and why, in a red badge
    const failed = within(dialog).getByRole("alert");
    expect(failed.textContent).toBe("Notes.pdf: Larger than 25 MB: this file is too large to upload.");
    expect(failed.className).toContain("badge-error");
    expect(onImported).toHaveBeenCalledTimes(1);
    expect(within(dialog).getByRole("button", { name: "Import to the product" })).toBeTruthy();
    expect((within(dialog).getByRole("checkbox", { name: "Lease.pdf" }) as HTMLInputElement).checked).toBe(false);
  });

  it("shows a failed import in a red badge", async () => {
    signIn();
    vi.spyOn(console, "error").mockImplementation(() => {});
    handler = (url) => {
      if (url === "/api/drive/files") return { status: 200, body: { files: DRIVE_FILES } };
      if (url === "/api/drive/import") return { status: 409, body: { status: "error", message: "Google Drive is not connected." } };
      return { status: 404, body: {} };
    };
    driveState.connected = true;
    const user = userEvent.setup();
    render(<DrivePicker mode="multi" onClose={() => {}} />);
    const dialog = screen.getByRole("dialog");
    await user.click(await within(dialog).findByRole("checkbox", { name: "Invoice.pdf" }));
    await user.click(within(dialog).getByRole("button", { name: "Import to the product" }));
    const badge = await within(dialog).findByRole("alert");
    expect(badge.textContent).toBe("Google Drive is not connected.");
    expect(badge.className).toContain("badge-error");
    expect(driveState.connected).toBe(false); // a 409 means the connection is gone
  });

  it("focuses the first file once the list arrives, and Disconnect Google Drive asks first, then deletes the connection and closes the picker", async () => {
    signIn();
    driveState.connected = true;
    const onClose = vi.fn();
    handler = (url, init) => {
      if (url === "/api/drive/files") return { status: 200, body: { files: DRIVE_FILES } };
      if (url === "/api/drive/connection" && init?.method === "DELETE")
        return { status: 200, body: { status: "success", message: "Google Drive disconnected." } };
      return { status: 404, body: {} };
    };
    const user = userEvent.setup();
    render(<DrivePicker mode="multi" onClose={onClose} />);
    const dialog = screen.getByRole("dialog");
    await within(dialog).findByText("Lease.pdf");
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getAllByRole("checkbox")[0]));
    const confirm = vi.fn().mockReturnValueOnce(false).mockReturnValueOnce(true);
    vi.stubGlobal("confirm", confirm);
    await user.click(within(dialog).getByRole("button", { name: "Disconnect Google Drive" }));
    expect(confirm).toHaveBeenCalledWith(DISCONNECT_QUESTION);
    expect(requests.some((r) => r.method === "DELETE")).toBe(false);
    expect(onClose).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole("button", { name: "Disconnect Google Drive" }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(requests.some((r) => r.method === "DELETE" && r.url === "/api/drive/connection")).toBe(true);
    expect(driveState.connected).toBe(false);
  });

  it("counts results by status, errors as failed", () => {
    expect(
      importStats({
        results: [
          { file_id: "a", status: "indexed", fileId: "1", s3_key: "k1" },
          { file_id: "b", status: "processing", fileId: "2", s3_key: "k2" },
          { file_id: "c", status: "pending", fileId: "3", s3_key: "k3" },
          { file_id: "d", status: "failed", fileId: "4", s3_key: "k4" },
        ],
        errors: [{ file_id: "e", error: "x" }],
      }),
    ).toEqual({ indexed: 1, failed: 2, pending: 2 });
  });
});

// ---------------------------------------------------------------- chat attach menu

describe("Chat attach menu", () => {
  let disconnect: () => void = () => {};
  beforeEach(async () => {
    appInfo.currentSessionId = newSessionId(ann.email);
    FakeWebSocket.instances = [];
    vi.stubGlobal("WebSocket", FakeWebSocket);
    disconnect = connectChat(appInfo.currentSessionId);
    await FakeWebSocket.instances[0]!.open();
  });
  afterEach(() => {
    disconnect();
    vi.unstubAllGlobals();
  });
  const setFilesFrames = () => FakeWebSocket.instances[0]!.frames().filter((f) => f.action === "set_files");

  it("Add from drive: one file, imported and added to the chat's documents", async () => {
    signIn();
    handler = (url) => {
      if (url === STATUS_URL) return { status: 200, body: { status: "connected" } };
      if (url === "/api/drive/files") return { status: 200, body: { files: DRIVE_FILES } };
      if (url === "/api/drive/import")
        return {
          status: 200,
          body: {
            status: "success",
            message: "1 file imported.",
            results: [{ file_id: "d2", status: "pending", fileId: "f22", s3_key: "uploads/u1/invoice-key.pdf" }],
            errors: [],
          },
        };
      return { status: 404, body: {} };
    };
    const user = userEvent.setup();
    render(<AttachMenu />);
    await waitFor(() => expect(driveState.connected).toBe(true));
    await user.click(screen.getByRole("button", { name: "Attach a file" }));
    const menu = screen.getByRole("menu");
    expect(within(menu).getByRole("menuitem", { name: "Upload file" })).toBeTruthy();
    expect(within(menu).queryByRole("menuitem", { name: "Connect to drive" })).toBeNull();
    await user.click(within(menu).getByRole("menuitem", { name: "Add from drive" }));

    const dialog = screen.getByRole("dialog", { name: "Select files from Google Drive" });
    await within(dialog).findByText("Lease.pdf");
    expect(within(dialog).queryAllByRole("checkbox")).toHaveLength(0);
    await user.click(within(dialog).getByRole("button", { name: "Select in chat" }));
    expect(within(dialog).getByRole("alert").textContent).toBe("File is required.");
    expect(calls("/api/drive/import")).toHaveLength(0);

    await user.click(within(dialog).getByRole("radio", { name: "Lease.pdf" }));
    await user.click(within(dialog).getByRole("radio", { name: "Invoice.pdf" }));
    expect((within(dialog).getByRole("radio", { name: "Lease.pdf" }) as HTMLInputElement).checked).toBe(false);
    await user.click(within(dialog).getByRole("button", { name: "Select in chat" }));

    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(calls("/api/drive/import")[0]!.body).toEqual({ file_ids: ["d2"] });
    expect(setFilesFrames()).toEqual([
      { action: "set_files", session_id: appInfo.currentSessionId, file_ids: ["f22"], token: expect.any(String) },
    ]);
    expect(chatState.newFileIds).toEqual(["f22"]);
  });

  it("keeps the picker open with a red badge when the chosen file fails", async () => {
    signIn();
    handler = (url) => {
      if (url === STATUS_URL) return { status: 200, body: { status: "connected" } };
      if (url === "/api/drive/files") return { status: 200, body: { files: DRIVE_FILES } };
      if (url === "/api/drive/import")
        return {
          status: 200,
          body: {
            status: "error",
            message: "No files were imported.",
            results: [],
            errors: [{ file_id: "d1", error: "This file is too large." }],
          },
        };
      return { status: 404, body: {} };
    };
    const user = userEvent.setup();
    render(<AttachMenu />);
    await waitFor(() => expect(driveState.connected).toBe(true));
    await user.click(screen.getByRole("button", { name: "Attach a file" }));
    await user.click(screen.getByRole("menuitem", { name: "Add from drive" }));
    const dialog = screen.getByRole("dialog");
    await user.click(await within(dialog).findByRole("radio", { name: "Lease.pdf" }));
    await user.click(within(dialog).getByRole("button", { name: "Select in chat" }));
    const badge = await within(dialog).findByRole("alert");
    expect(badge.textContent).toBe("No files were imported. This file is too large.");
    expect(setFilesFrames()).toEqual([]);
  });

  it("Connect to drive leaves for the authorization, then Verifying connection is re-checked every 30 s", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    signIn();
    let status = "not_connected";
    handler = (url) =>
      url === STATUS_URL
        ? { status: 200, body: { status } }
        : url === TICKET_URL
          ? { status: 200, body: { ticket: "ticket-1" } }
          : { status: 404, body: {} };
    const user = userEvent.setup();
    const { unmount } = render(<AttachMenu />);
    await waitFor(() => expect(statusCalls()).toHaveLength(1));
    await user.click(screen.getByRole("button", { name: "Attach a file" }));
    await user.click(await screen.findByRole("menuitem", { name: "Connect to drive" }));

    // the link carries a single-use ticket asked with the bearer token, never the token itself
    const redirect = encodeURIComponent(`${window.location.origin}/gdrive-connected`);
    await waitFor(() =>
      expect(assign).toHaveBeenCalledExactlyOnceWith(
        `/api/auth/google/connect?action=connect&authorization=ticket-1&redirect_uri=${redirect}`,
      ),
    );
    expect(calls(TICKET_URL)).toHaveLength(1);
    expect(driveState.connected).toBe("loading");

    await user.click(screen.getByRole("button", { name: "Attach a file" }));
    const verifying = screen.getByRole("menuitem", { name: "Verifying connection" }) as HTMLButtonElement;
    expect(verifying.disabled).toBe(true);

    await act(async () => vi.advanceTimersByTime(29_999));
    expect(statusCalls()).toHaveLength(1);
    await act(async () => vi.advanceTimersByTime(1));
    await waitFor(() => expect(statusCalls()).toHaveLength(2));
    expect(driveState.connected).toBe("loading"); // still waiting for the authorization

    status = "connected";
    await act(async () => vi.advanceTimersByTime(30_000));
    await waitFor(() => expect(statusCalls()).toHaveLength(3));
    expect(await screen.findByRole("menuitem", { name: "Add from drive" })).toBeTruthy();

    await act(async () => vi.advanceTimersByTime(120_000));
    expect(statusCalls()).toHaveLength(3); // connected: no more checks
    unmount();
  });
});

// ---------------------------------------------------------------- My Files

describe("My Files drive button", () => {
  function renderFiles() {
    return render(
      <MemoryRouter initialEntries={["/app/files"]}>
        <Files />
      </MemoryRouter>,
    );
  }
  const listCalls = () => requests.filter((r) => r.url.startsWith("/api/documents?"));

  it("reads Connected to cloud drive once connected, opens the multi picker and refetches after an import", async () => {
    signIn();
    handler = (url) => {
      if (url.startsWith("/api/documents?")) return { status: 200, body: listOf([fileItem({ fileId: "f1", fileName: "contract.pdf" })]) };
      if (url === STATUS_URL) return { status: 200, body: { status: "connected" } };
      if (url === "/api/drive/files") return { status: 200, body: { files: DRIVE_FILES } };
      if (url === "/api/drive/import")
        return {
          status: 200,
          body: {
            status: "success",
            message: "1 file imported.",
            results: [{ file_id: "d3", status: "pending", fileId: "f3", s3_key: "k3" }],
            errors: [],
          },
        };
      return { status: 404, body: {} };
    };
    const user = userEvent.setup();
    renderFiles();
    const button = await screen.findByRole("button", { name: /Connected to cloud drive/ });
    expect(screen.queryByRole("button", { name: /Connect to cloud drive/ })).toBeNull();
    await screen.findByText("contract.pdf");
    expect(listCalls()).toHaveLength(1);

    await user.click(button);
    const dialog = screen.getByRole("dialog", { name: "Select files from Google Drive" });
    await user.click(await within(dialog).findByRole("checkbox", { name: "Notes.pdf" }));
    await user.click(within(dialog).getByRole("button", { name: "Import to the product" }));
    expect(await within(dialog).findByText(/1 file imported\. Indexed: 0, Failed: 0, Pending: 1/)).toBeTruthy();
    await waitFor(() => expect(listCalls()).toHaveLength(2));

    await user.click(within(dialog).getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });

  it("Connect to cloud drive starts the authorization", async () => {
    signIn();
    handler = (url) => {
      if (url.startsWith("/api/documents?")) return { status: 200, body: listOf([]) };
      if (url === STATUS_URL) return { status: 200, body: { status: "not_connected" } };
      if (url === TICKET_URL) return { status: 200, body: { ticket: "ticket-2" } };
      return { status: 404, body: {} };
    };
    const user = userEvent.setup();
    renderFiles();
    await waitFor(() => expect(driveState.connected).toBe(false));
    const button = screen.getByRole("button", { name: /Connect to cloud drive/ }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    await user.click(button);
    const redirect = encodeURIComponent(`${window.location.origin}/gdrive-connected`);
    await waitFor(() =>
      expect(assign).toHaveBeenCalledExactlyOnceWith(
        `/api/auth/google/connect?action=connect&authorization=ticket-2&redirect_uri=${redirect}`,
      ),
    );
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("is disabled when Google Drive is unavailable on the server", async () => {
    signIn();
    handler = (url) => {
      if (url.startsWith("/api/documents?")) return { status: 200, body: listOf([]) };
      if (url === STATUS_URL) return { status: 200, body: { status: "unavailable" } };
      return { status: 404, body: {} };
    };
    renderFiles();
    await waitFor(() => expect((screen.getByRole("button", { name: /Connect to cloud drive/ }) as HTMLButtonElement).disabled).toBe(true));
  });

  it("after returning from Google re-checks every 10 s until connected, and stops on unmount", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    signIn();
    driveState.owner = ann.email;
    awaitConnection(); // back from the authorization, not confirmed yet
    let status = "not_connected";
    handler = (url) => {
      if (url.startsWith("/api/documents?")) return { status: 200, body: listOf([]) };
      if (url === STATUS_URL) return { status: 200, body: { status } };
      return { status: 404, body: {} };
    };
    const { unmount } = renderFiles();
    await waitFor(() => expect(statusCalls()).toHaveLength(1));
    expect(screen.getByRole("button", { name: /Connect to cloud drive/ })).toBeTruthy();
    expect(driveState.connected).toBe("loading");

    await act(async () => vi.advanceTimersByTime(9_999));
    expect(statusCalls()).toHaveLength(1);
    await act(async () => vi.advanceTimersByTime(1));
    await waitFor(() => expect(statusCalls()).toHaveLength(2));

    status = "connected";
    await act(async () => vi.advanceTimersByTime(10_000));
    await waitFor(() => expect(statusCalls()).toHaveLength(3));
    expect(await screen.findByRole("button", { name: /Connected to cloud drive/ })).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(60_000));
    expect(statusCalls()).toHaveLength(3);
    unmount();
  });

  it("stops re-checking when the page unmounts while still waiting", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    signIn();
    driveState.owner = ann.email;
    awaitConnection();
    handler = (url) => {
      if (url.startsWith("/api/documents?")) return { status: 200, body: listOf([]) };
      if (url === STATUS_URL) return { status: 200, body: { status: "not_connected" } };
      return { status: 404, body: {} };
    };
    const { unmount } = renderFiles();
    await waitFor(() => expect(statusCalls()).toHaveLength(1));
    await act(async () => vi.advanceTimersByTime(10_000));
    await waitFor(() => expect(statusCalls()).toHaveLength(2));
    unmount();
    vi.advanceTimersByTime(60_000);
    expect(statusCalls()).toHaveLength(2);
  });
});

describe("drive state", () => {
  it("startConnect does nothing without a token", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    startConnect();
    expect(assign).not.toHaveBeenCalled();
    expect(driveState.connected).toBe(false);
  });
});
