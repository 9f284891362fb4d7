// Proves the account forms show the spec's validation messages (section 5) before
// anything is sent, show a server message as the form error, and that the
// Login/Register forms move from the e-mail step to the password step. The
// network is a stubbed fetch: the real API is covered by the worker suite.
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DeleteAccount } from "../../client/components/settings/DeleteAccount";
import { ProfilePanel } from "../../client/components/settings/ProfilePanel";
import { SecurityPanel } from "../../client/components/settings/SecurityPanel";
import Login from "../../client/pages/Login";
import Register from "../../client/pages/Register";
import { userInfo } from "../../client/state/user";
import { MESSAGES } from "../../worker/contract/messages";

type Handler = (url: string, init?: RequestInit) => { status: number; body: unknown };
let handler: Handler;
const requests: { url: string; body: unknown }[] = [];

beforeEach(() => {
  requests.length = 0;
  handler = () => ({ status: 200, body: {} });
  vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
    requests.push({ url, body: init?.body ? JSON.parse(init.body as string) : undefined });
    const { status, body } = handler(url, init);
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  });
});
afterEach(() => vi.unstubAllGlobals());

function renderAuth(page: "login" | "register") {
  const path = page === "login" ? "/app/auth/login" : "/app/auth/register";
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/app/auth/login" element={<Login />} />
        <Route path="/app/auth/register" element={<Register />} />
        <Route path="/" element={<p>home page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe("Login form", () => {
  it("shows the heading and asks for the e-mail first", () => {
    renderAuth("login");
    expect(screen.getByRole("heading", { name: "Welcome back" })).toBeTruthy();
    expect(screen.queryByLabelText("Password")).toBeNull();
    expect(screen.getByText("Continue with Google")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Sign Up" }).getAttribute("href")).toBe("/app/auth/register");
  });

  it("validates the e-mail step", async () => {
    const user = userEvent.setup();
    renderAuth("login");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(screen.getByText("Email is required")).toBeTruthy();
    await user.type(screen.getByLabelText("Email address"), "not-an-email");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(screen.getByText("Please enter a valid email")).toBeTruthy();
    expect(screen.queryByLabelText("Password")).toBeNull();
    expect(requests).toHaveLength(0);
  });

  it("validates the password step and shows the server's message", async () => {
    const user = userEvent.setup();
    handler = () => ({ status: 400, body: { status: "error", message: "Invalid email or password." } });
    renderAuth("login");
    await user.type(screen.getByLabelText("Email address"), "ann@example.com");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    const password = await screen.findByLabelText("Password");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(screen.getByText("Password is required")).toBeTruthy();
    await user.type(password, "short");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(screen.getByText("Password must be at least 8 characters")).toBeTruthy();
    expect(requests).toHaveLength(0);

    await user.clear(password);
    await user.type(password, "whatever123");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", "Invalid email or password.");
    expect(requests[0]).toMatchObject({
      url: "/api/auth/signin",
      body: { email: "ann@example.com", password: "whatever123", rememberMe: false },
    });
  });

  it("stores the token and user and goes home on success", async () => {
    const user = userEvent.setup();
    const account = { id: "u1", email: "ann@example.com", name: "", phone: "", picture: null };
    handler = () => ({ status: 200, body: { status: "success", user: account, token: "t.o.k" } });
    renderAuth("login");
    await user.type(screen.getByLabelText("Email address"), "Ann@Example.com");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    await user.type(await screen.findByLabelText("Password"), "whatever123");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText("home page")).toBeTruthy();
    expect(localStorage.getItem("token")).toBe("t.o.k");
    expect(userInfo.user?.email).toBe("ann@example.com");
  });
});

describe("Register form", () => {
  it.each([
    ["short1A", "Password must be at least 8 characters"],
    ["lowercase1", "Password must contain at least one uppercase letter"],
    ["NoDigitsHere", "Password must contain at least one number"],
  ])("rejects the password %s with %s", async (password, message) => {
    const user = userEvent.setup();
    renderAuth("register");
    expect(screen.getByRole("heading", { name: "Create an account" })).toBeTruthy();
    await user.type(screen.getByLabelText("Email address"), "new@example.com");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    await user.type(await screen.findByLabelText("Password"), password);
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(screen.getByText(message)).toBeTruthy();
    expect(requests).toHaveLength(0);
  });

  it("shows a duplicate e-mail message from the server", async () => {
    const user = userEvent.setup();
    handler = () => ({
      status: 409,
      body: { status: "error", message: "An account with this email already exists. Please log in instead." },
    });
    renderAuth("register");
    await user.type(screen.getByLabelText("Email address"), "dup@example.com");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    await user.type(await screen.findByLabelText("Password"), "Secret123");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect((await screen.findByRole("alert")).textContent).toBe("An account with this email already exists. Please log in instead.");
    expect(requests[0]?.url).toBe("/api/auth/signup");
  });
});

describe("Profile panel", () => {
  it("shows the read-only e-mail, requires a name and saves it", async () => {
    const user = userEvent.setup();
    handler = (url) =>
      url === "/api/getUserInfo"
        ? { status: 200, body: { data: { email: "ann@example.com", name: "Ann", phone: "" } } }
        : { status: 200, body: { status: "success", message: "User info updated successfully." } };
    render(<ProfilePanel onCancel={() => {}} />);
    const name = screen.getByLabelText("Name") as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe("Ann"));
    expect((screen.getByLabelText("Email") as HTMLInputElement).readOnly).toBe(true);

    await user.clear(name);
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.getByText("Name is required.")).toBeTruthy();
    expect(requests.filter((r) => r.url === "/api/saveUserInfo")).toHaveLength(0);

    await user.type(name, "Ann Lee");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("User info updated successfully.")).toBeTruthy();
    expect(requests.find((r) => r.url === "/api/saveUserInfo")?.body).toEqual({ name: "Ann Lee" });
  });
});

describe("Security panel", () => {
  async function fill(values: [string, string][]) {
    const user = userEvent.setup();
    for (const [label, value] of values) if (value) await user.type(screen.getByLabelText(label), value);
    await user.click(screen.getByRole("button", { name: "Save" }));
  }

  it("shows the first message per field", async () => {
    render(<SecurityPanel onCancel={() => {}} />);
    await fill([]);
    expect(screen.getByText("Old password is required.")).toBeTruthy();
    expect(screen.getByText("New password is required.")).toBeTruthy();
    expect(screen.getByText("Confirm new password is required.")).toBeTruthy();
    expect(requests).toHaveLength(0);
  });

  it.each([
    [["short", "Newpass12", "Newpass12"], "Password must be at least 8 characters."],
    [["Oldpass12", "newpass12", "newpass12"], "Password must contain at least one uppercase letter"],
    [["Oldpass12", "Newpassword", "Newpassword"], "Password must contain at least one number"],
    [["Oldpass12", "Newpass12", "Newpass13"], "The confirmed password does not match."],
  ])("rejects %j with %s", async ([old, next, confirm], message) => {
    render(<SecurityPanel onCancel={() => {}} />);
    await fill([
      ["Old password", old!],
      ["New password", next!],
      ["Confirm new password", confirm!],
    ]);
    expect(screen.getByText(message)).toBeTruthy();
    expect(requests).toHaveLength(0);
  });

  it("sends current and new password only and shows success", async () => {
    handler = () => ({ status: 200, body: { status: "success", message: "Password changed successfully." } });
    render(<SecurityPanel onCancel={() => {}} />);
    await fill([
      ["Old password", "Oldpass12"],
      ["New password", "Newpass12"],
      ["Confirm new password", "Newpass12"],
    ]);
    expect(await screen.findByText("Password changed successfully.")).toBeTruthy();
    expect(requests[0]).toEqual({ url: "/api/auth/password", body: { current_password: "Oldpass12", new_password: "Newpass12" } });
    expect((screen.getByLabelText("Old password") as HTMLInputElement).value).toBe("");
  });

  it("shows the server's message when the old password is wrong", async () => {
    handler = () => ({
      status: 400,
      body: { status: "error", message: "Old password is incorrect.", errors: { current_password: "Old password is incorrect." } },
    });
    render(<SecurityPanel onCancel={() => {}} />);
    await fill([
      ["Old password", "Oldpass12"],
      ["New password", "Newpass12"],
      ["Confirm new password", "Newpass12"],
    ]);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe("Old password is incorrect.");
    // shown once, under its field; the alert only announces it
    expect(alert.className).toContain("visually-hidden");
    expect(screen.getByLabelText("Old password").getAttribute("aria-invalid")).toBe("true");
  });
});

describe("Delete account", () => {
  function renderDelete() {
    userInfo.user = { id: "u1", email: "ann@example.com", name: "Ann", phone: "", picture: null } as typeof userInfo.user;
    localStorage.setItem("token", "t");
    render(
      <MemoryRouter initialEntries={["/app/chat"]}>
        <Routes>
          <Route path="/app/chat" element={<DeleteAccount />} />
          <Route path="/" element={<p>home page</p>} />
        </Routes>
      </MemoryRouter>,
    );
  }

  it("asks for the account's e-mail before deleting, and sends nothing for a wrong one", async () => {
    renderDelete();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Delete account…" }));
    await user.type(screen.getByLabelText("E-mail address"), "bob@example.com");
    await user.click(screen.getByRole("button", { name: "Delete my account" }));
    expect(screen.getByRole("alert").textContent).toBe(MESSAGES.deleteAccountConfirm);
    expect(requests).toHaveLength(0);
    await user.click(screen.getByRole("button", { name: "Keep my account" }));
    expect(screen.getByRole("button", { name: "Delete account…" })).toBeTruthy();
  });

  it("deletes, signs out and goes home", async () => {
    handler = () => ({ status: 200, body: { status: "success", message: MESSAGES.accountDeleted } });
    renderDelete();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Delete account…" }));
    await user.type(screen.getByLabelText("E-mail address"), "ANN@example.com");
    await user.click(screen.getByRole("button", { name: "Delete my account" }));
    expect(await screen.findByText("home page")).toBeTruthy();
    expect(requests).toEqual([{ url: "/api/account", body: { email: "ANN@example.com" } }]);
    expect(userInfo.user).toBeNull();
    expect(localStorage.getItem("token")).toBeNull();
  });
});
