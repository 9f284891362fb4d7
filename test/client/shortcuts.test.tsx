// Proves the history search and the keyboard shortcuts: typing in "Search chats"
// asks the server once typing pauses and shows the chats found with the words
// around the match (or "No chats match"), one click opens a chat, clearing the
// box brings the history back; Ctrl/Cmd+K opens the sidebar and focuses the box;
// Ctrl/Cmd+Shift+O starts a new chat; Escape on the chat page stops an answer
// being written (not while a dialog or menu is open); `?` lists the shortcuts,
// except while typing.
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ChatHistory } from "../../client/layout/ChatHistory";
import { Shortcuts } from "../../client/layout/Shortcuts";
import { appInfo } from "../../client/state/app";
import { chatState, resetChat } from "../../client/state/chat";
import { historySearch, searchHistory } from "../../client/state/history";
import { userInfo } from "../../client/state/user";
import type { ChatSearchResponse } from "../../worker/contract/protocol";

const stopAnswer = vi.hoisted(() => vi.fn());
vi.mock("../../client/state/chatMessages", async (original) => ({
  ...(await original<typeof import("../../client/state/chatMessages")>()),
  stopAnswer,
}));

const ann = { id: "u1", email: "ann@example.com", name: "Ann", phone: "", picture: null };
const requests: string[] = [];
let found: ChatSearchResponse = { chats: [] };

function Where() {
  return <p data-testid="path">{useLocation().pathname}</p>;
}

function renderApp(path = "/app/files") {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Shortcuts />
      <ChatHistory />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  requests.length = 0;
  found = { chats: [] };
  stopAnswer.mockReset();
  vi.stubGlobal("fetch", async (url: string) => {
    requests.push(url);
    return new Response(JSON.stringify(found), { status: 200, headers: { "Content-Type": "application/json" } });
  });
  localStorage.setItem("token", "tok");
  userInfo.user = ann;
  userInfo.chatList = [{ session_id: "ann@example.com-1", updated_at: Date.now(), summary: "Dental plan" }];
  appInfo.isSidebarOpen = true;
  appInfo.currentSessionId = "ann@example.com-1";
  resetChat();
  searchHistory("");
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("searching the chat history", () => {
  it("shows the chats found once typing pauses, opens one, and returns to the history when cleared", async () => {
    found = {
      chats: [
        { session_id: "ann@example.com-2", updated_at: 1, summary: "Leave questions", snippet: "…leave is sixteen weeks at full pay…" },
      ],
    };
    const user = userEvent.setup();
    renderApp();
    const box = screen.getByRole("searchbox", { name: "Search chats" });
    await user.type(box, "sixteen");
    const results = await screen.findByRole("list", { name: "Chats found" });
    // one request for the word typed, not one per letter
    expect(requests.filter((u) => u.startsWith("/api/chat/search"))).toEqual(["/api/chat/search?q=sixteen"]);
    expect(within(results).getByText("…leave is sixteen weeks at full pay…")).toBeTruthy();
    expect(screen.queryByText("Dental plan")).toBeNull();

    await user.click(within(results).getByRole("button", { name: /Leave questions/ }));
    expect(appInfo.currentSessionId).toBe("ann@example.com-2");
    expect(screen.getByTestId("path").textContent).toBe("/app/chat");

    found = { chats: [] };
    await user.clear(box);
    await user.type(box, "zzz");
    expect(await screen.findByText("No chats match “zzz”.")).toBeTruthy();
    await user.clear(box);
    expect(await screen.findByText("Dental plan")).toBeTruthy();
    expect(historySearch.results).toBeNull();
  });
});

describe("keyboard shortcuts", () => {
  it("Ctrl+K opens the sidebar and focuses the search; Ctrl+Shift+O starts a new chat", async () => {
    appInfo.isSidebarOpen = false;
    renderApp();
    expect(screen.queryByRole("searchbox", { name: "Search chats" })).toBeNull();
    fireEvent.keyDown(document.body, { key: "k", ctrlKey: true });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("searchbox", { name: "Search chats" })));

    const before = appInfo.currentSessionId;
    fireEvent.keyDown(document.body, { key: "O", ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(screen.getByTestId("path").textContent).toBe("/app/chat"));
    expect(appInfo.currentSessionId).not.toBe(before);
    expect(appInfo.currentSessionId?.startsWith("ann@example.com-")).toBe(true);
  });

  it("Escape stops an answer being written on the chat page, but not while a dialog or menu is open", async () => {
    act(() => {
      chatState.loading = true;
    });
    const other = renderApp("/app/files");
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(stopAnswer).not.toHaveBeenCalled(); // another page: the answer goes on
    other.unmount();
    act(() => {
      chatState.loading = false;
    });

    renderApp("/app/chat");
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(stopAnswer).not.toHaveBeenCalled(); // nothing is being written
    act(() => {
      chatState.loading = true;
    });
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(stopAnswer).toHaveBeenCalledTimes(1);

    // an open menu (Attach, a row's actions, the account menu) closes first
    const menu = document.createElement("div");
    menu.setAttribute("role", "menu");
    document.body.append(menu);
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(stopAnswer).toHaveBeenCalledTimes(1);
    menu.remove();

    fireEvent.keyDown(document.body, { key: "?" });
    const dialog = await screen.findByRole("dialog", { name: "Keyboard shortcuts" });
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(stopAnswer).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(dialog.isConnected).toBe(false));
  });

  it("Ctrl+K is left to the browser when there is no history to search", () => {
    userInfo.chatList = [];
    appInfo.isSidebarOpen = false;
    renderApp();
    const event = new KeyboardEvent("keydown", { key: "k", ctrlKey: true, bubbles: true, cancelable: true });
    document.body.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
    expect(appInfo.isSidebarOpen).toBe(false);
  });

  it("? lists the shortcuts with this platform's key, but not while typing", async () => {
    renderApp();
    fireEvent.keyDown(screen.getByRole("searchbox", { name: "Search chats" }), { key: "?" });
    expect(screen.queryByRole("dialog", { name: "Keyboard shortcuts" })).toBeNull();
    fireEvent.keyDown(document.body, { key: "?" });
    const dialog = await screen.findByRole("dialog", { name: "Keyboard shortcuts" });
    expect(within(dialog).getByText(/^(Ctrl|⌘)\+K$/)).toBeTruthy();
    expect(within(dialog).getByText("Start a new chat")).toBeTruthy();
    expect(within(dialog).getByText("Stop the answer being written, or close a dialog")).toBeTruthy();
  });

  it("shows ⌘ on a Mac and Ctrl elsewhere; Cmd+K works like Ctrl+K", async () => {
    vi.spyOn(navigator, "platform", "get").mockReturnValue("MacIntel");
    appInfo.isSidebarOpen = false;
    const { unmount } = renderApp();
    fireEvent.keyDown(document.body, { key: "k", metaKey: true });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("searchbox", { name: "Search chats" })));
    fireEvent.keyDown(document.body, { key: "?" });
    const mac = await screen.findByRole("dialog", { name: "Keyboard shortcuts" });
    expect(within(mac).getByText("⌘+K")).toBeTruthy();
    expect(within(mac).getByText("⌘+Shift+O")).toBeTruthy();
    unmount();

    vi.spyOn(navigator, "platform", "get").mockReturnValue("Win32");
    renderApp();
    fireEvent.keyDown(document.body, { key: "?" });
    const other = await screen.findByRole("dialog", { name: "Keyboard shortcuts" });
    expect(within(other).getByText("Ctrl+K")).toBeTruthy();
    expect(within(other).getByText("Ctrl+Shift+O")).toBeTruthy();
    expect(within(other).queryByText(/⌘/)).toBeNull();
  });
});
