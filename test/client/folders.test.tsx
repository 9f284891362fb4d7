// Proves folders on My Files (issue 45): "New folder" (the name checked as the
// server checks it, and the server's refusal shown), the folder filter with each
// folder's count, "Move to folder" from a row's menu and for a selection, and
// "Chat about this folder" starting a chat scoped to it. fetch is a stub.
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { FileItem } from "../../worker/contract/documents";
import { FOLDER_MESSAGES } from "../../worker/contract/folders";
import Files from "../../client/pages/Files";
import { chatState } from "../../client/state/chat";
import { takeOpeningFolder } from "../../client/state/chatDocuments";
import { userInfo } from "../../client/state/user";
import { stubJsonFetch, type RecordedRequest, type Reply } from "../helpers/fetch-stub";

const requests: RecordedRequest[] = [];
let folders = [{ id: "tax", name: "Tax", documentCount: 1 }];
let failDelete = false;
const file = (fileId: string, fileName: string): FileItem => ({
  fileId,
  fileName,
  status: "indexed",
  createdAt: new Date(2026, 10, 2, 12).toISOString(),
  uploadedAt: null,
  fileHash: `h-${fileId}`,
  pageCount: 1,
  error: null,
  ocrPages: [],
});
const FILES = [file("f1", "p17.pdf"), file("f2", "fw4.pdf")];

function reply(url: string, init?: RequestInit): Reply {
  const method = init?.method ?? "GET";
  if (url === "/api/folders" && method === "GET") return { status: 200, body: { folders } };
  if (url === "/api/folders" && method === "POST") {
    const { name } = JSON.parse(init!.body as string) as { name: string };
    if (folders.some((f) => f.name.toLowerCase() === name.toLowerCase()))
      return { status: 409, body: { status: "error", message: FOLDER_MESSAGES.nameTaken } };
    const folder = { id: name.toLowerCase(), name, documentCount: 0 };
    folders = [...folders, folder];
    return { status: 201, body: { status: "success", message: FOLDER_MESSAGES.created, folder } };
  }
  if (url.startsWith("/api/documents?")) {
    const inFolder = new URL(url, "http://x").searchParams.get("folderId");
    const list = inFolder ? FILES.slice(0, 1) : FILES;
    return { status: 200, body: { files: list, pagination: { pageNumber: 1, pageSize: 10, total: list.length, totalPages: 1 } } };
  }
  if (url.startsWith("/api/folders/") && method === "DELETE") {
    if (failDelete) return { status: 500, body: { status: "error", message: "Could not delete the folder." } };
    folders = folders.filter((f) => url !== `/api/folders/${f.id}`);
    return { status: 200, body: { status: "success", message: "Folder deleted." } };
  }
  if (url.startsWith("/api/documents/") && method === "PATCH") return { status: 200, body: { status: "success", message: "File moved." } };
  return { status: 200, body: {} };
}

beforeEach(() => {
  requests.length = 0;
  folders = [{ id: "tax", name: "Tax", documentCount: 1 }];
  failDelete = false;
  stubJsonFetch(requests, reply);
  localStorage.setItem("token", "t.o.k");
  userInfo.user = { id: "u1", email: "ann@example.com", name: "Ann", phone: "", picture: null };
});
afterEach(() => {
  vi.unstubAllGlobals();
  userInfo.user = null;
});

const renderPage = () =>
  render(
    <MemoryRouter initialEntries={["/app/files"]}>
      <Files />
    </MemoryRouter>,
  );

describe("folders on My Files", () => {
  it("New folder: checks the name, shows the server's refusal, and lists the new folder", async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole("button", { name: "New folder" }));
    const dialog = screen.getByRole("dialog", { name: "New folder" });
    await user.click(within(dialog).getByRole("button", { name: "Create" }));
    expect(within(dialog).getByRole("alert").textContent).toContain(FOLDER_MESSAGES.nameRequired);
    await user.type(within(dialog).getByLabelText("Folder name"), "tax");
    await user.click(within(dialog).getByRole("button", { name: "Create" }));
    expect((await within(dialog).findByRole("alert")).textContent).toContain(FOLDER_MESSAGES.nameTaken);
    await user.clear(within(dialog).getByLabelText("Folder name"));
    await user.type(within(dialog).getByLabelText("Folder name"), "  Contracts ");
    await user.click(within(dialog).getByRole("button", { name: "Create" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(requests.filter((r) => r.method === "POST").at(-1)?.body).toEqual({ name: "Contracts" });
    expect(await screen.findByRole("button", { name: "Contracts (0)" })).toBeTruthy();
  });

  it("filters by folder with its count, and moves a row or a selection with Move to folder", async () => {
    const user = userEvent.setup();
    renderPage();
    const folders = await screen.findByRole("navigation", { name: "Folders" });
    expect(within(folders).getByRole("button", { name: "All files" }).getAttribute("aria-pressed")).toBe("true");
    await user.click(within(folders).getByRole("button", { name: "Tax (1)" }));
    await waitFor(() => expect(requests.some((r) => r.url.includes("folderId=tax"))).toBe(true));
    await waitFor(() => expect(screen.queryByText("fw4.pdf")).toBeNull());
    await user.click(within(folders).getByRole("button", { name: "All files" }));
    await screen.findByText("fw4.pdf");

    await user.click(screen.getByRole("button", { name: "Actions for fw4.pdf" }));
    await user.click(screen.getByRole("menuitem", { name: "Move to folder" }));
    await user.click(within(screen.getByRole("dialog", { name: "Move to folder" })).getByRole("button", { name: "Tax" }));
    await waitFor(() => expect(requests.filter((r) => r.method === "PATCH")).toHaveLength(1));
    expect(requests.find((r) => r.method === "PATCH")).toMatchObject({ url: "/api/documents/f2", body: { folderId: "tax" } });

    await user.click(screen.getByText("p17.pdf"));
    await user.click(screen.getByText("fw4.pdf"));
    await user.click(within(screen.getByRole("toolbar", { name: "Selected files" })).getByRole("button", { name: "Move to folder" }));
    await user.click(within(screen.getByRole("dialog", { name: "Move to folder" })).getByRole("button", { name: "Top level" }));
    await waitFor(() => expect(requests.filter((r) => r.method === "PATCH")).toHaveLength(3));
    expect(
      requests
        .filter((r) => r.method === "PATCH")
        .slice(1)
        .map((r) => [r.url, r.body]),
    ).toEqual([
      ["/api/documents/f1", { folderId: null }],
      ["/api/documents/f2", { folderId: null }],
    ]);
  });

  it("Delete asks first, says the files stay, and shows a refusal in the dialog", async () => {
    const user = userEvent.setup();
    renderPage();
    const bar = await screen.findByRole("navigation", { name: "Folders" });
    await user.click(within(bar).getByRole("button", { name: "Tax (1)" }));
    const deleteTax = async () => {
      await user.click(within(bar).getByRole("button", { name: "Actions for Tax" }));
      await user.click(screen.getByRole("menuitem", { name: "Delete" }));
      return screen.getByRole("dialog", { name: "Delete folder" });
    };
    let dialog = await deleteTax();
    expect(dialog.textContent).toContain("Delete the folder “Tax”? Its file stays in My Files, outside any folder.");
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(requests.filter((r) => r.method === "DELETE")).toHaveLength(0);

    failDelete = true;
    dialog = await deleteTax();
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Could not delete the folder.");
    expect(within(bar).getByRole("button", { name: "Tax (1)" })).toBeTruthy();

    failDelete = false;
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(requests.filter((r) => r.method === "DELETE").map((r) => r.url)).toEqual(["/api/folders/tax", "/api/folders/tax"]);
    await waitFor(() => expect(within(bar).queryByRole("button", { name: "Tax (1)" })).toBeNull());
    expect(within(bar).getByRole("button", { name: "All files" }).getAttribute("aria-pressed")).toBe("true");
  });

  it("Chat about this folder starts a chat scoped to it", async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole("button", { name: "Actions for Tax" }));
    await user.click(screen.getByRole("menuitem", { name: "Chat about this folder" }));
    expect(chatState.folder).toEqual({ id: "tax", name: "Tax", documentCount: 1 });
    expect(takeOpeningFolder(chatState.sessionId!)).toBe("tax");
  });
});
