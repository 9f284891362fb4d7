// Proves a part of the app whose code cannot be fetched (a network blip, a deploy
// since the page was opened) leaves the rest working: an answer stays readable
// as plain text, and a page that cannot load says so with Reload in its place.
import { render, screen } from "@testing-library/react";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import { RichText } from "../../client/components/chat/RichText";
import { PageError } from "../../client/pages/PageError";
import { routes } from "../../client/routes";

vi.mock("../../client/components/chat/MarkdownText", () => {
  throw new TypeError("Failed to fetch dynamically imported module: /client/components/chat/MarkdownText.tsx");
});

describe("a chunk that cannot be fetched", () => {
  it("leaves the answer as plain text, the chat still there", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const text = "**Notice** is 30 days [1].";
    render(
      <div>
        <p>the chat</p>
        <RichText text={text} sources={[{ n: 1, fileId: "f1", fileName: "a.pdf", page: 2 }]} />
      </div>,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByText(text).className).toBe("rich-text-plain");
    expect(screen.getByText("the chat")).toBeTruthy();
  });

  it("shows a page that cannot be loaded as such, with Reload, inside the layout", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const router = createMemoryRouter(
      [
        {
          element: (
            <div>
              <nav>the layout</nav>
              <Outlet />
            </div>
          ),
          children: [
            {
              errorElement: <PageError />,
              children: [
                {
                  path: "/app/files",
                  lazy: async () => {
                    throw new TypeError("Failed to fetch dynamically imported module: /client/pages/Files.tsx");
                  },
                },
              ],
            },
          ],
        },
      ],
      { initialEntries: ["/app/files"] },
    );
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole("heading", { name: "This page could not be loaded" })).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toContain("Check your connection, then reload the page.");
    expect(screen.getByRole("button", { name: "Reload" })).toBeTruthy();
    expect(screen.getByText("the layout")).toBeTruthy();
  });

  it("is caught for every page of the route table: each page outside the layout, and the layout's pages inside it", () => {
    for (const route of routes) expect(route.errorElement, route.path ?? "layout").toBeTruthy();
    const layout = routes.find((r) => !r.path)!;
    expect(layout.children).toHaveLength(1);
    expect(layout.children![0]!.errorElement).toBeTruthy();
    expect(layout.children![0]!.children!.map((r) => r.path)).toContain("/app/files");
  });
});
