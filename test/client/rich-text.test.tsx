// Proves an answer is readable before the markdown renderer arrives: the first
// answer shows its plain text at once, then the same text as markdown once the
// renderer's chunk (loaded with the first answer, not with the page) is in.
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { RichText } from "../../client/components/chat/RichText";

describe("the first answer", () => {
  it("shows plain text until the markdown renderer has loaded, then markdown", async () => {
    const text = "**Notice** is 30 days [1].";
    render(<RichText text={text} sources={[{ n: 1, fileId: "f1", fileName: "a.pdf", page: 2 }]} />);
    expect(screen.getByText(text).className).toBe("rich-text-plain");
    // the renderer is a chunk of its own, loaded on first use: slow on a cold, busy machine (1.2 s seen on a fresh clone)
    expect((await screen.findByText("Notice", undefined, { timeout: 10_000 })).tagName).toBe("STRONG");
    expect(screen.getByRole("link", { name: "[1]" }).getAttribute("title")).toBe("a.pdf, p. 2");
    expect(screen.queryByText(text)).toBeNull();
  });
});
