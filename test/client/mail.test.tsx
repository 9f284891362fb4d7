// Proves the memo dialog, the share dialog, shared chat links and the Contact Us
// form follow the spec (sections 2, 4, 5, 8 and 9) and the mail contract: the
// exact validation messages, what is sent (and that nothing is sent when the
// input is rejected), the Sending... / Sent! / Submitting... states, the server
// error texts, the 5 s Copied indicator, the list cleared on close, and a
// ?session= link becoming the current session without being replaced. fetch,
// WebSocket and the clipboard are fakes: the API is covered by the worker suite.
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CONTACT_MESSAGES, MEMO_MESSAGES, SHARE_MESSAGES } from "../../worker/contract/mail";
import { MemoModal } from "../../client/components/chat/MemoModal";
import { ShareModal } from "../../client/components/chat/ShareModal";
import { setNavigator } from "../../client/lib/api";
import Chat from "../../client/pages/Chat";
import ContactUs from "../../client/pages/ContactUs";
import { appInfo, newSessionId } from "../../client/state/app";
import { chatState, resetChat } from "../../client/state/chat";
import { sessionFitsUser, useChatConnection } from "../../client/state/chatConnection";
import { userInfo } from "../../client/state/user";
import type { User } from "../../worker/contract/validation";
import { FakeWebSocket, latestSocket, TICKET_PATH, ticketReply } from "../helpers/fake-websocket";

// ---------------------------------------------------------------- fakes

type Reply = { status: number; body: unknown };
type Request = { method: string; url: string; body: any; auth?: string | null };
let handler: (request: Request) => Reply | Promise<Reply>;
const requests: Request[] = [];

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function liveSockets(): FakeWebSocket[] {
  return FakeWebSocket.instances.filter((s) => s.closedWith === undefined);
}

const ann: User = { id: "u1", email: "ann@example.com", name: "Ann", phone: "", picture: null };
const writeText = vi.fn(async (_text: string) => {});

function signIn() {
  localStorage.setItem("token", "tok-ann");
  userInfo.user = { ...ann };
}

/** A chat of Ann's with one exchange, without a connection. */
function annChat(sessionId = `${ann.email}-s1`) {
  chatState.sessionId = sessionId;
  appInfo.currentSessionId = sessionId;
  chatState.messages = [
    { id: "m1", type: "user", text: "Notice period?" },
    { id: "m2", type: "bot", text: "30 days." },
  ];
}

const posts = (path: string) => requests.filter((r) => r.method === "POST" && r.url === path);

beforeEach(() => {
  requests.length = 0;
  FakeWebSocket.instances = [];
  writeText.mockClear();
  setNavigator(vi.fn());
  handler = () => ({ status: 200, body: {} });
  vi.stubGlobal("WebSocket", FakeWebSocket);
  vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
    const request: Request = { method: init?.method ?? "GET", url, body: init?.body ? JSON.parse(init.body as string) : undefined };
    requests.push(request);
    Object.defineProperty(request, "auth", { enumerable: false, value: new Headers(init?.headers).get("Authorization") });
    const { status, body } = url === TICKET_PATH ? ticketReply() : await handler(request);
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  });
  Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText } });
  userInfo.user = null;
  userInfo.chatList = [];
  appInfo.currentSessionId = newSessionId();
  resetChat();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// ---------------------------------------------------------------- memo

describe("Memo dialog", () => {
  beforeEach(() => {
    signIn();
    annChat();
  });

  it("shows the title, the explanation, the Email field and both buttons", () => {
    render(<MemoModal onClose={() => {}} />);
    expect(screen.getByRole("dialog", { name: "Generate Chat Memo" })).toBeTruthy();
    expect(screen.getByText(/summary of this chat will be generated and sent/i)).toBeTruthy();
    expect(screen.getByLabelText("Email")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Send to Email" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Send to myself" })).toBeTruthy();
  });

  it("Send to Email needs an address, then a valid one; nothing is sent until then", async () => {
    const user = userEvent.setup();
    render(<MemoModal onClose={() => {}} />);
    await user.click(screen.getByRole("button", { name: "Send to Email" }));
    expect(screen.getByText(MEMO_MESSAGES.emailRequired)).toBeTruthy();

    await user.type(screen.getByLabelText("Email"), "bob@example");
    expect(screen.queryByText(MEMO_MESSAGES.emailRequired)).toBeNull(); // typing clears the error
    await user.click(screen.getByRole("button", { name: "Send to Email" }));
    expect(screen.getByText(MEMO_MESSAGES.emailInvalid)).toBeTruthy();
    expect(requests).toHaveLength(0);

    await user.keyboard("{Enter}"); // Enter submits the same way
    expect(screen.getByText(MEMO_MESSAGES.emailInvalid)).toBeTruthy();
    expect(requests).toHaveLength(0);
  });

  it("Send to Email: Sending... with both buttons disabled, then Sent! and the success message", async () => {
    const user = userEvent.setup();
    const reply = deferred<Reply>();
    handler = () => reply.promise;
    render(<MemoModal onClose={() => {}} />);
    await user.type(screen.getByLabelText("Email"), "  Bob@Example.com ");
    await user.click(screen.getByRole("button", { name: "Send to Email" }));

    const sending = screen.getByRole("button", { name: "Sending..." }) as HTMLButtonElement;
    expect(sending.disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Send to myself" }) as HTMLButtonElement).disabled).toBe(true);
    expect(posts("/api/chat/sendMemo").map((r) => r.body)).toEqual([{ session_id: `${ann.email}-s1`, email: "bob@example.com" }]);

    await act(async () => reply.resolve({ status: 200, body: { status: "success", message: MEMO_MESSAGES.sent, memo: "Summary" } }));
    expect(screen.getByRole("button", { name: "Sent!" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Send to myself" })).toBeTruthy();
    expect(screen.getByText(MEMO_MESSAGES.sent)).toBeTruthy();
  });

  it("Send to myself skips the check and sends the user's own e-mail", async () => {
    const user = userEvent.setup();
    const reply = deferred<Reply>();
    handler = () => reply.promise;
    render(<MemoModal onClose={() => {}} />);
    await user.type(screen.getByLabelText("Email"), "not an address");
    await user.click(screen.getByRole("button", { name: "Send to myself" }));

    expect(screen.queryByText(MEMO_MESSAGES.emailInvalid)).toBeNull();
    expect(posts("/api/chat/sendMemo").map((r) => r.body)).toEqual([{ session_id: `${ann.email}-s1`, email: ann.email }]);
    expect((screen.getByRole("button", { name: "Sending..." }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Send to Email" }) as HTMLButtonElement).disabled).toBe(true);

    await act(async () => reply.resolve({ status: 200, body: { status: "success", message: MEMO_MESSAGES.sent, memo: "m" } }));
    expect(screen.getByRole("button", { name: "Sent!" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Send to Email" })).toBeTruthy();
    expect(screen.getByText(MEMO_MESSAGES.sent)).toBeTruthy();
  });

  it.each([
    [502, MEMO_MESSAGES.sendFailed],
    [500, MEMO_MESSAGES.generationFailed],
    [422, MEMO_MESSAGES.empty],
    [429, MEMO_MESSAGES.tooMany],
  ])("shows the server's message in red on %i", async (status, message) => {
    const user = userEvent.setup();
    handler = () => ({ status, body: { status: "error", message } });
    render(<MemoModal onClose={() => {}} />);
    await user.click(screen.getByRole("button", { name: "Send to myself" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe(message);
    expect(alert.className).toContain("error");
    // the buttons are back for a retry
    expect((screen.getByRole("button", { name: "Send to myself" }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByText(MEMO_MESSAGES.sent)).toBeNull();
  });

  it("falls back to the chat failure text without a server message", async () => {
    const user = userEvent.setup();
    handler = () => ({ status: 503, body: null });
    render(<MemoModal onClose={() => {}} />);
    await user.click(screen.getByRole("button", { name: "Send to myself" }));
    expect((await screen.findByRole("alert")).textContent).toBe(MEMO_MESSAGES.sendFailed);
  });

  it("says the session id is missing and sends nothing without a session", async () => {
    const user = userEvent.setup();
    chatState.sessionId = null;
    render(<MemoModal onClose={() => {}} />);
    await user.click(screen.getByRole("button", { name: "Send to myself" }));
    expect(screen.getByRole("alert").textContent).toBe(MEMO_MESSAGES.sessionMissing);
    expect(requests).toHaveLength(0);
  });
});

// ---------------------------------------------------------------- share

const SESSION = `${ann.email}-s1`;
const shareGets = () => requests.filter((r) => r.method === "GET" && r.url.startsWith("/api/chat/share"));

describe("Share dialog", () => {
  let members: { email: string; created_at: number }[];

  beforeEach(() => {
    signIn();
    annChat(SESSION);
    members = [];
    handler = ({ method, url, body }) => {
      if (url.startsWith("/api/chat/share") && method === "GET") return { status: 200, body: { members } };
      if (url === "/api/chat/share" && method === "POST") {
        members.push(...(body.emails as string[]).map((email) => ({ email, created_at: 1 })));
        return { status: 200, body: { status: "success", message: SHARE_MESSAGES.shared, shared: body.emails, errors: [] } };
      }
      if (url === "/api/chat/share" && method === "DELETE") {
        members = members.filter((m) => m.email !== body.email);
        return { status: 200, body: { status: "success", message: SHARE_MESSAGES.revoked } };
      }
      return { status: 404, body: { status: "error", message: "not found" } };
    };
  });

  function emailBox() {
    return screen.getByLabelText("Email address*") as HTMLInputElement;
  }

  it("shows the title, the field, the copy action, Cancel and Share, and loads the members on open", async () => {
    members = [{ email: "carol@example.com", created_at: 1 }];
    render(<ShareModal onClose={() => {}} />);
    expect(screen.getByRole("dialog", { name: "Share chat with other members" })).toBeTruthy();
    expect(emailBox()).toBeTruthy();
    expect(screen.getByRole("button", { name: "Copy link" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Cancel" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Share" })).toBeTruthy();
    expect(await screen.findByText("carol@example.com")).toBeTruthy();
    expect(shareGets().map((r) => r.url)).toEqual([`/api/chat/share?session_id=${encodeURIComponent(SESSION)}`]);
  });

  it("validates on Enter, adds valid addresses checked, and does not add duplicates", async () => {
    const user = userEvent.setup();
    render(<ShareModal onClose={() => {}} />);
    await user.type(emailBox(), "bob@{Enter}");
    expect(screen.getByText(SHARE_MESSAGES.invalidEmail)).toBeTruthy();
    expect(screen.queryAllByRole("checkbox")).toHaveLength(0);

    await user.clear(emailBox());
    expect(screen.queryByText(SHARE_MESSAGES.invalidEmail)).toBeNull();
    await user.type(emailBox(), "bob@example.com{Enter}");
    const bob = screen.getByRole("checkbox", { name: "bob@example.com" }) as HTMLInputElement;
    expect(bob.checked).toBe(true);
    expect(emailBox().value).toBe("");

    await user.type(emailBox(), " BOB@example.com {Enter}");
    expect(screen.getByText(SHARE_MESSAGES.duplicate)).toBeTruthy();
    expect(screen.getAllByRole("checkbox")).toHaveLength(1);

    await user.clear(emailBox());
    await user.type(emailBox(), `${ann.email}{Enter}`);
    expect(screen.getByText(SHARE_MESSAGES.cannotShareWithSelf)).toBeTruthy();
    expect(screen.getAllByRole("checkbox")).toHaveLength(1);
    expect(posts("/api/chat/share")).toHaveLength(0); // Enter never shares
  });

  it("blocks Share with none selected", async () => {
    const user = userEvent.setup();
    render(<ShareModal onClose={() => {}} />);
    await user.click(screen.getByRole("button", { name: "Share" }));
    expect(screen.getByText(SHARE_MESSAGES.selectAtLeastOne)).toBeTruthy();

    // an address added settles it
    await user.type(emailBox(), "bob@example.com{Enter}");
    expect(screen.queryByText(SHARE_MESSAGES.selectAtLeastOne)).toBeNull();
    await user.click(screen.getByRole("checkbox", { name: "bob@example.com" }));
    await user.click(screen.getByRole("button", { name: "Share" }));
    expect(screen.getByText(SHARE_MESSAGES.selectAtLeastOne)).toBeTruthy();
    expect(posts("/api/chat/share")).toHaveLength(0);
  });

  it("shares the checked addresses only, shows the server message and the members", async () => {
    const user = userEvent.setup();
    render(<ShareModal onClose={() => {}} />);
    await user.type(emailBox(), "Bob@Example.com{Enter}");
    await user.type(emailBox(), "dan@example.com{Enter}");
    await user.type(emailBox(), "eve@example.com{Enter}");
    await user.click(screen.getByRole("checkbox", { name: "dan@example.com" }));
    await user.click(screen.getByRole("button", { name: "Share" }));

    expect(posts("/api/chat/share").map((r) => r.body)).toEqual([{ session_id: SESSION, emails: ["bob@example.com", "eve@example.com"] }]);
    expect((await screen.findByRole("status")).textContent).toBe(SHARE_MESSAGES.shared);
    const list = await screen.findByRole("region", { name: "Shared with" });
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(2));
    expect(within(list).getByRole("button", { name: "Remove bob@example.com" })).toBeTruthy();
    // the shared ones leave the typed list; the unchecked one stays
    expect(screen.getAllByRole("checkbox").map((c) => c.closest("label")?.textContent)).toEqual(["dan@example.com"]);
    expect(shareGets()).toHaveLength(2); // on open, and after sharing
  });

  it("shares an address still typed in the input, and keeps an invalid one there with its error", async () => {
    const user = userEvent.setup();
    render(<ShareModal onClose={() => {}} />);
    await user.type(emailBox(), "bob@example.com{Enter}");
    await user.type(emailBox(), "carol@");
    await user.click(screen.getByRole("button", { name: "Share" }));
    expect(screen.getByText(SHARE_MESSAGES.invalidEmail)).toBeTruthy();
    expect(emailBox().value).toBe("carol@");
    expect(posts("/api/chat/share")).toHaveLength(0);

    await user.type(emailBox(), "example.com");
    await user.click(screen.getByRole("button", { name: "Share" }));
    expect(posts("/api/chat/share").map((r) => r.body)).toEqual([
      { session_id: SESSION, emails: ["bob@example.com", "carol@example.com"] },
    ]);
    expect(emailBox().value).toBe("");
  });

  it("shares a typed address on its own, even one listed but unchecked", async () => {
    const user = userEvent.setup();
    render(<ShareModal onClose={() => {}} />);
    await user.type(emailBox(), "dan@example.com{Enter}");
    await user.click(screen.getByRole("checkbox", { name: "dan@example.com" }));
    await user.type(emailBox(), "Dan@example.com");
    await user.click(screen.getByRole("button", { name: "Share" }));
    expect(posts("/api/chat/share").map((r) => r.body)).toEqual([{ session_id: SESSION, emails: ["dan@example.com"] }]);
  });
  it("shows a partial result with each failed address kept and its error", async () => {
    const user = userEvent.setup();
    handler = ({ method }) =>
      method === "GET"
        ? { status: 200, body: { members: [{ email: "bob@example.com", created_at: 1 }] } }
        : {
            status: 200,
            body: {
              status: "partial",
              message: "Shared with 1 of 2.",
              shared: ["bob@example.com"],
              errors: [{ email: "zed@example.com", error: "No account with this e-mail." }],
            },
          };
    render(<ShareModal onClose={() => {}} />);
    await user.type(emailBox(), "bob@example.com{Enter}");
    await user.type(emailBox(), "zed@example.com{Enter}");
    await user.click(screen.getByRole("button", { name: "Share" }));
    expect(await screen.findByText("Shared with 1 of 2.")).toBeTruthy();
    expect(screen.getByText("No account with this e-mail.")).toBeTruthy();
    expect(screen.getByRole("checkbox", { name: "zed@example.com" })).toBeTruthy();
    expect(screen.queryByRole("checkbox", { name: "bob@example.com" })).toBeNull();
  });

  it("shows the server's error when sharing fails", async () => {
    const user = userEvent.setup();
    handler = ({ method }) =>
      method === "GET"
        ? { status: 200, body: { members: [] } }
        : { status: 404, body: { status: "error", message: SHARE_MESSAGES.notFound } };
    render(<ShareModal onClose={() => {}} />);
    await user.type(emailBox(), "bob@example.com{Enter}");
    await user.click(screen.getByRole("button", { name: "Share" }));
    expect((await screen.findByRole("alert")).textContent).toBe(SHARE_MESSAGES.notFound);
    expect(screen.getByRole("checkbox", { name: "bob@example.com" })).toBeTruthy();
  });

  it("Remove sends DELETE with the session and the address, and drops the member", async () => {
    const user = userEvent.setup();
    members = [
      { email: "carol@example.com", created_at: 1 },
      { email: "dan@example.com", created_at: 2 },
    ];
    render(<ShareModal onClose={() => {}} />);
    await user.click(await screen.findByRole("button", { name: "Remove carol@example.com" }));
    const deletes = requests.filter((r) => r.method === "DELETE");
    expect(deletes).toEqual([{ method: "DELETE", url: "/api/chat/share", body: { session_id: SESSION, email: "carol@example.com" } }]);
    await waitFor(() => expect(screen.queryByText("carol@example.com")).toBeNull());
    expect(screen.getByText("dan@example.com")).toBeTruthy();
    expect(screen.getByText(SHARE_MESSAGES.revoked)).toBeTruthy();
  });

  it("copies the chat link and reads Copied for 5 seconds", async () => {
    vi.useFakeTimers();
    render(<ShareModal onClose={() => {}} />);
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Copy link" }));
    });
    expect(writeText).toHaveBeenCalledWith(`${location.origin}/app/chat?session=${encodeURIComponent(SESSION)}`);
    expect(screen.getByRole("button", { name: "Copied" })).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(4999));
    expect(screen.getByRole("button", { name: "Copied" })).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(1));
    expect(screen.getByRole("button", { name: "Copy link" })).toBeTruthy();
  });
});

// ---------------------------------------------------------------- chat page wiring

function ChatPage() {
  return (
    <MemoryRouter initialEntries={["/app/chat"]}>
      <Chat />
    </MemoryRouter>
  );
}

describe("Chat page: memo and share buttons", () => {
  it("opens the memo dialog for a signed-in user", async () => {
    const user = userEvent.setup();
    signIn();
    annChat();
    render(<ChatPage />);
    await user.click(screen.getByRole("button", { name: "Send chat memo via email" }));
    expect(screen.getByRole("dialog", { name: "Generate Chat Memo" })).toBeTruthy();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("keeps memo disabled and hides Share for anonymous visitors", () => {
    annChat("guest-1");
    render(<ChatPage />);
    const memo = screen.getByRole("button", { name: "Send chat memo via email" }) as HTMLButtonElement;
    expect(memo.disabled).toBe(true);
    fireEvent.click(memo);
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.queryByRole("button", { name: "Share chat" })).toBeNull();
  });

  it("offers Share to the owner only once messages exist and never on a read-only chat", async () => {
    signIn();
    chatState.sessionId = SESSION;
    appInfo.currentSessionId = SESSION;
    const { unmount } = render(<ChatPage />);
    expect(screen.queryByRole("button", { name: "Share chat" })).toBeNull();
    await act(async () => {
      annChat(SESSION);
    });
    expect(screen.getByRole("button", { name: "Share chat" })).toBeTruthy();
    await act(async () => {
      chatState.readOnly = true;
    });
    expect(screen.queryByRole("button", { name: "Share chat" })).toBeNull();
    unmount();
  });

  it("clears the typed list when the share dialog closes", async () => {
    const user = userEvent.setup();
    handler = () => ({ status: 200, body: { members: [] } });
    signIn();
    annChat(SESSION);
    render(<ChatPage />);
    await user.click(screen.getByRole("button", { name: "Share chat" }));
    await user.type(await screen.findByLabelText("Email address*"), "bob@example.com{Enter}");
    expect(screen.getAllByRole("checkbox")).toHaveLength(1);
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();

    await user.click(screen.getByRole("button", { name: "Share chat" }));
    expect(await screen.findByRole("dialog", { name: "Share chat with other members" })).toBeTruthy();
    expect(screen.queryAllByRole("checkbox")).toHaveLength(0);
    expect((screen.getByLabelText("Email address*") as HTMLInputElement).value).toBe("");
  });
});

// ---------------------------------------------------------------- shared link

function LocationProbe() {
  const location = useLocation();
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
}

function ChatWithConnection() {
  useChatConnection();
  return <Chat />;
}

function renderLink(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route
          path="/app/chat"
          element={
            <>
              <ChatWithConnection />
              <LocationProbe />
            </>
          }
        />
        <Route path="/app/auth/login" element={<p>login page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe("Shared chat link", () => {
  const SHARED = "bob@example.com-5f0c";

  it.each([
    ["the user's own chat", `${ann.email}-own`],
    ["a guest id that does not fit", "guest-123"],
  ])("makes ?session= the current session over %s, keeps it, and drops the parameter", async (_label, before) => {
    signIn();
    appInfo.currentSessionId = before;
    renderLink(`/app/chat?session=${encodeURIComponent(SHARED)}`);
    await act(async () => {});
    await act(async () => {});

    expect(appInfo.currentSessionId).toBe(SHARED);
    expect(localStorage.getItem("currentSessionId")).toBe(SHARED);
    expect(screen.getByTestId("location").textContent).toBe("/app/chat");
    expect(sessionFitsUser(SHARED, ann.email)).toBe(true);
    expect(sessionFitsUser(SHARED, "someone@example.com")).toBe(false);
    expect(sessionFitsUser(SHARED, null)).toBe(false);
    await latestSocket(); // opened once its ticket arrives
    const live = liveSockets();
    expect(live).toHaveLength(1);
    expect(live[0]!.url).toContain(`session_id=${encodeURIComponent(SHARED)}`);

    // The read-only chat arrives: the composer is disabled and Share is not offered.
    await live[0]!.open();
    await live[0]!.emit({
      type: "full_chat",
      session_id: SHARED,
      messages: [{ id: "m1", role: "user", content: "Hi", created_at: 1 }],
      mode: "model",
      readOnly: true,
      files: [],
    });
    expect(chatState.readOnly).toBe(true);
    expect((screen.getByPlaceholderText("Ask me!") as HTMLTextAreaElement).disabled).toBe(true);
    expect(screen.queryByRole("button", { name: "Share chat" })).toBeNull();
    expect(appInfo.currentSessionId).toBe(SHARED);
  });

  it("accepts shared chats the server lists in the user's chat list", () => {
    userInfo.chatList = [{ session_id: "carol@example.com-9", updated_at: 1, summary: "Shared" }];
    expect(sessionFitsUser("carol@example.com-9", ann.email)).toBe(true);
    expect(sessionFitsUser("carol@example.com-10", ann.email)).toBe(false);
  });

  it("sends signed-out visitors to the login page", async () => {
    renderLink(`/app/chat?session=${encodeURIComponent(SHARED)}`);
    expect(await screen.findByText("login page")).toBeTruthy();
    expect(appInfo.currentSessionId).not.toBe(SHARED);
  });
});

// ---------------------------------------------------------------- contact

describe("Contact Us form", () => {
  const contactPosts = () => posts("/api/contactUs");

  function fields() {
    return {
      email: screen.getByLabelText("Email") as HTMLInputElement,
      code: screen.getByLabelText("Country code") as HTMLSelectElement,
      mobile: screen.getByLabelText(/^Mobile number/) as HTMLInputElement,
      category: screen.getByLabelText("Category") as HTMLSelectElement,
      message: screen.getByLabelText("Message") as HTMLTextAreaElement,
      submit: screen.getByRole("button", { name: /^Submit/ }) as HTMLButtonElement,
    };
  }

  function renderContact() {
    return render(
      <MemoryRouter initialEntries={["/app/contact-us"]}>
        <ContactUs />
      </MemoryRouter>,
    );
  }

  it("shows the form with its defaults and keeps the address and support e-mail below", () => {
    renderContact();
    expect(screen.getByRole("heading", { name: "Contact Us" })).toBeTruthy();
    const f = fields();
    expect(f.code.value).toBe("+1");
    expect(f.code.options).toHaveLength(14);
    expect(Array.from(f.code.options).map((o) => o.value)).toContain("+44");
    expect(f.category.value).toBe("general");
    expect(Array.from(f.category.options).map((o) => o.textContent)).toEqual([
      "General",
      "Technical support",
      "Billing",
      "Feature request",
    ]);
    expect(f.submit.textContent).toBe("Submit");
    expect(screen.getByText("Mailing address")).toBeTruthy();
    expect(screen.getByRole("link", { name: "support@docchat.app" }).getAttribute("href")).toBe("mailto:support@docchat.app");
    // the address block comes after the form
    const form = document.querySelector("form")!;
    const address = document.querySelector("address")!;
    expect(form.compareDocumentPosition(address) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("shows each validation message in red and sends nothing", async () => {
    const user = userEvent.setup();
    renderContact();
    const f = fields();
    await user.click(f.submit);
    expect(screen.getByText(CONTACT_MESSAGES.emailRequired).className).toContain("field-error");
    expect(screen.getByText(CONTACT_MESSAGES.messageRequired).className).toContain("field-error");
    expect(screen.queryByText(CONTACT_MESSAGES.mobileInvalid)).toBeNull();

    await user.type(f.email, "ann@example");
    await user.type(f.mobile, "79111234");
    await user.type(f.message, "   ");
    await user.click(f.submit);
    expect(screen.getByText(CONTACT_MESSAGES.emailInvalid)).toBeTruthy();
    expect(screen.getByText(CONTACT_MESSAGES.mobileInvalid)).toBeTruthy();
    expect(screen.getByText(CONTACT_MESSAGES.messageRequired)).toBeTruthy();

    await user.clear(f.mobile);
    await user.type(f.mobile, "+447911123456"); // the country code goes in the selector
    await user.click(f.submit);
    expect(screen.getByText(CONTACT_MESSAGES.mobileInvalid)).toBeTruthy();
    expect(contactPosts()).toHaveLength(0);
  });

  it("sends the mobile number as +CC-digits, reads Submitting..., then thanks and resets the form", async () => {
    const user = userEvent.setup();
    const reply = deferred<Reply>();
    handler = () => reply.promise;
    renderContact();
    const f = fields();
    await user.type(f.email, "Ann@Example.com");
    await user.selectOptions(f.code, "+44");
    await user.type(f.mobile, "7911123456");
    await user.selectOptions(f.category, "billing");
    await user.type(f.message, "  Please send an invoice.  ");
    await user.click(f.submit);

    expect(f.submit.textContent).toBe("Submitting...");
    expect(f.submit.disabled).toBe(true);
    expect(contactPosts().map((r) => r.body)).toEqual([
      { email: "ann@example.com", mobile: "+44-7911123456", category: "billing", message: "Please send an invoice." },
    ]);

    await act(async () => reply.resolve({ status: 200, body: { status: "success", message: "Message received." } }));
    const done = screen.getByText(CONTACT_MESSAGES.success);
    expect(done.className).toContain("success");
    expect(f.submit.textContent).toBe("Submit");
    expect(f.email.value).toBe("");
    expect(f.mobile.value).toBe("");
    expect(f.message.value).toBe("");
    expect(f.code.value).toBe("+1");
    expect(f.category.value).toBe("general");
  });

  it("leaves the mobile number out when it is empty and works signed out", async () => {
    const user = userEvent.setup();
    handler = () => ({ status: 200, body: { status: "success", message: "ok" } });
    renderContact();
    const f = fields();
    await user.type(f.email, "ann@example.com");
    await user.type(f.message, "Hello");
    await user.click(f.submit);
    await screen.findByText(CONTACT_MESSAGES.success);
    expect(contactPosts()[0]!.body).toEqual({ email: "ann@example.com", category: "general", message: "Hello" });
    expect(contactPosts()[0]!.auth).toBeNull();
  });

  it("shows the server's message in red and keeps the form", async () => {
    const user = userEvent.setup();
    handler = () => ({ status: 400, body: { status: "error", message: "Message is too long (5,000 characters at most)." } });
    renderContact();
    const f = fields();
    await user.type(f.email, "ann@example.com");
    await user.selectOptions(f.code, "+91");
    await user.type(f.mobile, "9876543210");
    await user.selectOptions(f.category, "feature");
    await user.type(f.message, "Dark mode please");
    await user.click(f.submit);

    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe("Message is too long (5,000 characters at most).");
    expect(alert.className).toContain("error");
    expect(f.email.value).toBe("ann@example.com");
    expect(f.code.value).toBe("+91");
    expect(f.mobile.value).toBe("9876543210");
    expect(f.category.value).toBe("feature");
    expect(f.message.value).toBe("Dark mode please");
    expect(screen.queryByText(CONTACT_MESSAGES.success)).toBeNull();
  });

  it("says An error occurred. without a server message", async () => {
    const user = userEvent.setup();
    handler = () => ({ status: 502, body: null });
    renderContact();
    const f = fields();
    await user.type(f.email, "ann@example.com");
    await user.type(f.message, "Hello");
    await user.click(f.submit);
    expect((await screen.findByRole("alert")).textContent).toBe(CONTACT_MESSAGES.failure);
    expect(f.message.value).toBe("Hello");
  });
});
