// The chat's documents in the browser: chips with their state and a remove
// button, "Searching all your files" when none is attached, the "From My Files"
// dialog (search, multi-select, keyboard; a folder chosen there scopes the
// chat), and "Chat about this file" / "Chat about selected" on My Files
// opening a new chat with those files.
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { FileItem } from "../../worker/contract/documents";
import { CHAT_MESSAGES, MAX_CHAT_FILES, type ChatFile } from "../../worker/contract/protocol";
import { setNavigator } from "../../client/lib/api";
import Chat from "../../client/pages/Chat";
import Files from "../../client/pages/Files";
import { appInfo, newSessionId } from "../../client/state/app";
import { chatState, resetChat } from "../../client/state/chat";
import { useChatConnection } from "../../client/state/chatConnection";
import { resetDrive } from "../../client/state/drive";
import { userInfo } from "../../client/state/user";
import type { User } from "../../worker/contract/validation";
import { FakeWebSocket, latestSocket, TICKET_PATH, ticketReply } from "../helpers/fake-websocket";
import { stubJsonFetch, type RecordedRequest, type Reply } from "../helpers/fetch-stub";

const ann: User = { id: "u1", email: "ann@example.com", name: "Ann", phone: "", picture: null };
const requests: RecordedRequest[] = [];
let reply: (url: string) => Reply;

function fileItem(fileId: string, fileName: string, status: FileItem["status"], createdAt: string): FileItem {
  return { fileId, fileName, status, createdAt, uploadedAt: null, fileHash: `hash-${fileId}`, pageCount: 3, error: null, ocrPages: [] };
}

// newest first, as the API lists them
const MY_FILES: FileItem[] = [
  fileItem("f4", "p17.pdf", "processing", "2026-11-20T10:00:00Z"),
  fileItem("f3", "Broken.pdf", "failed", "2026-11-19T10:00:00Z"),
  fileItem("f2", "3M 10-K 2023.pdf", "indexed", "2026-11-18T10:00:00Z"),
  fileItem("f1", "fw4.pdf", "indexed", "2026-11-17T10:00:00Z"),
];

function chatFile(file: FileItem): ChatFile {
  return { fileId: file.fileId, fileName: file.fileName, status: file.status, pagesDone: 0, pagesTotal: null, error: null };
}

function ChatWithConnection() {
  useChatConnection();
  return <Chat />;
}

function App({ at }: { at: string }) {
  return (
    <MemoryRouter initialEntries={[at]}>
      <Routes>
        <Route path="/app/files" element={<Files />} />
        <Route path="/app/chat" element={<ChatWithConnection />} />
      </Routes>
    </MemoryRouter>
  );
}

/** The chat's socket, once open (after its ticket arrives). */
const socket = latestSocket;

beforeEach(() => {
  FakeWebSocket.instances = [];
  requests.length = 0;
  setNavigator(vi.fn());
  vi.stubGlobal("WebSocket", FakeWebSocket);
  reply = (url) => {
    if (url.startsWith("/api/documents?")) {
      return { status: 200, body: { files: MY_FILES, pagination: { pageNumber: 1, pageSize: 100, total: 4, totalPages: 1 } } };
    }
    if (url === "/api/auth/google/connectionStatus") return { status: 200, body: { status: "not_connected" } };
    return { status: 404, body: {} };
  };
  stubJsonFetch(requests, (url) => (url === TICKET_PATH ? ticketReply() : reply(url)));
  localStorage.setItem("token", "tok-ann");
  userInfo.user = ann;
  userInfo.chatList = [];
  appInfo.currentSessionId = newSessionId(ann.email);
  resetChat();
  resetDrive();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("chips above the composer", () => {
  it("says every file is searched when none is attached, shows each document's state, and removes one", async () => {
    const user = userEvent.setup();
    render(<App at="/app/chat" />);
    const ws = await socket();
    await ws.open();
    expect(screen.getByText(CHAT_MESSAGES.searchingAll)).toBeTruthy();

    const sessionId = appInfo.currentSessionId!;
    await ws.emit({
      type: "full_chat",
      session_id: sessionId,
      messages: [],
      mode: "local",
      readOnly: false,
      files: [{ ...chatFile(MY_FILES[0]!), pagesDone: 50, pagesTotal: 417 }, chatFile(MY_FILES[2]!)],
    });
    expect(screen.queryByText(CHAT_MESSAGES.searchingAll)).toBeNull();
    const chips = within(screen.getByRole("list", { name: "Documents in this chat" })).getAllByRole("listitem");
    expect(chips.map((c) => c.textContent)).toEqual(["p17.pdfIndexing 50/417", "3M 10-K 2023.pdf"]);

    await user.click(screen.getByRole("button", { name: "Remove p17.pdf" }));
    expect(ws.frames().at(-1)).toEqual({ action: "set_files", session_id: sessionId, file_ids: ["f2"], token: "tok-ann" });
    await ws.emit({ type: "files", session_id: sessionId, files: [chatFile(MY_FILES[2]!)] });
    expect(screen.queryByText("p17.pdf")).toBeNull();
  });

  it("shows a shared reader the owner's documents without remove buttons", async () => {
    render(<App at="/app/chat" />);
    const ws = await socket();
    await ws.open();
    await ws.emit({
      type: "full_chat",
      session_id: appInfo.currentSessionId!,
      messages: [],
      mode: "local",
      readOnly: true,
      files: [chatFile(MY_FILES[2]!)],
    });
    expect(screen.getByText("3M 10-K 2023.pdf")).toBeTruthy();
    expect(screen.queryByRole("button", { name: /^Remove/ })).toBeNull();
  });
});

describe("From My Files", () => {
  it("lists indexed and indexing files newest first, searches, and sets the checked ones by keyboard", async () => {
    const user = userEvent.setup();
    render(<App at="/app/chat" />);
    const ws = await socket();
    await ws.open();
    const sessionId = appInfo.currentSessionId!;
    await ws.emit({ type: "files", session_id: sessionId, files: [chatFile(MY_FILES[3]!)] });

    // from the keyboard: Enter opens the menu on its first item, ArrowDown moves, Escape comes back
    const attach = screen.getByRole("button", { name: "Attach a file" });
    attach.focus();
    await user.keyboard("{Enter}");
    expect(document.activeElement?.textContent).toBe("From My Files");
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement?.textContent).toBe("Upload file");
    await user.keyboard("{Escape}");
    expect(document.activeElement).toBe(attach);

    await user.click(attach);
    await user.click(screen.getByRole("menuitem", { name: "From My Files" }));
    const dialog = screen.getByRole("dialog", { name: "Attach from My Files" });
    const list = await within(dialog).findByRole("list", { name: "Your files" });
    // the failed file is not offered; the chat's current document starts checked
    expect(
      within(list)
        .getAllByRole("checkbox")
        .map((c) => c.closest("label")!.querySelector(".my-files-name")!.textContent),
    ).toEqual(["p17.pdf", "3M 10-K 2023.pdf", "fw4.pdf"]);
    expect(within(list).getByText("Processing")).toBeTruthy();
    expect((within(list).getByRole("checkbox", { name: /fw4\.pdf/ }) as HTMLInputElement).checked).toBe(true);

    // the search box has focus first; typing narrows the list
    expect(document.activeElement).toBe(within(dialog).getByRole("searchbox", { name: "Search your files" }));
    await user.keyboard("p17");
    expect(within(dialog).getAllByRole("checkbox")).toHaveLength(1);
    await user.tab();
    expect(document.activeElement).toBe(within(dialog).getByRole("checkbox", { name: /p17\.pdf/ }));
    await user.keyboard(" ");
    await user.clear(within(dialog).getByRole("searchbox"));
    await user.type(within(dialog).getByRole("searchbox"), "nothing like this");
    expect(within(dialog).getByText("No file matches your search.")).toBeTruthy();

    await user.click(within(dialog).getByRole("button", { name: "Attach 2 files" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(ws.frames().at(-1)).toEqual({ action: "set_files", session_id: sessionId, file_ids: ["f1", "f4"], token: "tok-ann" });
    expect(chatState.newFileIds).toEqual(["f4"]);
  });

  it("stops at the chat's limit of documents", async () => {
    const many = Array.from({ length: MAX_CHAT_FILES + 2 }, (_, i) =>
      fileItem(`m${i}`, `file-${i}.pdf`, "indexed", new Date(Date.UTC(2026, 0, 30 - i)).toISOString()),
    );
    reply = (url) =>
      url.startsWith("/api/documents?")
        ? { status: 200, body: { files: many, pagination: { pageNumber: 1, pageSize: 100, total: many.length, totalPages: 1 } } }
        : { status: 200, body: { status: "not_connected" } };
    const user = userEvent.setup();
    render(<App at="/app/chat" />);
    await (await socket()).open();
    await user.click(screen.getByRole("button", { name: "Attach a file" }));
    await user.click(screen.getByRole("menuitem", { name: "From My Files" }));
    const dialog = screen.getByRole("dialog");
    const boxes = (await within(dialog).findAllByRole("checkbox")) as HTMLInputElement[];
    for (const box of boxes.slice(0, MAX_CHAT_FILES)) await user.click(box);
    expect(boxes.slice(MAX_CHAT_FILES).every((b) => b.disabled)).toBe(true);
    expect(within(dialog).getByText(`A chat can search at most ${MAX_CHAT_FILES} documents.`)).toBeTruthy();
  });
});

describe("From My Files offers folders", () => {
  it("lists the user's folders with their counts, and choosing one scopes the chat to it (set_folder)", async () => {
    const folders = [
      { id: "tax", name: "Tax", documentCount: 2 },
      { id: "empty", name: "Empty", documentCount: 0 },
    ];
    const files = reply;
    reply = (url) => (url === "/api/folders" ? { status: 200, body: { folders } } : files(url));
    const user = userEvent.setup();
    render(<App at="/app/chat" />);
    const ws = await socket();
    await ws.open();
    const sessionId = appInfo.currentSessionId!;

    await user.click(screen.getByRole("button", { name: "Attach a file" }));
    await user.click(screen.getByRole("menuitem", { name: "From My Files" }));
    const dialog = screen.getByRole("dialog", { name: "Attach from My Files" });
    const list = await within(dialog).findByRole("list", { name: "Your folders" });
    expect(
      within(list)
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual(["Folder Tax (2 files)", "Folder Empty (0 files)"]);
    // an empty folder cannot scope a chat (the server refuses it)
    expect((within(list).getByRole("button", { name: "Folder Empty (0 files)" }) as HTMLButtonElement).disabled).toBe(true);
    // the files are still offered as before
    expect(await within(dialog).findByRole("list", { name: "Your files" })).toBeTruthy();

    await user.click(within(list).getByRole("button", { name: "Folder Tax (2 files)" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(ws.frames().at(-1)).toEqual({ action: "set_folder", session_id: sessionId, folder_id: "tax", token: "tok-ann" });

    // the server answers with the folder's documents; the chips name the folder with its count
    await ws.emit({
      type: "files",
      session_id: sessionId,
      files: [chatFile(MY_FILES[0]!), chatFile(MY_FILES[3]!)],
      folder: { id: "tax", name: "Tax", documentCount: 2 },
    });
    const chips = within(screen.getByRole("list", { name: "Documents in this chat" }));
    expect(chips.getByText(/Folder Tax \(2 files\)/)).toBeTruthy();
  });
});

describe("My Files opens a chat about its files", () => {
  it("Chat about this file: a new chat with the file attached as soon as it connects", async () => {
    const user = userEvent.setup();
    const before = appInfo.currentSessionId;
    render(<App at="/app/files" />);
    await user.click(await screen.findByRole("button", { name: "Actions for 3M 10-K 2023.pdf" }));
    await user.click(screen.getByRole("menuitem", { name: "Chat about this file" }));

    // on the chat page, in a new session, with the chip already shown
    expect(await screen.findByText("Hello, how can I help you?")).toBeTruthy();
    const sessionId = appInfo.currentSessionId!;
    expect(sessionId).not.toBe(before);
    expect(sessionId.startsWith(`${ann.email}-`)).toBe(true);
    expect(screen.getByRole("button", { name: "Remove 3M 10-K 2023.pdf" })).toBeTruthy();
    const ws = await socket();
    await ws.open();
    expect(ws.frames().slice(0, 2)).toEqual([
      { action: "set_files", session_id: sessionId, file_ids: ["f2"], token: "tok-ann" },
      { action: "get_full_chat", session_id: sessionId, token: "tok-ann" },
    ]);
  });

  it("offers Chat about selected for several rows, and no chat about a failed file", async () => {
    const user = userEvent.setup();
    render(<App at="/app/files" />);
    await user.click(await screen.findByRole("button", { name: "Actions for Broken.pdf" }));
    expect((screen.getByRole("menuitem", { name: "Chat about this file" }) as HTMLButtonElement).disabled).toBe(true);
    await user.keyboard("{Escape}");

    await user.click(screen.getByText("fw4.pdf"));
    await user.click(screen.getByText("p17.pdf"));
    await user.click(screen.getByText("Broken.pdf"));
    const bar = screen.getByRole("toolbar", { name: "Selected files" });
    await user.click(within(bar).getByRole("button", { name: "Chat about selected" }));
    expect(await screen.findByText("Hello, how can I help you?")).toBeTruthy();
    const ws = await socket();
    await ws.open();
    expect(ws.frames()[0]).toMatchObject({ action: "set_files", file_ids: ["f1", "f4"] });
    await act(async () => {});
    expect(chatState.files.map((f) => f.fileName)).toEqual(["fw4.pdf", "p17.pdf"]);
  });

  it("drops a deleted file from the chat's chips", async () => {
    const user = userEvent.setup();
    chatState.files = [chatFile(MY_FILES[2]!), chatFile(MY_FILES[3]!)];
    reply = (url) => {
      if (url === "/api/documents") return { status: 200, body: { status: "success", deleted: ["hash-f2"], errors: [] } };
      if (url.startsWith("/api/documents?")) {
        return { status: 200, body: { files: MY_FILES, pagination: { pageNumber: 1, pageSize: 10, total: 4, totalPages: 1 } } };
      }
      return { status: 200, body: { status: "not_connected" } };
    };
    render(<App at="/app/files" />);
    await user.click(await screen.findByRole("button", { name: "Actions for 3M 10-K 2023.pdf" }));
    await user.click(screen.getByRole("menuitem", { name: "Delete" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(chatState.files.map((f) => f.fileId)).toEqual(["f1"]));
  });
});
