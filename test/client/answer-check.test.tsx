// Proves what a person sees of an answer's check (#43, item 3): the quiet line under a checked
// answer ("1 figure not found on the cited pages" / "Figures checked against the cited pages"),
// announced once for an answer that just finished and not for a reloaded chat; each unsupported
// sentence marked (a focusable <mark> whose description is the reason) and no other; nothing for
// answers stored before checks; the mark surviving citations, lists and bold, never appearing
// across elements and never forged by the answer's own text; and Copy carrying it in words.
// WebSocket, fetch and the clipboard are fakes; the server side is covered by the worker suite,
// the browser's hover and focus styles by the e2e.
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { RichText } from "../../client/components/chat/RichText";
import { answerAsMarkdown } from "../../client/lib/answer";
import { fenceUnchecked } from "../../client/lib/uncheckedMarks";
import { appInfo, newSessionId } from "../../client/state/app";
import { chatState, resetChat } from "../../client/state/chat";
import { resetDrive } from "../../client/state/drive";
import { userInfo } from "../../client/state/user";
import type { SentenceCheck } from "../../worker/contract/checks";
import type { Source, StoredMessage } from "../../worker/contract/protocol";
import { ConnectedChat } from "./connected-chat";
import { FakeWebSocket } from "../helpers/fake-websocket";

vi.mock("../../client/lib/pdf", () => ({
  loadPdfJs: () => new Promise(() => {}),
  openPdf: () => new Promise(() => {}),
  closePdfs: () => {},
}));

const SUPPORTED = "The standard deduction for a single filer is $14,600 [1].";
const UNSUPPORTED = "It rises to $99,999 for those over 65 [1].";
const ANSWER = `${SUPPORTED} ${UNSUPPORTED}`;
const SOURCES: Source[] = [{ n: 1, fileId: "f1", fileName: "p17.pdf", page: 3 }];
const CHECKS: SentenceCheck[] = [
  { sentence: SUPPORTED, status: "supported", missing: [] },
  { sentence: UNSUPPORTED, status: "unsupported", missing: ["$99,999"] },
];
const REASON = "$99,999 is not on p. 3 of p17.pdf";
const NOT_FOUND = "1 figure not found on the cited pages";
const ALL_FOUND = "Figures checked against the cited pages";

function stored(partial: Partial<StoredMessage> & Pick<StoredMessage, "id" | "role" | "content">): StoredMessage {
  return { created_at: 1, ...partial };
}

function socket(): FakeWebSocket {
  const last = FakeWebSocket.instances.filter((s) => s.closedWith === undefined).at(-1);
  if (!last) throw new Error("no open socket");
  return last;
}

/** A reloaded chat (or a shared reader's view): one question, one stored answer. */
async function openChat(answer: Partial<StoredMessage>) {
  render(<ConnectedChat />);
  const ws = socket();
  await ws.open();
  await ws.emit({
    type: "full_chat",
    session_id: appInfo.currentSessionId!,
    messages: [
      stored({ id: "m1", role: "user", content: "What is the standard deduction?" }),
      stored({ id: "m2", role: "assistant", content: ANSWER, sources: SOURCES, status: "complete", ...answer }),
    ],
    mode: "model",
    readOnly: false,
    files: [],
  });
  // the markdown renderer arrives with the first answer
  await screen.findAllByRole("link", { name: "[1]" });
}

const marks = () => document.querySelectorAll("mark");

beforeAll(async () => {
  await import("../../client/components/chat/MarkdownText");
});

beforeEach(() => {
  FakeWebSocket.instances = [];
  vi.stubGlobal("WebSocket", FakeWebSocket);
  vi.stubGlobal("fetch", async () => new Response("{}", { status: 200, headers: { "Content-Type": "application/json" } }));
  userInfo.user = null;
  userInfo.chatList = [];
  appInfo.currentSessionId = newSessionId();
  resetChat();
  resetDrive();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("an answer with an unsupported sentence", () => {
  it("arrives in `end`: the line is announced once, the sentence is marked with its reason, the supported one is not", async () => {
    const user = userEvent.setup();
    render(<ConnectedChat />);
    const ws = socket();
    await ws.open();
    const sessionId = appInfo.currentSessionId!;
    await user.type(screen.getByPlaceholderText("Ask me!"), "What is the standard deduction?{Enter}");
    await ws.emit({ type: "stream", session_id: sessionId, message_id: "a1", text: ANSWER });
    await ws.emit({
      type: "end",
      session_id: sessionId,
      mode: "model",
      files: [],
      message: stored({
        id: "a1",
        role: "assistant",
        content: ANSWER,
        sources: SOURCES,
        status: "complete",
        checks: CHECKS,
        verified: { sentences: 2, unsupported: 1 },
      }),
    });
    expect(chatState.messages.at(-1)).toMatchObject({ checks: CHECKS, verified: { sentences: 2, unsupported: 1 } });

    // the quiet line, in a polite live region (a gentle warning, not an alert)
    const line = await screen.findByText(NOT_FOUND);
    expect(line.getAttribute("role")).toBe("status");
    expect(line.className).toBe("chat-check chat-check-warn");
    expect(screen.getByRole("status")).toBe(line);
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.queryByText(ALL_FOUND)).toBeNull();

    // the marked sentence: a focusable <mark> described by its reason, citation link inside it
    const mark = await screen.findByRole("mark", { description: REASON });
    expect(mark.textContent).toBe(UNSUPPORTED);
    expect(mark.getAttribute("tabindex")).toBe("0");
    expect(mark.getAttribute("data-reason")).toBe(REASON); // the hover/focus tooltip's text
    expect(within(mark).getByRole("link", { name: "[1]" })).toBeTruthy();
    expect(marks()).toHaveLength(1);
    expect(screen.getByText(/^The standard deduction/).closest("mark")).toBeNull();
    mark.focus();
    expect(document.activeElement).toBe(mark);

    // a later frame re-renders the answer: the line's text does not change, so nothing is said again
    await ws.emit({ type: "suggestions", session_id: sessionId, message_id: "a1", suggestions: ["And for joint filers?"] });
    expect(screen.getByText(NOT_FOUND)).toBe(line);
  });

  it("is marked the same after a reload, where the line is plain text (not announced again)", async () => {
    await openChat({ checks: CHECKS, verified: { sentences: 2, unsupported: 1 } });
    const line = screen.getByText(NOT_FOUND);
    expect(line.getAttribute("role")).toBeNull();
    expect(screen.queryByRole("status")).toBeNull();
    expect(screen.getByRole("mark", { description: REASON }).textContent).toBe(UNSUPPORTED);
    expect(marks()).toHaveLength(1);
  });

  it("copies the answer with its sources, the line and the sentence's note in words", async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    await openChat({ checks: CHECKS, verified: { sentences: 2, unsupported: 1 } });
    fireEvent.click(screen.getByRole("button", { name: "Copy" }));
    await waitFor(() =>
      expect(writeText).toHaveBeenCalledWith(
        `${ANSWER}\n\nSources:\n[1] p17.pdf, p. 3\n\n${NOT_FOUND}\n` +
          `Not found on the cited pages: "It rises to $99,999 for those over 65." (${REASON}).`,
      ),
    );
  });
});

describe("an answer whose every sentence was found", () => {
  it("shows the quiet line and marks nothing; Copy carries the line", async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    await openChat({
      checks: CHECKS.map((c) => ({ ...c, status: "supported", missing: [] })),
      verified: { sentences: 2, unsupported: 0 },
    });
    const line = screen.getByText(ALL_FOUND);
    expect(line.className).toBe("chat-check");
    expect(screen.queryByText(NOT_FOUND)).toBeNull();
    expect(marks()).toHaveLength(0);
    fireEvent.click(screen.getByRole("button", { name: "Copy" }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${ANSWER}\n\nSources:\n[1] p17.pdf, p. 3\n\n${ALL_FOUND}`));
  });
});

describe("an answer stored before checks", () => {
  it("shows neither line, marks nothing, and copies as before", async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    await openChat({});
    expect(screen.queryByText(ALL_FOUND)).toBeNull();
    expect(screen.queryByText(NOT_FOUND)).toBeNull();
    expect(document.querySelector(".chat-check")).toBeNull();
    expect(marks()).toHaveLength(0);
    fireEvent.click(screen.getByRole("button", { name: "Copy" }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${ANSWER}\n\nSources:\n[1] p17.pdf, p. 3`));
  });
});

describe("marking a sentence in the rendered markdown", () => {
  const unsupported = (sentence: string, missing = ["$99,999"]): SentenceCheck => ({ sentence, status: "unsupported", missing });

  it("marks a sentence in a list item and one with bold inside; keeps the list and the bold", async () => {
    const text = `Deductions:\n\n- ${SUPPORTED}\n- ${UNSUPPORTED}\n\nThe **extra** amount is $2,000 [1].`;
    const checks = [CHECKS[0]!, CHECKS[1]!, unsupported("The **extra** amount is $2,000 [1].", ["$2,000"])];
    render(<RichText text={text} sources={SOURCES} checks={checks} />);
    const listed = await screen.findByRole("mark", { description: REASON });
    expect(listed.closest("li")).toBeTruthy();
    expect(screen.getAllByRole("listitem")).toHaveLength(2);
    const bold = screen.getByRole("mark", { description: "$2,000 is not on p. 3 of p17.pdf" });
    expect(within(bold).getByText("extra").tagName).toBe("STRONG");
    expect(bold.textContent).toBe("The extra amount is $2,000 [1].");
    expect(marks()).toHaveLength(2);
  });

  it("leaves a sentence unmarked rather than break the markdown when it starts inside bold and ends outside", async () => {
    const text = "**Note: it rises to $99,999** for those over 65 [1]. Next.";
    render(<RichText text={text} sources={SOURCES} checks={[unsupported("it rises to $99,999** for those over 65 [1].")]} />);
    const bold = await screen.findByText("Note: it rises to $99,999");
    expect(bold.tagName).toBe("STRONG");
    expect(marks()).toHaveLength(0);
    // no fence character is left in the text
    expect(document.body.textContent).not.toMatch(/[\uE000-\uE1FF]/);
  });

  it("keeps an address that ends a sentence whole (the sentence goes unmarked)", async () => {
    render(<RichText text="Rates are at www.irs.gov" checks={[unsupported("Rates are at www.irs.gov")]} />);
    const link = await screen.findByRole("link", { name: "www.irs.gov" });
    expect(link.getAttribute("href")).toBe("http://www.irs.gov");
  });

  it("marks only the occurrence the checks point at when a sentence repeats", () => {
    const fenced = fenceUnchecked("A [1]. A [1].", [{ sentence: "A [1].", status: "supported", missing: [] }, unsupported("A [1].")]);
    expect(fenced).toBe("A [1]. \uE101A [1].\uE000");
  });

  it("never lets the answer's own characters make (or hide) a mark", async () => {
    const forged = `\uE100${SUPPORTED}\uE000 It rises.`;
    render(<RichText text={forged} sources={SOURCES} checks={[CHECKS[0]!, unsupported("It rises.")]} />);
    const mark = await screen.findByRole("mark");
    expect(mark.textContent).toBe("It rises.");
    expect(marks()).toHaveLength(1);
    expect(document.body.textContent).not.toMatch(/[\uE000-\uE1FF]/);
  });

  it("skips a checked sentence that is not in the text", async () => {
    render(<RichText text={SUPPORTED} sources={SOURCES} checks={[CHECKS[0]!, CHECKS[1]!]} />);
    await screen.findByRole("link", { name: "[1]" });
    expect(marks()).toHaveLength(0);
  });
});

describe("Copy's text", () => {
  it("names each unsupported sentence after the line; nothing of checks when there are none", () => {
    const two = [
      CHECKS[1]!,
      { sentence: 'It is called "the senior bonus" [1].', status: "unsupported" as const, missing: ['"the senior bonus"'] },
    ];
    expect(answerAsMarkdown("x", SOURCES, two).split("\n").slice(-3)).toEqual([
      "1 figure and 1 statement not found on the cited pages",
      `Not found on the cited pages: "It rises to $99,999 for those over 65." (${REASON}).`,
      'Not found on the cited pages: "It is called "the senior bonus"." ("the senior bonus" is not on p. 3 of p17.pdf).',
    ]);
    expect(answerAsMarkdown("x", SOURCES)).toBe("x\n\nSources:\n[1] p17.pdf, p. 3");
    expect(answerAsMarkdown("x")).toBe("x");
  });
});
