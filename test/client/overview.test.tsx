// Proves the chat's "Document overview" card: shown for each indexed document of the chat
// (once, fetched from /api/documents/:fileId/overview), with its pages, summary, outline and
// questions; an outline entry opens the viewer at its page, a question is asked over the
// chat's connection, and the card folds. Not proved here: the server's overview (worker
// test) or real pages in the viewer (e2e).
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DocumentOverview } from "../../worker/contract/overview";
import Chat from "../../client/pages/Chat";
import { chatState, resetChat } from "../../client/state/chat";
import { userInfo } from "../../client/state/user";
import { closeViewer, viewer } from "../../client/state/viewer";

vi.mock("../../client/lib/pdf", () => ({
  loadPdfJs: () => new Promise(() => {}),
  openPdf: () => new Promise(() => {}),
  closePdfs: vi.fn(),
}));

const OVERVIEW: DocumentOverview = {
  pages: 12,
  outline: [
    { title: "Annual Leave Policy", page: 3, level: 1 },
    { title: "Carrying leave over", page: 5, level: 2 },
  ],
  summary: "This handbook explains the policies. It covers leave. It covers travel.",
  questions: [
    "What does Handbook.pdf say about Annual Leave Policy?",
    "What is Handbook.pdf about?",
    "What are the key points of Handbook.pdf?",
  ],
};
const requests: string[] = [];

beforeEach(() => {
  requests.length = 0;
  localStorage.setItem("token", "tok");
  userInfo.user = { id: "u1", email: "ann@example.com", name: "Ann", phone: "", picture: null };
  resetChat();
  chatState.sessionId = "chat-1";
  chatState.files = [
    { fileId: "f1", fileName: "Handbook.pdf", status: "indexed", pagesDone: 12, pagesTotal: 12, error: null },
    { fileId: "f2", fileName: "Later.pdf", status: "processing", pagesDone: 1, pagesTotal: 9, error: null },
  ];
  vi.stubGlobal("fetch", async (url: string) => {
    requests.push(url);
    const body = url.includes("/overview") ? OVERVIEW : { url: "http://127.0.0.1/api/documents/file/x?signature=s" };
    return new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
  });
});

afterEach(() => {
  closeViewer();
  vi.unstubAllGlobals();
});

const renderChat = () =>
  render(
    <MemoryRouter initialEntries={["/app/chat"]}>
      <Chat />
    </MemoryRouter>,
  );

describe("the document overview card", () => {
  it("shows an indexed document's overview once, and an outline entry opens the viewer at its page", async () => {
    const user = userEvent.setup();
    renderChat();
    const card = await screen.findByRole("region", { name: "Document overview" });
    expect(screen.getAllByRole("region", { name: "Document overview" })).toHaveLength(1); // Later.pdf is still indexing
    expect(card.textContent).toContain("Handbook.pdf");
    expect(card.textContent).toContain("12 pages");
    expect(card.textContent).toContain(OVERVIEW.summary);
    expect(requests.filter((u) => u.includes("/api/documents/f1/overview"))).toHaveLength(1);
    expect(requests.some((u) => u.includes("f2/overview"))).toBe(false);

    await user.click(within(card).getByRole("button", { name: /Carrying leave over/ }));
    const panel = await screen.findByRole("complementary", { name: "Document viewer" });
    expect(panel.textContent).toContain("Handbook.pdf");
    expect(panel.textContent).toContain("p. 5");
    expect(viewer.sources[viewer.index]).toMatchObject({ fileId: "f1", page: 5 });
    await waitFor(() => expect(requests.some((u) => u.includes("viewDocument") && u.includes("file_id=f1"))).toBe(true));
  });

  it("lists three suggested questions and folds", async () => {
    const user = userEvent.setup();
    renderChat();
    const card = await screen.findByRole("region", { name: "Document overview" });
    expect(within(card).getAllByRole("button", { name: /\?$/ })).toHaveLength(3);
    await user.click(within(card).getByRole("button", { name: "Hide overview" }));
    expect(card.textContent).not.toContain(OVERVIEW.summary);
    expect(within(card).getByRole("button", { name: "Show overview" }).getAttribute("aria-expanded")).toBe("false");
  });
});
