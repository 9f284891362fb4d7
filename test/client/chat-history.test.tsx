// Proves choosing a chat in the sidebar history (on a phone the sidebar closes),
// and renaming and deleting one from it: only one's own
// chats have the menu; Rename sends PATCH with the new title and the list shows
// it; a refused title shows the server's message; Delete asks first, sends
// DELETE, removes the chat and, when it was open, starts a new chat.
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DELETE_CHAT_TEXT } from "../../client/components/history/DeleteChatDialog";
import { ChatHistory } from "../../client/layout/ChatHistory";
import { appInfo } from "../../client/state/app";
import { userInfo } from "../../client/state/user";
import { CHAT_MESSAGES } from "../../worker/contract/protocol";

const ann = { id: "u1", email: "ann@example.com", name: "Ann", phone: "", picture: null };
const own = "ann@example.com-own-1";
const shared = "bob@example.com-shared-1";
let reply: { status: number; body: unknown } = { status: 200, body: { status: "success", message: "ok" } };
const requests: { method: string; url: string; body: unknown }[] = [];

beforeEach(() => {
  requests.length = 0;
  reply = { status: 200, body: { status: "success", message: "ok" } };
  vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
    requests.push({ method: init?.method ?? "GET", url, body: init?.body ? JSON.parse(init.body as string) : undefined });
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { "Content-Type": "application/json" } });
  });
  localStorage.setItem("token", "tok");
  userInfo.user = ann;
  userInfo.chatList = [
    { session_id: own, updated_at: Date.now(), summary: "Dental plan" },
    { session_id: shared, updated_at: Date.now(), summary: "Bob's budget" },
  ];
  appInfo.isSidebarOpen = true;
  appInfo.currentSessionId = own;
});
afterEach(() => vi.unstubAllGlobals());

function renderHistory() {
  render(
    <MemoryRouter>
      <ChatHistory />
    </MemoryRouter>,
  );
}

describe("choosing a chat in the history", () => {
  const phone = (matches: boolean) => vi.stubGlobal("matchMedia", (query: string) => ({ matches, media: query }));

  it("opens it and, on a phone, closes the slide-in sidebar so the chat shows", async () => {
    phone(true);
    renderHistory();
    await userEvent.setup().click(screen.getByRole("button", { name: "Bob's budget" }));
    expect(appInfo.currentSessionId).toBe(shared);
    expect(appInfo.isSidebarOpen).toBe(false);
  });

  it("keeps the sidebar open on a large screen", async () => {
    phone(false);
    renderHistory();
    await userEvent.setup().click(screen.getByRole("button", { name: "Bob's budget" }));
    expect(appInfo.currentSessionId).toBe(shared);
    expect(appInfo.isSidebarOpen).toBe(true);
  });
});

describe("the chat history menu", () => {
  it("is there for one's own chats only", () => {
    renderHistory();
    expect(screen.getByRole("button", { name: "Actions for Dental plan" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Actions for Bob's budget" })).toBeNull();
  });

  it("renames a chat, and shows the server's message for a refused title", async () => {
    const user = userEvent.setup();
    renderHistory();
    await user.click(screen.getByRole("button", { name: "Actions for Dental plan" }));
    await user.click(screen.getByRole("menuitem", { name: "Rename" }));
    const dialog = screen.getByRole("dialog", { name: "Rename chat" });
    const field = within(dialog).getByLabelText("Chat title");
    await user.clear(field);
    reply = { status: 400, body: { status: "error", message: CHAT_MESSAGES.titleRequired } };
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText(CHAT_MESSAGES.titleRequired)).toBeTruthy();

    reply = { status: 200, body: { status: "success", message: CHAT_MESSAGES.renamed } };
    await user.type(field, "Dental questions 2027");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(requests.at(-1)).toEqual({
      method: "PATCH",
      url: `/api/chat/${encodeURIComponent(own)}`,
      body: { title: "Dental questions 2027" },
    });
    expect(screen.getByRole("button", { name: "Dental questions 2027" })).toBeTruthy();
  });

  it("deletes a chat after asking, and starts a new chat when it was the open one", async () => {
    const user = userEvent.setup();
    renderHistory();
    await user.click(screen.getByRole("button", { name: "Actions for Dental plan" }));
    await user.click(screen.getByRole("menuitem", { name: "Delete" }));
    const dialog = screen.getByRole("dialog", { name: "Delete chat" });
    expect(within(dialog).getByText(DELETE_CHAT_TEXT)).toBeTruthy();
    expect(requests).toEqual([]);
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(requests).toEqual([{ method: "DELETE", url: `/api/chat/${encodeURIComponent(own)}`, body: undefined }]);
    expect(userInfo.chatList.map((c) => c.session_id)).toEqual([shared]);
    expect(appInfo.currentSessionId).not.toBe(own);
    expect(appInfo.currentSessionId?.startsWith("ann@example.com-")).toBe(true);
  });
});
