// Proves the "Export chat" menu (#45 item 4): its accessible names, that choosing Markdown or PDF
// downloads GET /api/chat/:session_id/export with the bearer token and saves the blob under the
// name the server's Content-Disposition gives (an <a download> clicked), that a shared reader may
// export, and that a refused export reaches the error callback with the server's message. fetch,
// blob URLs and the click are fakes: the endpoint itself is covered by test/worker/chat-export.test.ts.
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ExportMenu } from "../../client/components/chat/ExportMenu";
import { attachmentName } from "../../client/lib/api";
import { chatState, resetChat } from "../../client/state/chat";
import { userInfo } from "../../client/state/user";

const SESSION = "ann@example.com-s1";
type Seen = { url: string; auth: string | undefined };
let seen: Seen[];
let reply: () => Response;
let saved: { href: string; download: string }[];

beforeEach(() => {
  seen = [];
  saved = [];
  localStorage.setItem("token", "tok-ann");
  userInfo.user = { id: "u1", email: "ann@example.com", name: "Ann", phone: "", picture: null };
  resetChat();
  chatState.sessionId = SESSION;
  chatState.messages = [
    { id: "m1", type: "user", text: "Notice period?" },
    { id: "m2", type: "bot", text: "30 days [1]." },
  ];
  reply = () =>
    new Response("# Notice period?\n", {
      status: 200,
      headers: { "Content-Type": "text/markdown; charset=utf-8", "Content-Disposition": `attachment; filename="Notice period.md"` },
    });
  vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
    seen.push({ url, auth: (init?.headers as Record<string, string> | undefined)?.Authorization });
    return reply();
  });
  vi.spyOn(URL, "createObjectURL").mockImplementation(() => "blob:export-1");
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ href: this.getAttribute("href")!, download: this.download });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  userInfo.user = null;
  localStorage.clear();
});

describe("Export chat", () => {
  it("offers Markdown and PDF and downloads the one chosen with the bearer token, saved under the server's name", async () => {
    const user = userEvent.setup();
    const onError = vi.fn();
    render(<ExportMenu onError={onError} />);
    const button = screen.getByRole("button", { name: "Export chat" });
    expect(button.getAttribute("aria-haspopup")).toBe("menu");
    await user.click(button);
    const menu = screen.getByRole("menu");
    expect(
      within(menu)
        .getAllByRole("menuitem")
        .map((m) => m.textContent),
    ).toEqual(["Markdown", "PDF"]);

    await user.click(within(menu).getByRole("menuitem", { name: "Markdown" }));
    await waitFor(() => expect(saved).toEqual([{ href: "blob:export-1", download: "Notice period.md" }]));
    expect(seen).toEqual([{ url: `/api/chat/${encodeURIComponent(SESSION)}/export?format=md`, auth: "Bearer tok-ann" }]);
    expect(screen.queryByRole("menu")).toBeNull();

    reply = () =>
      new Response(new Uint8Array([37, 80, 68, 70, 45]), {
        status: 200,
        headers: {
          "Content-Type": "application/pdf",
          "Content-Disposition": `attachment; filename="_.pdf"; filename*=UTF-8''%E7%A8%8E.pdf`,
        },
      });
    await user.click(screen.getByRole("button", { name: "Export chat" }));
    await user.click(screen.getByRole("menuitem", { name: "PDF" }));
    await waitFor(() => expect(saved.at(-1)).toEqual({ href: "blob:export-1", download: "税.pdf" }));
    expect(seen.at(-1)!.url).toBe(`/api/chat/${encodeURIComponent(SESSION)}/export?format=pdf`);
    const blob = vi.mocked(URL.createObjectURL).mock.calls.at(-1)![0] as Blob;
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(new Uint8Array([37, 80, 68, 70, 45]));
    expect(onError).not.toHaveBeenCalled();
  });

  it("is worked from the keyboard: the first item focused as it opens, arrows between items, Escape back to the button", async () => {
    const user = userEvent.setup();
    render(<ExportMenu onError={() => {}} />);
    const button = screen.getByRole("button", { name: "Export chat" });
    button.focus();
    await user.keyboard("{Enter}");
    expect(document.activeElement?.textContent).toBe("Markdown");
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement?.textContent).toBe("PDF");
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement?.textContent).toBe("Markdown");
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it("is there for a shared reader, not before the first message nor for a signed-out visitor", async () => {
    chatState.readOnly = true;
    chatState.sessionId = "bob@example.com-s9";
    const { unmount } = render(<ExportMenu onError={() => {}} />);
    expect((screen.getByRole("button", { name: "Export chat" }) as HTMLButtonElement).disabled).toBe(false);
    unmount();

    chatState.messages = [];
    const empty = render(<ExportMenu onError={() => {}} />);
    expect(screen.queryByRole("button", { name: "Export chat" })).toBeNull();
    empty.unmount();

    chatState.messages = [{ id: "m1", type: "user", text: "Hi" }];
    userInfo.user = null;
    render(<ExportMenu onError={() => {}} />);
    expect(screen.queryByRole("button", { name: "Export chat" })).toBeNull();
  });

  it("hands a refused export's message to the error banner and saves nothing", async () => {
    const user = userEvent.setup();
    const onError = vi.fn();
    reply = () => new Response(JSON.stringify({ status: "error", message: "Chat not found." }), { status: 404 });
    render(<ExportMenu onError={onError} />);
    await user.click(screen.getByRole("button", { name: "Export chat" }));
    await user.click(screen.getByRole("menuitem", { name: "PDF" }));
    await waitFor(() => expect(onError).toHaveBeenCalledWith("Chat not found."));
    expect(saved).toEqual([]);
  });

  it("reads the file name from Content-Disposition", () => {
    expect(attachmentName(`attachment; filename="a b.md"`)).toBe("a b.md");
    expect(attachmentName(`attachment; filename="R_sum_.md"; filename*=UTF-8''R%C3%A9sum%C3%A9.md`)).toBe("Résumé.md");
    expect(attachmentName("attachment; filename=plain.pdf")).toBe("plain.pdf");
    expect(attachmentName(null)).toBeNull();
  });
});
