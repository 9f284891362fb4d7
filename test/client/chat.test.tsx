// Proves the chat screen follows the spec (sections 2, 4, 5, 7, 8 and 9): the
// composer rules, the sending flow (placeholder -> streamed text -> final answer
// with [n] citations and Sources), the failure text, full_chat replacing the
// list, the session-id and token rules, attachments, the anonymous tooltips and
// the link scheme rules; and the connection itself: queue until open, PING
// every 120000 ms, reconnect 3000 ms after an unclean close, forced logout on
// 1008/4001/401. WebSocket, fetch and XMLHttpRequest are fakes.
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { StrictMode } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { CHAT_MESSAGES, CHAT_QUERY_MAX, PING, type ChatFile, type StoredMessage, CLOSE_NO_ACCESS } from "../../worker/contract/protocol";
import { Composer, QUESTION_AT_LIMIT } from "../../client/components/chat/Composer";
import { RichText } from "../../client/components/chat/RichText";
import { setNavigator } from "../../client/lib/api";
import { PING_INTERVAL_MS, RECONNECT_DELAY_MS, RealtimeConnection } from "../../client/lib/realtime";
import { appInfo, newSessionId, setCurrentSession } from "../../client/state/app";
import { chatState, resetChat } from "../../client/state/chat";
import { resetDrive } from "../../client/state/drive";
import { signOut, userInfo } from "../../client/state/user";
import type { User } from "../../worker/contract/validation";
import { ConnectedChat } from "./connected-chat";
import { CONNECTION_LOST } from "../../client/pages/Chat";
import { FakeWebSocket, latestSocket, TICKET_PATH, ticketReply } from "../helpers/fake-websocket";
import { DOCUMENT_MESSAGES } from "../../worker/contract/documents";

// pdf.js draws nothing in happy-dom: the viewer's page stays "Loading" (test/client/viewer.test.tsx; the e2e draws it)
vi.mock("../../client/lib/pdf", () => ({
  loadPdfJs: () => new Promise(() => {}),
  openPdf: () => new Promise(() => {}),
  closePdfs: () => {},
}));

// ---------------------------------------------------------------- fakes

class FakeXHR {
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  status = 0;
  responseText = "";
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  open() {}
  setRequestHeader() {}
  send() {
    this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
    this.status = 200;
    this.onload?.();
  }
}

type Reply = { status: number; body: unknown };
let handler: (url: string) => Reply;
/** what the server answers a socket ticket request (POST /api/chat/ticket) */
let ticket: () => Reply;
const requests: { method: string; url: string; body: unknown }[] = [];
const navigate = vi.fn();

const ann: User = { id: "u1", email: "ann@example.com", name: "Ann", phone: "", picture: null };

/** The chat's socket, once open: a signed-in one after its ticket arrives. */
const socket = latestSocket;

function stored(partial: Partial<StoredMessage> & Pick<StoredMessage, "id" | "role" | "content">): StoredMessage {
  return { created_at: 1, ...partial };
}

function chatFile(fileId: string, fileName: string, status: ChatFile["status"] = "indexed"): ChatFile {
  return { fileId, fileName, status, pagesDone: 0, pagesTotal: null, error: null };
}

function signIn(user: User = ann, token = "tok-ann") {
  localStorage.setItem("token", token);
  userInfo.user = user;
}

// the markdown renderer is its own chunk, loaded with the first answer; loaded here once so
// a busy machine's first import of it never outlasts a test's wait
beforeAll(async () => {
  await import("../../client/components/chat/MarkdownText");
});

beforeEach(() => {
  FakeWebSocket.instances = [];
  requests.length = 0;
  navigate.mockReset();
  setNavigator(navigate);
  handler = () => ({ status: 200, body: {} });
  ticket = ticketReply;
  vi.stubGlobal("WebSocket", FakeWebSocket);
  vi.stubGlobal("XMLHttpRequest", FakeXHR);
  vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
    requests.push({ method: init?.method ?? "GET", url, body: init?.body ? JSON.parse(init.body as string) : undefined });
    const { status, body } = url === TICKET_PATH ? ticket() : handler(url);
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  });
  userInfo.user = null;
  userInfo.chatList = [];
  appInfo.currentSessionId = newSessionId();
  resetChat();
  resetDrive();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// ---------------------------------------------------------------- composer

describe("Composer", () => {
  it("sends the trimmed text on Enter, adds a line on Shift+Enter, and disables Send when empty", async () => {
    const user = userEvent.setup();
    const onSend = vi.fn(() => true);
    render(<Composer onSend={onSend} />);
    const box = screen.getByPlaceholderText("Ask me!") as HTMLTextAreaElement;
    const send = screen.getByRole("button", { name: "Send" }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);

    await user.type(box, "   ");
    expect(send.disabled).toBe(true);
    await user.keyboard("{Enter}");
    expect(onSend).not.toHaveBeenCalled();

    await user.type(box, "first line{Shift>}{Enter}{/Shift}");
    expect(onSend).not.toHaveBeenCalled();
    expect(box.value).toBe("   first line\n");
    expect(send.disabled).toBe(false);

    await user.type(box, "second line  {Enter}");
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(onSend).toHaveBeenCalledWith("first line\nsecond line");
    expect(box.value).toBe("");
    expect(send.disabled).toBe(true);

    await user.type(box, " again ");
    await user.click(send);
    expect(onSend).toHaveBeenLastCalledWith("again");
  });

  it("keeps the text area between 24 and 144 px", async () => {
    render(<Composer onSend={() => true} />);
    const box = screen.getByPlaceholderText("Ask me!") as HTMLTextAreaElement;
    Object.defineProperty(box, "scrollHeight", { configurable: true, get: () => (box.value.length > 20 ? 400 : 10) });
    fireEvent.change(box, { target: { value: "short" } });
    expect(box.style.height).toBe("24px");
    fireEvent.change(box, { target: { value: "a much longer text that needs many lines" } });
    expect(box.style.height).toBe("144px");
    expect(box.style.overflowY).toBe("auto");
  });

  it("says a question at the length limit is cut there", async () => {
    const user = userEvent.setup();
    render(<Composer onSend={() => true} />);
    const box = screen.getByPlaceholderText("Ask me!") as HTMLTextAreaElement;
    box.focus();
    await user.paste("x".repeat(CHAT_QUERY_MAX - 1));
    expect(screen.queryByText(QUESTION_AT_LIMIT)).toBeNull();
    await user.paste("yyyy");
    expect(box.value).toHaveLength(CHAT_QUERY_MAX);
    expect(screen.getByRole("status").textContent).toBe("A question has at most 4,000 characters; a longer one is cut there.");
  });

  it("is disabled with a note when the chat is read-only", async () => {
    render(<Composer onSend={() => true} readOnly />);
    expect((screen.getByPlaceholderText("Ask me!") as HTMLTextAreaElement).disabled).toBe(true);
    expect(screen.getByText(CHAT_MESSAGES.readOnly)).toBeTruthy();
  });
});

// ---------------------------------------------------------------- chat page

describe("Chat page", () => {
  it("shows the landing variant with no messages and connects as a guest", async () => {
    render(<ConnectedChat />);
    expect(screen.getByRole("heading", { name: "Hello, how can I help you?" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Overview" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Key Features" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Send chat memo via email" })).toBeNull();
    const ws = await socket();
    const sessionId = appInfo.currentSessionId!;
    expect(sessionId.startsWith("guest-")).toBe(true);
    expect(ws.url).toBe(`ws://${location.host}/ws?session_id=${encodeURIComponent(sessionId)}`);
    await ws.open();
    expect(ws.frames()).toEqual([{ action: "get_full_chat", session_id: sessionId }]);
  });

  it("streams an answer: placeholder, streamed text, then the final answer with citations and sources", async () => {
    const user = userEvent.setup();
    const tab = { opener: {} as unknown, location: { href: "" }, close: vi.fn() };
    const open = vi.spyOn(window, "open").mockReturnValue(tab as unknown as Window);
    handler = (url) =>
      url.startsWith("/api/documents/viewDocument")
        ? { status: 200, body: { url: "https://files.test/doc.pdf#page=3" } }
        : { status: 404, body: {} };
    render(<ConnectedChat />);
    const ws = await socket();
    await ws.open();
    const sessionId = appInfo.currentSessionId!;

    await user.type(screen.getByPlaceholderText("Ask me!"), "  What is the notice period?  {Enter}");
    expect(ws.frames().at(-1)).toEqual({ action: "chat", query: "What is the notice period?", session_id: sessionId });
    expect(screen.getByText("What is the notice period?")).toBeTruthy();
    expect(screen.getByText(CHAT_MESSAGES.waiting)).toBeTruthy();
    // the wait is announced, and the list of messages still holds only list items
    expect(screen.getByRole("status").textContent).toContain(CHAT_MESSAGES.waiting);
    expect(
      [...screen.getByRole("region", { name: "Messages" }).querySelector("ol")!.children].map((li) => [
        li.tagName,
        li.getAttribute("role"),
      ]),
    ).toEqual([
      ["LI", null],
      ["LI", null],
    ]);
    expect(chatState.loading).toBe(true);
    // while the answer is written, Stop takes Send's place: nothing else can be sent
    expect(screen.queryByRole("button", { name: "Send" })).toBeNull();
    expect(screen.getByRole("button", { name: "Stop" })).toBeTruthy();

    await ws.emit({ type: "stream", session_id: sessionId, message_id: "a1", text: "The notice " });
    expect(screen.queryByText(CHAT_MESSAGES.waiting)).toBeNull();
    await ws.emit({ type: "stream", session_id: sessionId, message_id: "a1", text: "period is 30 days" });
    expect(screen.getByText("The notice period is 30 days")).toBeTruthy();
    expect(chatState.messages.map((m) => m.type)).toEqual(["user", "bot"]);

    await ws.emit({
      type: "end",
      files: [],
      session_id: sessionId,
      mode: "local",
      message: stored({
        id: "a1",
        role: "assistant",
        content: "The notice period is 30 days [1].",
        sources: [{ n: 1, fileId: "f1", fileName: "contract.pdf", page: 3 }],
      }),
    });
    expect(chatState.loading).toBe(false);
    expect(chatState.messages).toHaveLength(2);
    // the markdown renderer arrives with the first answer: plain text until then
    const cite = await screen.findByRole("link", { name: "[1]" });
    expect(cite.getAttribute("title")).toBe("contract.pdf, p. 3");
    expect(screen.getByText("Sources")).toBeTruthy();
    expect(screen.getByRole("link", { name: "[1] contract.pdf, p. 3" })).toBeTruthy();
    expect(screen.getByText("local mode")).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Overview" })).toBeNull();

    // [1] opens the viewer beside the chat; "Open in new tab" opens the file at its page
    await user.click(cite);
    const viewer = await screen.findByRole("complementary", { name: "Document viewer" });
    await user.click(within(viewer).getByRole("button", { name: "Open in new tab" }));
    await waitFor(() => expect(tab.location.href).toBe("https://files.test/doc.pdf#page=3"));
    expect(open).toHaveBeenCalledWith("", "_blank");
    expect(requests.at(-1)).toMatchObject({ method: "GET", url: "/api/documents/viewDocument?file_id=f1&page=3" });
  });

  it("shows another tab's question above its answer, and this tab's own question waiting after it", async () => {
    const user = userEvent.setup();
    render(<ConnectedChat />);
    const ws = await socket();
    await ws.open();
    const sessionId = appInfo.currentSessionId!;
    const answer = (id: string, content: string) =>
      ws.emit({ type: "end", files: [], session_id: sessionId, mode: "local", message: stored({ id, role: "assistant", content }) });

    // this tab asks while the chat answers a question another tab sent just before
    await user.type(screen.getByPlaceholderText("Ask me!"), "When is the deadline?{Enter}");
    await ws.emit({
      type: "question",
      session_id: sessionId,
      message: stored({ id: "q-other", role: "user", content: "How long is leave?" }),
    });
    await ws.emit({ type: "stream", session_id: sessionId, message_id: "a-other", text: "Sixteen weeks." });
    await answer("a-other", "Sixteen weeks.");
    expect(chatState.messages.map((m) => [m.type, m.text])).toEqual([
      ["user", "How long is leave?"],
      ["bot", "Sixteen weeks."],
      ["user", "When is the deadline?"],
      ["loading", CHAT_MESSAGES.waiting],
    ]);
    expect(chatState.loading).toBe(true);

    // then its own question is taken up and answered under it
    await ws.emit({
      type: "question",
      session_id: sessionId,
      message: stored({ id: "q-own", role: "user", content: "When is the deadline?" }),
    });
    await ws.emit({ type: "stream", session_id: sessionId, message_id: "a-own", text: "April 15." });
    await answer("a-own", "April 15.");
    expect(chatState.messages.map((m) => [m.id, m.text])).toEqual([
      ["q-other", "How long is leave?"],
      ["a-other", "Sixteen weeks."],
      ["q-own", "When is the deadline?"],
      ["a-own", "April 15."],
    ]);
    expect(chatState.loading).toBe(false);

    // the other tab asks again while this one is idle: its question, then its answer
    await ws.emit({ type: "question", session_id: sessionId, message: stored({ id: "q-3", role: "user", content: "And sick leave?" }) });
    expect(chatState.messages.at(-1)!.type).toBe("loading");
    await ws.emit({ type: "stream", session_id: sessionId, message_id: "a-3", text: "Ten days." });
    await answer("a-3", "Ten days.");
    expect(chatState.messages.slice(-2).map((m) => [m.id, m.text])).toEqual([
      ["q-3", "And sick leave?"],
      ["a-3", "Ten days."],
    ]);
    expect(chatState.loading).toBe(false);
  });

  it("shows the failure text when an error frame arrives while a question is pending", async () => {
    const user = userEvent.setup();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    render(<ConnectedChat />);
    const ws = await socket();
    await ws.open();
    await user.type(screen.getByPlaceholderText("Ask me!"), "Hello{Enter}");
    await ws.emit({ type: "error", code: 500, message: CHAT_MESSAGES.sendFailed });
    expect(screen.getByText(CHAT_MESSAGES.sendFailed)).toBeTruthy();
    expect(screen.queryByText(CHAT_MESSAGES.waiting)).toBeNull();
    expect(chatState.loading).toBe(false);
    expect(logged).toHaveBeenCalled();
    // an error with nothing pending is only logged
    await ws.emit({ type: "error", code: 400, message: CHAT_MESSAGES.badMessage });
    expect(screen.getAllByText(CHAT_MESSAGES.sendFailed)).toHaveLength(1);
  });

  it("queues a question typed while connecting and sends it on open; fails when the socket is closed", async () => {
    const user = userEvent.setup();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    render(<ConnectedChat />);
    const ws = await socket();
    const sessionId = appInfo.currentSessionId!;
    await user.type(screen.getByPlaceholderText("Ask me!"), "Queued question{Enter}");
    expect(ws.sent).toEqual([]);
    expect(screen.getByText(CHAT_MESSAGES.waiting)).toBeTruthy();

    await ws.open();
    expect(ws.frames()).toEqual([
      { action: "get_full_chat", session_id: sessionId },
      { action: "chat", query: "Queued question", session_id: sessionId },
    ]);
    // the full chat answering first must not drop the queued question
    await ws.emit({ type: "full_chat", session_id: sessionId, messages: [], mode: "model", readOnly: false, files: [] });
    expect(screen.getByText("Queued question")).toBeTruthy();
    expect(screen.getByText(CHAT_MESSAGES.waiting)).toBeTruthy();
    await ws.emit({
      type: "end",
      files: [],
      session_id: sessionId,
      mode: "model",
      message: stored({ id: "a1", role: "assistant", content: "Done." }),
    });
    expect(screen.getByText("Done.")).toBeTruthy();

    // unclean close: until the reconnect, sending fails silently (logged) and the failure text shows
    expect(screen.queryByText(CONNECTION_LOST)).toBeNull();
    await ws.serverClose(1006, false);
    expect(screen.getByText(CONNECTION_LOST).getAttribute("role")).toBe("status");
    await user.type(screen.getByPlaceholderText("Ask me!"), "Lost question{Enter}");
    expect(screen.getByText(CHAT_MESSAGES.sendFailed)).toBeTruthy();
    expect(chatState.loading).toBe(false);
    expect(logged).toHaveBeenCalledWith("The chat connection is not open; the message was not sent.");
  });

  it("stops an answer being written with Stop or Escape, and shows it as stopped", async () => {
    render(<ConnectedChat />);
    const ws = await socket();
    await ws.open();
    const sessionId = appInfo.currentSessionId!;
    await ws.emit({ type: "full_chat", session_id: sessionId, messages: [], mode: "local", readOnly: false, files: [] });
    const box = screen.getByRole("textbox", { name: "Message" });
    fireEvent.change(box, { target: { value: "How long is parental leave?" } });
    fireEvent.keyDown(box, { key: "Enter" });
    await ws.emit({ type: "stream", session_id: sessionId, message_id: "a1", text: "Parental leave is" });

    fireEvent.click(screen.getByRole("button", { name: "Stop" }));
    expect(ws.frames().at(-1)).toEqual({ action: "stop", session_id: sessionId });
    fireEvent.keyDown(box, { key: "Escape" });
    expect(ws.frames().filter((f) => (f as { action: string }).action === "stop")).toHaveLength(2);

    await ws.emit({
      type: "end",
      session_id: sessionId,
      mode: "local",
      files: [],
      message: stored({ id: "a1", role: "assistant", content: "Parental leave is", status: "stopped" }),
    });
    expect(chatState.loading).toBe(false);
    expect(screen.getByText(CHAT_MESSAGES.stopped)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Stop" })).toBeNull();
    expect(screen.getByRole("button", { name: "Send" })).toBeTruthy();
  });

  it("copies an answer as markdown with its sources as text", async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    render(<ConnectedChat />);
    const ws = await socket();
    await ws.open();
    await ws.emit({
      type: "full_chat",
      session_id: appInfo.currentSessionId!,
      messages: [
        stored({ id: "m1", role: "user", content: "How long is parental leave?" }),
        stored({
          id: "m2",
          role: "assistant",
          content: "Parental leave is **sixteen weeks** [1].",
          sources: [{ n: 1, fileId: "f1", fileName: "Handbook.pdf", page: 4 }],
        }),
      ],
      mode: "local",
      readOnly: false,
      files: [],
    });
    fireEvent.click(screen.getByRole("button", { name: "Copy" }));
    await waitFor(() =>
      expect(writeText).toHaveBeenCalledWith("Parental leave is **sixteen weeks** [1].\n\nSources:\n[1] Handbook.pdf, p. 4"),
    );
    expect(await screen.findByRole("button", { name: "Copied" })).toBeTruthy();
  });

  it("regenerates the last answer: placeholder, new answer in its place; a refusal puts the old one back; readers get no button", async () => {
    render(<ConnectedChat />);
    const ws = await socket();
    await ws.open();
    const sessionId = appInfo.currentSessionId!;
    const chat = (readOnly: boolean) =>
      ws.emit({
        type: "full_chat",
        session_id: sessionId,
        messages: [
          stored({ id: "m1", role: "user", content: "Dental?" }),
          stored({ id: "m2", role: "assistant", content: "First answer." }),
          stored({ id: "m3", role: "user", content: "How long is parental leave?" }),
          stored({
            id: "m4",
            role: "assistant",
            content: "Sixteen weeks [1].",
            sources: [{ n: 1, fileId: "f1", fileName: "H.pdf", page: 2 }],
          }),
        ],
        mode: "local",
        readOnly,
        files: [],
      });
    await chat(false);
    // only the last answer has the button
    expect(screen.getAllByRole("button", { name: "Regenerate" })).toHaveLength(1);
    fireEvent.click(screen.getByRole("button", { name: "Regenerate" }));
    expect(ws.frames().at(-1)).toEqual({ action: "regenerate", session_id: sessionId, token: undefined });
    expect(await screen.findByText(CHAT_MESSAGES.waiting)).toBeTruthy();
    expect(screen.queryByText(/^Sixteen weeks/)).toBeNull();
    expect(screen.queryByRole("button", { name: "Regenerate" })).toBeNull();

    // refused (the daily limit): the old answer is back and the reason shows
    await ws.emit({ type: "error", code: 429, message: "Daily limit reached." });
    expect(await screen.findByText(/^Sixteen weeks/)).toBeTruthy();
    expect(screen.getByText("Daily limit reached.")).toBeTruthy();
    expect(chatState.loading).toBe(false);

    fireEvent.click(screen.getByRole("button", { name: "Regenerate" }));
    await ws.emit({ type: "regenerating", session_id: sessionId, message_id: "m4" });
    await ws.emit({ type: "stream", session_id: sessionId, message_id: "m5", text: "Parental leave is sixteen weeks" });
    await ws.emit({
      type: "end",
      session_id: sessionId,
      mode: "local",
      files: [],
      message: stored({ id: "m5", role: "assistant", content: "Parental leave is sixteen weeks [1].", sources: [] }),
    });
    expect(chatState.messages.map((m) => m.id)).toEqual(["m1", "m2", "m3", "m5"]);
    expect(await screen.findByRole("button", { name: "Regenerate" })).toBeTruthy();

    await chat(true);
    await waitFor(() => expect(screen.queryByRole("button", { name: "Regenerate" })).toBeNull());
  });

  it("offers the follow-up suggestions under the last answer; one click asks it", async () => {
    render(<ConnectedChat />);
    const ws = await socket();
    await ws.open();
    const sessionId = appInfo.currentSessionId!;
    await ws.emit({
      type: "full_chat",
      session_id: sessionId,
      messages: [
        stored({ id: "m1", role: "user", content: "Dental?" }),
        stored({ id: "m2", role: "assistant", content: "Ninety days.", suggestions: ["Old suggestion?"] }),
        stored({ id: "m3", role: "user", content: "How long is parental leave?" }),
        stored({ id: "m4", role: "assistant", content: "Sixteen weeks." }),
      ],
      mode: "local",
      readOnly: false,
      files: [],
    });
    // only the last answer offers suggestions, once they arrive
    expect(screen.queryByRole("list", { name: "Suggested questions" })).toBeNull();
    await ws.emit({
      type: "suggestions",
      session_id: sessionId,
      message_id: "m4",
      suggestions: ["What about sick leave?", "Remote work?"],
    });
    const list = await screen.findByRole("list", { name: "Suggested questions" });
    expect(
      within(list)
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual(["What about sick leave?", "Remote work?"]);
    expect(screen.queryByText("Old suggestion?")).toBeNull();

    fireEvent.click(within(list).getByRole("button", { name: "What about sick leave?" }));
    expect(ws.frames().at(-1)).toMatchObject({ action: "chat", query: "What about sick leave?", session_id: sessionId });
    await waitFor(() => expect(screen.queryByRole("list", { name: "Suggested questions" })).toBeNull());
  });

  it("shows an interrupted answer as written, says so, and Retry asks its question again", async () => {
    render(<ConnectedChat />);
    const ws = await socket();
    await ws.open();
    const sessionId = appInfo.currentSessionId!;
    await ws.emit({
      type: "full_chat",
      session_id: sessionId,
      messages: [
        stored({ id: "m1", role: "user", content: "How long is parental leave?" }),
        stored({ id: "m2", role: "assistant", content: "Parental leave is sixt", status: "interrupted" }),
      ],
      mode: "local",
      readOnly: false,
      files: [],
    });
    expect(screen.getByText("Parental leave is sixt")).toBeTruthy();
    expect(screen.getByText(CHAT_MESSAGES.interrupted)).toBeTruthy();
    expect(chatState.loading).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(ws.frames().at(-1)).toEqual({ action: "chat", query: "How long is parental leave?", session_id: sessionId });
    expect(chatState.loading).toBe(true);
  });

  it("replaces the list with full_chat for the current session only, and keeps loading for a streaming answer", async () => {
    render(<ConnectedChat />);
    const ws = await socket();
    await ws.open();
    const sessionId = appInfo.currentSessionId!;
    await act(async () => {
      chatState.messages.push({ id: "old", type: "user", text: "stale local message" });
    });
    await ws.emit({
      type: "full_chat",
      session_id: "guest-someone-else",
      messages: [stored({ id: "x", role: "user", content: "not mine" })],
      mode: "model",
      readOnly: false,
      files: [],
    });
    expect(screen.getByText("stale local message")).toBeTruthy();
    expect(screen.queryByText("not mine")).toBeNull();

    await ws.emit({
      type: "full_chat",
      session_id: sessionId,
      messages: [
        stored({ id: "m1", role: "user", content: "Earlier question", fileInfo: [{ name: "policy.pdf" }] }),
        stored({ id: "m2", role: "assistant", content: "Half an ans", status: "streaming" }),
      ],
      mode: "model",
      readOnly: false,
      files: [],
    });
    expect(screen.queryByText("stale local message")).toBeNull();
    expect(screen.getByText("Earlier question")).toBeTruthy();
    expect(screen.getByText("policy.pdf")).toBeTruthy();
    expect(chatState.loading).toBe(true);
    await ws.emit({ type: "stream", session_id: sessionId, message_id: "m2", text: "wer" });
    expect(screen.getByText("Half an answer")).toBeTruthy();
    await ws.emit({
      type: "end",
      files: [],
      session_id: sessionId,
      mode: "model",
      message: stored({ id: "m2", role: "assistant", content: "Half an answer." }),
    });
    expect(chatState.loading).toBe(false);
    expect(chatState.messages.map((m) => m.id)).toEqual(["m1", "m2"]);
    expect(screen.queryByText("local mode")).toBeNull();
  });

  it("shows a read-only shared chat with the composer disabled", async () => {
    render(<ConnectedChat />);
    const ws = await socket();
    await ws.open();
    await ws.emit({
      type: "full_chat",
      session_id: appInfo.currentSessionId!,
      messages: [stored({ id: "m1", role: "user", content: "Shared question" })],
      mode: "model",
      readOnly: true,
      files: [],
    });
    expect((screen.getByPlaceholderText("Ask me!") as HTMLTextAreaElement).disabled).toBe(true);
    expect(screen.getByText(CHAT_MESSAGES.readOnly)).toBeTruthy();
  });

  it("reconnects to the new session when the current session changes, clearing the messages", async () => {
    render(<ConnectedChat />);
    const first = await socket();
    await first.open();
    await first.emit({
      type: "full_chat",
      session_id: appInfo.currentSessionId!,
      messages: [stored({ id: "m1", role: "user", content: "From the first chat" })],
      mode: "model",
      readOnly: false,
      files: [],
    });
    const next = newSessionId();
    await act(async () => setCurrentSession(next));
    expect(first.closedWith).toBe(1000);
    expect(screen.queryByText("From the first chat")).toBeNull();
    const second = await socket();
    expect(second.url).toContain(`session_id=${encodeURIComponent(next)}`);
    await second.open();
    expect(second.frames()).toEqual([{ action: "get_full_chat", session_id: next }]);
  });

  it("opens one live socket under StrictMode and closes the other", async () => {
    render(
      <StrictMode>
        <ConnectedChat />
      </StrictMode>,
    );
    expect(FakeWebSocket.instances.length).toBeGreaterThanOrEqual(1);
    expect(FakeWebSocket.instances.filter((s) => s.closedWith === undefined)).toHaveLength(1);
  });
});

describe("Chat page, signed in", () => {
  it("replaces a session id that does not belong to the user, sends the token in frames (a ticket in the URL), and loads the chat list", async () => {
    signIn();
    appInfo.currentSessionId = "guest-123";
    render(<ConnectedChat />);
    await act(async () => {}); // the replaced id reaches React after valtio's microtask
    const sessionId = appInfo.currentSessionId!;
    expect(sessionId.startsWith("ann@example.com-")).toBe(true);
    expect(localStorage.getItem("currentSessionId")).toBe(sessionId);
    const ws = await socket();
    expect(FakeWebSocket.instances.every((s) => !s.url.includes("guest-123"))).toBe(true);
    // the URL carries a ticket asked for this session, never the sign-in token
    const ticket = new URL(ws.url).searchParams.get("token")!;
    expect(ticket).toMatch(/^ticket-\d+$/);
    expect(ws.url).toBe(`ws://${location.host}/ws?session_id=${encodeURIComponent(sessionId)}&token=${ticket}`);
    expect(requests.filter((r) => r.url === TICKET_PATH).map((r) => r.body)).toContainEqual({ session_id: sessionId });
    await ws.open();
    expect(ws.frames()).toEqual([
      { action: "get_full_chat", session_id: sessionId, token: "tok-ann" },
      { action: "get_chats", token: "tok-ann" },
    ]);
    await ws.emit({ type: "chat_list", chats: [{ session_id: sessionId, updated_at: 5, summary: "Notice periods" }] });
    expect(userInfo.chatList).toEqual([{ session_id: sessionId, updated_at: 5, summary: "Notice periods" }]);
    await ws.emit({ type: "chat_list_update", chats: [] });
    expect(userInfo.chatList).toEqual([]);
  });

  it("adds an uploaded PDF to the chat's documents, names it on the next question and shows its indexing", async () => {
    const user = userEvent.setup();
    signIn();
    appInfo.currentSessionId = newSessionId(ann.email);
    handler = (url) => {
      if (url.startsWith("/api/documents/uploadLink"))
        return { status: 200, body: { presignedUrl: "https://r2.test/put", s3Key: "uploads/u1/contract.pdf" } };
      if (url === "/api/documents/index") return { status: 200, body: { status: "pending", fileId: "f9" } };
      if (url === "/api/auth/google/connectionStatus") return { status: 200, body: { status: "not_connected" } };
      return { status: 404, body: {} };
    };
    const { container } = render(<ConnectedChat />);
    const ws = await socket();
    await ws.open();

    await user.click(screen.getByRole("button", { name: "Attach a file" }));
    const menu = screen.getByRole("menu");
    // the drive is not connected: only Connect to drive is offered (drive.test.tsx covers the rest)
    const connect = (await within(menu).findByRole("menuitem", { name: "Connect to drive" })) as HTMLButtonElement;
    expect(connect.disabled).toBe(false);
    expect(within(menu).queryByRole("menuitem", { name: "Add from drive" })).toBeNull();
    requests.length = 0; // forget the drive status check
    await user.click(within(menu).getByRole("menuitem", { name: "Upload file" }));

    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    expect(input.accept).toBe(".pdf");
    // cancelling the chooser does nothing
    fireEvent.change(input, { target: { files: [] } });
    expect(requests).toHaveLength(0);

    const pdf = new File(["%PDF-1.4"], "contract.pdf", { type: "application/pdf" });
    const other = new File(["%PDF-1.4"], "second.pdf", { type: "application/pdf" });
    fireEvent.change(input, { target: { files: [pdf, other] } });
    // the upload joins the chat's documents: the server is asked to set them
    await waitFor(() =>
      expect(ws.frames().at(-1)).toEqual({ action: "set_files", session_id: appInfo.currentSessionId, file_ids: ["f9"], token: "tok-ann" }),
    );
    expect(requests.map((r) => r.url)).toEqual([
      "/api/documents/uploadLink?fileName=contract.pdf&contentType=application%2Fpdf",
      "/api/documents/index",
    ]);
    await ws.emit({ type: "files", session_id: appInfo.currentSessionId!, files: [chatFile("f9", "contract.pdf", "pending")] });
    expect(screen.getByRole("button", { name: "Remove contract.pdf" })).toBeTruthy();
    expect(within(screen.getByRole("list", { name: "Documents in this chat" })).getByText("Indexing…")).toBeTruthy();

    await user.type(screen.getByPlaceholderText("Ask me!"), "Summarise it{Enter}");
    expect(ws.frames().at(-1)).toEqual({ action: "chat", query: "Summarise it", session_id: appInfo.currentSessionId, token: "tok-ann" });
    // the question names the file attached with it, and waits for it with its progress
    expect(within(screen.getByRole("list", { name: "Attached files" })).getByText("contract.pdf")).toBeTruthy();
    expect(screen.getByRole("status").textContent).toContain("Indexing contract.pdf…");
    await ws.emit({
      type: "files",
      session_id: appInfo.currentSessionId!,
      files: [{ ...chatFile("f9", "contract.pdf", "processing"), pagesDone: 120, pagesTotal: 417 }],
    });
    expect(screen.getByRole("status").textContent).toContain("Indexing contract.pdf… 120/417 pages");
    expect(screen.getByText("Indexing 120/417")).toBeTruthy();
    // the chip stays: the chat keeps its documents for the next questions
    expect(screen.getByRole("button", { name: "Remove contract.pdf" })).toBeTruthy();
  });

  it("takes PDFs dropped on the composer, one chip each, and refuses others by name before any upload", async () => {
    signIn();
    appInfo.currentSessionId = newSessionId(ann.email);
    let links = 0;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    handler = (url) => {
      if (url.startsWith("/api/documents/uploadLink")) {
        links++;
        return { status: 200, body: { presignedUrl: "https://r2.test/put", s3Key: `uploads/u1/doc-${links}.pdf` } };
      }
      if (url === "/api/documents/index") {
        const { s3_key } = requests.at(-1)!.body as { s3_key: string };
        return { status: 200, body: { status: "pending", fileId: s3_key.replace(/^uploads\/u1\/doc-(\d+)\.pdf$/, "f$1") } };
      }
      return { status: 200, body: { status: "not_connected" } };
    };
    // uploads stay in flight until released, so their chips can be seen
    class SlowXHR extends FakeXHR {
      override send() {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 30, total: 100 });
        void held.then(() => super.send());
      }
    }
    vi.stubGlobal("XMLHttpRequest", SlowXHR);
    const { container } = render(<ConnectedChat />);
    const ws = await socket();
    await ws.open();

    const big = new File(["%PDF-1.4"], "huge.pdf", { type: "application/pdf" });
    Object.defineProperty(big, "size", { value: 26 * 1024 * 1024 });
    const dropped = [
      new File(["%PDF-1.4"], "one.pdf", { type: "application/pdf" }),
      new File(["%PDF-1.4"], "two.pdf", { type: "application/pdf" }),
      new File(["hello"], "notes.txt", { type: "text/plain" }),
      big,
    ];
    const dock = container.querySelector(".chat-dock")!;
    const dataTransfer = { types: ["Files"], files: dropped };
    fireEvent.dragOver(dock, { dataTransfer });
    expect(screen.getByText("Drop PDFs to add them to this chat")).toBeTruthy();
    fireEvent.drop(dock, { dataTransfer });

    // the refusals show at once, before any upload ends
    const banner = await screen.findByText(/notes\.txt:/);
    expect(banner.textContent).toContain(`notes.txt: ${DOCUMENT_MESSAGES.notPdfName}`);
    expect(banner.textContent).toContain(`huge.pdf: ${DOCUMENT_MESSAGES.tooLarge}`);
    const chips = await screen.findAllByRole("status");
    await waitFor(() =>
      expect(chips.filter((c) => c.classList.contains("uploading")).map((c) => c.textContent)).toEqual(["one.pdf30%", "two.pdf30%"]),
    );
    release();
    // both join the chat in one set_files (a second one sent before the server's answer would drop the first)
    await waitFor(() => expect(screen.queryAllByRole("status").filter((c) => c.classList.contains("uploading"))).toHaveLength(0));
    const sets = ws.frames().filter((f) => (f as { action?: string }).action === "set_files") as { file_ids: string[] }[];
    expect(sets.map((f) => [...f.file_ids].sort())).toEqual([["f1", "f2"]]);
    expect(links).toBe(2); // the refused files were never sent
  });

  it("shows upload errors in a dismissible red banner", async () => {
    const user = userEvent.setup();
    vi.spyOn(console, "error").mockImplementation(() => {});
    signIn();
    appInfo.currentSessionId = newSessionId(ann.email);
    handler = () => ({ status: 200, body: { presignedUrl: "https://r2.test/put" } }); // no s3Key
    const { container } = render(<ConnectedChat />);
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(["%PDF"], "a.pdf", { type: "application/pdf" })] } });
    const banner = await screen.findByRole("alert");
    expect(banner.textContent).toBe("Presigned URL or S3 key not received.");
    await user.click(within(banner).getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(chatState.files).toEqual([]);
  });

  it("offers the memo button once messages exist", async () => {
    signIn();
    appInfo.currentSessionId = newSessionId(ann.email);
    const { container } = render(<ConnectedChat />);
    expect(screen.queryByRole("button", { name: "Send chat memo via email" })).toBeNull();
    const ws = await socket();
    await ws.open();
    await ws.emit({
      type: "full_chat",
      session_id: appInfo.currentSessionId!,
      messages: [stored({ id: "m1", role: "user", content: "Hi" })],
      mode: "model",
      readOnly: false,
      files: [],
    });
    const memo = screen.getByRole("button", { name: "Send chat memo via email" }) as HTMLButtonElement;
    expect(memo.disabled).toBe(false);
    expect(memo.closest("[data-tooltip]")?.getAttribute("data-tooltip")).toBe("Send chat memo via email");
    expect((screen.getByRole("button", { name: "Attach a file" }) as HTMLButtonElement).disabled).toBe(false);
    expect(container.querySelector('[data-tooltip="Log in to analyze files for free."]')).toBeNull();
  });
});

describe("Chat page, anonymous", () => {
  it("disables attach and memo with the log-in tooltips", async () => {
    const { container } = render(<ConnectedChat />);
    const attach = screen.getByRole("button", { name: "Attach a file" }) as HTMLButtonElement;
    expect(attach.disabled).toBe(true);
    expect(attach.closest("[data-tooltip]")?.getAttribute("data-tooltip")).toBe("Log in to analyze files for free.");
    // screen readers get the tooltip as the button's description
    expect(document.getElementById(attach.getAttribute("aria-describedby")!)?.textContent).toBe("Log in to analyze files for free.");
    expect(container.querySelector('input[type="file"]')).toBeNull();

    const ws = await socket();
    await ws.open();
    await ws.emit({
      type: "full_chat",
      session_id: appInfo.currentSessionId!,
      messages: [stored({ id: "m1", role: "user", content: "Hi" })],
      mode: "model",
      readOnly: false,
      files: [],
    });
    const memo = screen.getByRole("button", { name: "Send chat memo via email" }) as HTMLButtonElement;
    expect(memo.disabled).toBe(true);
    expect(memo.closest("[data-tooltip]")?.getAttribute("data-tooltip")).toBe("Log in to send chat memo via email for free.");
  });
});

// ---------------------------------------------------------------- answer text

describe("Answer text", () => {
  it("links only the allowed schemes and shows other links as plain text", async () => {
    render(
      <RichText
        text={
          "See [evil](javascript:alert(1)) and [docs](https://example.com/a_(b)).\n" +
          "Also [data](data:text/html,hi), [mail](mailto:help@example.com), [chat](xmpp:ann@example.com), [irc](ircs://irc.example.com/x), [local](/app/files) and https://plain.example.com/page."
        }
      />,
    );
    expect(await screen.findByRole("link", { name: "docs" })).toBeTruthy(); // the renderer has loaded
    expect(screen.queryByRole("link", { name: "evil" })).toBeNull();
    expect(screen.getByText(/See evil and/)).toBeTruthy();
    expect(document.querySelector('a[href^="javascript"]')).toBeNull();
    expect(screen.getByRole("link", { name: "docs" }).getAttribute("href")).toBe("https://example.com/a_(b)");
    expect(screen.queryByRole("link", { name: "data" })).toBeNull();
    expect(screen.getByRole("link", { name: "mail" }).getAttribute("href")).toBe("mailto:help@example.com");
    expect(screen.getByRole("link", { name: "chat" }).getAttribute("href")).toBe("xmpp:ann@example.com");
    expect(screen.getByRole("link", { name: "irc" }).getAttribute("href")).toBe("ircs://irc.example.com/x");
    expect(screen.getByRole("link", { name: "local" }).getAttribute("href")).toBe("/app/files");
    expect(screen.getByRole("link", { name: "https://plain.example.com/page" })).toBeTruthy();
    for (const a of document.querySelectorAll("a")) expect(a.getAttribute("rel")).toBe("noopener noreferrer");
  });

  it("renders lists, bold text and citations, and leaves unknown citations as text", async () => {
    const onCite = vi.fn();
    render(
      <RichText
        text={"**Key points**\n\n- Notice is 30 days [1]\n- Pay is monthly [1, 2]\n\nUnknown [7]."}
        sources={[
          { n: 1, fileId: "f1", fileName: "a.pdf", page: 2 },
          { n: 2, fileId: "f2", fileName: "b.pdf", page: 9 },
        ]}
        onCite={onCite}
      />,
    );
    expect((await screen.findByText("Key points")).tagName).toBe("STRONG");
    expect(screen.getAllByRole("listitem")).toHaveLength(2);
    expect(screen.getAllByRole("link", { name: "[1]" })).toHaveLength(2);
    fireEvent.click(screen.getByRole("link", { name: "[2]" }));
    expect(onCite).toHaveBeenCalledWith({ n: 2, fileId: "f2", fileName: "b.pdf", page: 9 });
    expect(screen.queryByRole("link", { name: "[7]" })).toBeNull();
    expect(screen.getByText("Unknown [7].")).toBeTruthy();
  });
});

// ---------------------------------------------------------------- connection

describe("RealtimeConnection", () => {
  it("queues until open, then sends in order with the token", async () => {
    localStorage.setItem("token", "tok");
    const conn = new RealtimeConnection({ onUnauthorized: vi.fn() });
    conn.connect("ann@example.com-1");
    // queued while the socket's ticket is on its way, then while the socket opens
    expect(conn.send({ action: "get_chats" })).toBe(true);
    const ws = await socket();
    expect(requests.filter((r) => r.url === TICKET_PATH)).toEqual([
      { method: "POST", url: TICKET_PATH, body: { session_id: "ann@example.com-1" } },
    ]);
    // the URL's token parameter is the ticket, never the sign-in token
    expect(new URL(ws.url).searchParams.get("token")).toMatch(/^ticket-\d+$/);
    expect(ws.url).not.toContain("tok&");
    expect(ws.sent).toEqual([]);
    await ws.open();
    expect(ws.frames()).toEqual([{ action: "get_chats", token: "tok" }]);
    conn.close();
    expect(ws.closedWith).toBe(1000);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(conn.send({ action: "get_chats" })).toBe(false);
    expect(logged).toHaveBeenCalled();
  });

  it("sends exactly PING every 120000 ms while open", async () => {
    vi.useFakeTimers();
    localStorage.setItem("token", "tok");
    const conn = new RealtimeConnection({ onUnauthorized: vi.fn() });
    conn.connect("guest-1");
    const ws = await socket();
    vi.advanceTimersByTime(PING_INTERVAL_MS * 2);
    expect(ws.sent).toEqual([]); // not before open
    await ws.open();
    vi.advanceTimersByTime(PING_INTERVAL_MS - 1);
    expect(ws.sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ws.sent).toEqual([PING]);
    expect(PING_INTERVAL_MS).toBe(120000);
    vi.advanceTimersByTime(PING_INTERVAL_MS);
    expect(ws.sent).toEqual([PING, PING]);
    conn.close();
    vi.advanceTimersByTime(PING_INTERVAL_MS * 3);
    expect(ws.sent).toHaveLength(2);
  });

  it("reconnects 3000 ms after an unclean close, but not after a clean one or close()", async () => {
    vi.useFakeTimers();
    const lost: boolean[] = [];
    const conn = new RealtimeConnection({ onUnauthorized: vi.fn(), onLost: (l) => lost.push(l) });
    const opened = vi.fn();
    conn.onOpen(opened);
    conn.connect("guest-1");
    await FakeWebSocket.instances[0]!.open();
    expect(lost).toEqual([]);
    await FakeWebSocket.instances[0]!.serverClose(1006, false);
    expect(conn.state).toBe("reconnecting");
    expect(lost).toEqual([true]);
    vi.advanceTimersByTime(RECONNECT_DELAY_MS - 1);
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(RECONNECT_DELAY_MS).toBe(3000);
    expect(FakeWebSocket.instances).toHaveLength(2);
    expect(FakeWebSocket.instances[1]!.url).toBe(FakeWebSocket.instances[0]!.url);
    expect(lost).toEqual([true]); // still lost while the new socket connects
    await FakeWebSocket.instances[1]!.open();
    expect(opened).toHaveBeenCalledTimes(2);
    expect(lost).toEqual([true, false]);

    await FakeWebSocket.instances[1]!.serverClose(1000, true);
    vi.advanceTimersByTime(RECONNECT_DELAY_MS * 2);
    expect(FakeWebSocket.instances).toHaveLength(2);

    conn.connect("guest-2");
    await FakeWebSocket.instances[2]!.serverClose(1006, false);
    conn.close();
    vi.advanceTimersByTime(RECONNECT_DELAY_MS * 2);
    expect(FakeWebSocket.instances).toHaveLength(3);
  });

  it.each([4001, 1008])("forces a logout on close %i (token removed, sent to login, no reconnect)", async (code) => {
    vi.useFakeTimers();
    signIn();
    appInfo.currentSessionId = newSessionId(ann.email);
    localStorage.setItem("currentSessionId", appInfo.currentSessionId);
    const conn = new RealtimeConnection();
    conn.connect(appInfo.currentSessionId);
    const ws = await socket();
    await ws.open();
    await ws.serverClose(code, true);
    expect(localStorage.getItem("token")).toBeNull();
    expect(localStorage.getItem("currentSessionId")).toBeNull();
    expect(userInfo.user).toBeNull();
    expect(appInfo.currentSessionId).toBeNull();
    expect(navigate).toHaveBeenCalledWith("/app/auth/login");
    vi.advanceTimersByTime(RECONNECT_DELAY_MS * 2);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it("on close 4403 keeps the user signed in and shows why, with the way back to their own chats, and drops the chat from the history once left", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn();
    const shared = "owner@example.com-shared-1";
    userInfo.chatList = [{ session_id: shared, updated_at: 1, summary: "Shared" }];
    appInfo.currentSessionId = shared;
    render(<ConnectedChat />);
    const ws = await socket();
    await ws.open();
    await ws.emit({ type: "error", code: 403, message: CHAT_MESSAGES.accessRemoved });
    await ws.serverClose(CLOSE_NO_ACCESS, true);

    expect(await screen.findByRole("heading", { name: CHAT_MESSAGES.accessRemoved })).toBeTruthy();
    // the chat stays listed while it is open (a reload on it still says why)
    expect(userInfo.chatList.map((c) => c.session_id)).toEqual([shared]);
    expect(localStorage.getItem("token")).toBe("tok-ann");
    expect(userInfo.user).toEqual(ann);
    expect(navigate).not.toHaveBeenCalledWith("/app/auth/login");
    vi.advanceTimersByTime(RECONNECT_DELAY_MS * 2);
    expect(FakeWebSocket.instances).toHaveLength(1); // no reconnect to a chat it may not open

    fireEvent.click(screen.getByRole("button", { name: "Back to your chats" }));
    await waitFor(() => expect(appInfo.currentSessionId?.startsWith(`${ann.email}-`)).toBe(true));
    // left, it leaves the history this browser kept
    await waitFor(() => expect(userInfo.chatList).toEqual([]));
    expect(await screen.findByText("Hello, how can I help you?")).toBeTruthy();
    vi.useRealTimers();
  });

  it("forces a logout on an error frame with code 401", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    signIn();
    const listener = vi.fn();
    const conn = new RealtimeConnection();
    conn.onMessage(listener);
    conn.connect(newSessionId(ann.email));
    const ws = await socket();
    await ws.open();
    await ws.emit({ type: "error", code: 401, message: "Unauthorized" });
    expect(localStorage.getItem("token")).toBeNull();
    expect(navigate).toHaveBeenCalledWith("/app/auth/login");
    expect(ws.closedWith).toBe(1000);
    expect(listener).not.toHaveBeenCalled();
  });

  it("tells the user why in the Error modal; Ok clears local storage and goes to login", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    signIn();
    const { ErrorModal } = await import("../../client/components/ErrorModal");
    render(<ErrorModal />);
    const conn = new RealtimeConnection();
    conn.connect(newSessionId(ann.email));
    const ws = await socket();
    await ws.open();
    await ws.emit({ type: "error", code: 403, message: "You cannot open this chat." });
    await ws.serverClose(1008, true);
    const dialog = await screen.findByRole("dialog", { name: "Error" });
    expect(dialog.textContent).toContain("You cannot open this chat.");
    localStorage.setItem("root", "{}");
    fireEvent.click(screen.getByRole("button", { name: "Ok" }));
    expect(localStorage.getItem("root")).toBeNull();
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Error" })).toBeNull());
    expect(navigate).toHaveBeenLastCalledWith("/app/auth/login");
  });

  it("signs out without 'Your session has expired' though the server closes this session's socket as it signs it out", async () => {
    signIn();
    appInfo.currentSessionId = newSessionId(ann.email);
    const conn = new RealtimeConnection();
    conn.connect(appInfo.currentSessionId);
    const ws = await socket();
    await ws.open();
    let during: Promise<void> = Promise.resolve();
    handler = (url) => {
      // the server revokes the session's sockets before it answers the sign-out
      if (url === "/api/auth/signout")
        during = ws.emit({ type: "error", code: 401, message: "Your session has expired. Please log in again." });
      return { status: 200, body: { status: "success", message: "Signed out." } };
    };
    await signOut();
    await during;
    await ws.serverClose(4001); // and the close may arrive after the sign-out's answer
    expect(localStorage.getItem("token")).toBeNull();
    expect(navigate).not.toHaveBeenCalledWith("/app/auth/login");
    expect(screen.queryByRole("dialog", { name: "Error" })).toBeNull();
  });

  it("forces a logout from the chat page on close 4001", async () => {
    signIn();
    appInfo.currentSessionId = newSessionId(ann.email);
    render(<ConnectedChat />);
    await (await socket()).open();
    await (await socket()).serverClose(4001);
    expect(localStorage.getItem("token")).toBeNull();
    expect(navigate).toHaveBeenCalledWith("/app/auth/login");
  });

  it("asks a new ticket for every reconnect; a ticket refused for the sign-in logs out, another failure retries in 3000 ms", async () => {
    vi.useFakeTimers();
    vi.spyOn(console, "error").mockImplementation(() => {});
    signIn();
    const sessionId = newSessionId(ann.email);
    const ticketOf = (ws: FakeWebSocket) => new URL(ws.url).searchParams.get("token");
    const conn = new RealtimeConnection();
    conn.connect(sessionId);
    const first = await socket();
    await first.open();
    await first.serverClose(1006, false);
    vi.advanceTimersByTime(RECONNECT_DELAY_MS);
    await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2));
    const second = FakeWebSocket.instances[1]!;
    expect(ticketOf(second)).not.toBe(ticketOf(first));
    expect(requests.filter((r) => r.url === TICKET_PATH)).toHaveLength(2);
    conn.close();

    // the ticket cannot be had (the server fails): no socket, another try after the reconnect delay
    ticket = () => ({ status: 503, body: { status: "error", message: "Try again." } });
    const failing = new RealtimeConnection();
    failing.connect(sessionId);
    await vi.waitFor(() => expect(failing.state).toBe("reconnecting"));
    vi.advanceTimersByTime(RECONNECT_DELAY_MS);
    await vi.waitFor(() => expect(requests.filter((r) => r.url === TICKET_PATH)).toHaveLength(4));
    expect(FakeWebSocket.instances).toHaveLength(2);
    failing.close();

    // the sign-in itself is refused: as on close 4001, no socket and no retry
    ticket = () => ({ status: 401, body: { status: "error", message: "Unauthorized" } });
    const onUnauthorized = vi.fn();
    const refused = new RealtimeConnection({ onUnauthorized });
    refused.connect(sessionId);
    await vi.waitFor(() => expect(onUnauthorized).toHaveBeenCalledWith("Unauthorized"));
    expect(refused.state).toBe("closed");
    vi.advanceTimersByTime(RECONNECT_DELAY_MS * 2);
    expect(requests.filter((r) => r.url === TICKET_PATH)).toHaveLength(5);
    expect(FakeWebSocket.instances).toHaveLength(2);
  });
});

describe("refusals", () => {
  it("hands a refused question back to the composer and shows the reason, with its upgrade link, in the banner", async () => {
    const user = userEvent.setup();
    signIn();
    appInfo.currentSessionId = newSessionId(ann.email);
    render(<ConnectedChat />);
    const ws = await socket();
    await ws.open();
    await user.type(screen.getByPlaceholderText("Ask me!"), "one more question{Enter}");
    expect(screen.getByText("one more question")).toBeTruthy();
    await ws.emit({
      type: "error",
      code: 429,
      message: "You have used today's 50 messages of the free plan. [Upgrade your plan](/app/payment) to keep chatting.",
    });
    // the question is not part of the chat (the server did not keep it either): it is back in the box
    expect(chatState.messages).toEqual([]);
    expect((screen.getByPlaceholderText("Ask me!") as HTMLTextAreaElement).value).toBe("one more question");
    const banner = screen.getByRole("alert");
    expect(banner.textContent).toBe("You have used today's 50 messages of the free plan. Upgrade your plan to keep chatting.");
    expect(within(banner).getByRole("link", { name: "Upgrade your plan" }).getAttribute("href")).toBe("/app/payment");
    expect(chatState.loading).toBe(false);
  });

  it("keeps the spec's failure text for an answer that failed", async () => {
    const { chatState } = await import("../../client/state/chat");
    const { handleServerMessage } = await import("../../client/state/chatMessages");
    chatState.sessionId = "s1";
    chatState.pendingQuery = "again";
    chatState.messages = [
      { id: "local-user-1", type: "user", text: "again" },
      { id: "l", type: "loading", text: "Please wait a moment..." },
    ];
    handleServerMessage({ type: "error", code: 500, message: "boom" });
    expect(chatState.messages.map((m) => m.text)).toEqual(["again", "Sorry, I couldn't process your request."]);
    expect(chatState.draft).toBeNull();
  });

  it("shows a refused change of the chat's documents in the banner", async () => {
    const { chatState } = await import("../../client/state/chat");
    const { handleServerMessage } = await import("../../client/state/chatMessages");
    chatState.sessionId = "s1";
    handleServerMessage({ type: "error", code: 404, message: CHAT_MESSAGES.fileNotFound, action: "set_files" });
    expect(chatState.uploadError).toBe(CHAT_MESSAGES.fileNotFound);
    expect(chatState.messages).toEqual([]);
  });
});
