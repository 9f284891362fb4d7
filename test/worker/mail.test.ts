// Proves memo, share, contact and the mail outbox: memos for one's own (or a
// shared) chat only, each validation message, outbox rows and send_email calls
// with escaped content and no header injection, a failing mail provider being
// reported, sharing (grant, read-only over the websocket, revoke at once,
// non-members 404), the contact validation matrix and rate limits, and the
// development mailbox existing only in development.
import { env } from "cloudflare:workers";
import { createExecutionContext, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { app } from "../../worker/app";
import { chatSession } from "../../worker/chat/stub";
import {
  CONTACT_MESSAGES,
  DAILY_MAILS_PER_RECIPIENT,
  DAILY_MAILS_PER_SENDER,
  MEMO_MESSAGES,
  SHARE_MESSAGES,
  recipientCapMessage,
} from "../../worker/contract/mail";
import { CHAT_MESSAGES, CLOSE_NO_ACCESS } from "../../worker/contract/protocol";
import { chooseMailer } from "../../worker/providers/mail";
import { buildMime } from "../../worker/providers/mail/mime";
import { isEmailAddress } from "../../worker/contract/email";
import { sendMail } from "../../worker/services/mail";
import { call, freshRateWindow, GOOD_PASSWORD, newUser } from "../helpers/api";
import { uploadAndIndex, waitUntilDone } from "../helpers/documents";
import { textPdf } from "../helpers/pdfs";
import { openSocket } from "../helpers/sockets";

afterEach(() => vi.restoreAllMocks());

async function chatWithOneTurn(prefix: string, question = "When does dental coverage start?") {
  const owner = await newUser(prefix);
  const doc = await uploadAndIndex(owner.token, "Benefits.pdf", await textPdf(["Dental coverage starts after ninety days of employment."]));
  await waitUntilDone(owner.token, doc.fileId);
  const sessionId = `${owner.email}-${crypto.randomUUID()}`;
  const socket = await openSocket(sessionId, owner.token);
  socket.send({ action: "chat", query: question, session_id: sessionId, token: owner.token });
  await socket.next("end");
  socket.ws.close(1000);
  return { ...owner, sessionId };
}

async function outbox(to: string) {
  return (await env.DB.prepare("SELECT * FROM email_outbox WHERE `to` = ? ORDER BY id").bind(to).all<Record<string, any>>()).results;
}

describe("memo", () => {
  it("summarises the caller's chat and e-mails it to them when no address is given", async () => {
    const spy = vi.spyOn(env.EMAIL, "send").mockResolvedValue(undefined as never);
    const u = await chatWithOneTurn("memo");
    const res = await call("POST", "/api/chat/sendMemo", { token: u.token, body: { session_id: u.sessionId, email: "" } });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("success");
    expect(res.json.message).toBe(MEMO_MESSAGES.sent);
    expect(res.json.memo).toContain("When does dental coverage start?");
    expect(res.json.memo).toContain("Dental coverage starts after ninety days of employment. (Benefits.pdf, p. 1)");
    expect(res.json.memo).toContain("Benefits.pdf, page 1");

    const [row] = await outbox(u.email);
    expect(row).toMatchObject({ kind: "memo", status: "sent", subject: "Chat memo: When does dental coverage start?", error: null });
    expect(spy).toHaveBeenCalledTimes(1);
    const message = spy.mock.calls[0]![0] as unknown as { to: string; from: string };
    expect(message.to).toBe(u.email);
    expect(message.from).toBe(env.MAIL_FROM);
  });

  it("escapes what the user typed in the HTML e-mail", async () => {
    const u = await chatWithOneTurn("memo-escape", "Is <script>alert(1)</script> dental covered?");
    const other = `copy-${u.email}`;
    await call("POST", "/api/chat/sendMemo", { token: u.token, body: { session_id: u.sessionId, email: other } });
    const [row] = await outbox(other);
    expect(row!.status).toBe("sent"); // through the real local send_email binding
    expect(row!.html_body).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(row!.html_body).not.toContain("<script>");
    expect(row!.text_body).toContain("<script>alert(1)</script>");
  });

  it.each([
    [{}, MEMO_MESSAGES.sessionMissing],
    [{ session_id: "" }, MEMO_MESSAGES.sessionMissing],
    [{ session_id: "x", email: "nope" }, MEMO_MESSAGES.emailInvalid],
  ])("rejects %j with %s", async (body, message) => {
    const { token } = await newUser("memo-bad");
    const res = await call("POST", "/api/chat/sendMemo", { token, body });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(message);
  });

  it("refuses another user's chat as not found and sends nothing", async () => {
    const owner = await chatWithOneTurn("memo-owner");
    const other = await newUser("memo-other");
    const res = await call("POST", "/api/chat/sendMemo", { token: other.token, body: { session_id: owner.sessionId, email: other.email } });
    expect(res.status).toBe(404);
    expect(await outbox(other.email)).toEqual([]);
  });

  it("reports a failing mail provider and records the failure", async () => {
    vi.spyOn(env.EMAIL, "send").mockRejectedValue(new Error("mail relay unavailable"));
    const u = await chatWithOneTurn("memo-fail");
    const res = await call("POST", "/api/chat/sendMemo", { token: u.token, body: { session_id: u.sessionId } });
    expect(res.status).toBe(502);
    expect(res.json).toEqual({ status: "error", message: MEMO_MESSAGES.sendFailed });
    expect((await outbox(u.email))[0]).toMatchObject({ status: "failed", error: "mail relay unavailable" });
  });

  it("is rate limited per user", async () => {
    const u = await chatWithOneTurn("memo-limit");
    await freshRateWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await call("POST", "/api/chat/sendMemo", { token: u.token, body: { session_id: u.sessionId } })).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe("HTTP mail API provider", () => {
  it("sends through MAIL_API_URL with the key, and records a failure in the outbox", async () => {
    const mailEnv = { ...env, MAIL_API_URL: inject("mailApiUrl"), MAIL_API_KEY: "mail-key" } as Env;
    expect(chooseMailer(mailEnv).name).toBe("http");
    const to = `api-${crypto.randomUUID()}@example.com`;
    const ok = await sendMail({ env: mailEnv }, { kind: "contact", to, subject: "Hello", text: "plain", html: "<p>html</p>" });
    expect(ok.ok).toBe(true);
    const received = (await (await fetch(inject("mailApiUrl").replace("/send", "/requests"))).json()) as Record<string, unknown>[];
    expect(received.at(-1)).toEqual({ from: env.MAIL_FROM, to: [to], subject: "Hello", text: "plain", html: "<p>html</p>" });

    const failing = await sendMail({ env: mailEnv }, { kind: "contact", to: `fail-${to}`, subject: "Hello", text: "t", html: "h" });
    expect(failing).toMatchObject({ ok: false, error: "mail API answered 500" });
    expect((await outbox(`fail-${to}`))[0]).toMatchObject({ status: "failed", error: "mail API answered 500" });
  });
});

describe("daily e-mail caps", () => {
  async function pastMails(n: number, fields: { senderId: string; to: string }) {
    await env.DB.batch(
      Array.from({ length: n }, () =>
        env.DB.prepare("INSERT INTO email_outbox (`to`, sender_id, subject, kind, status) VALUES (?, ?, 'earlier', 'memo', 'sent')").bind(
          fields.to,
          fields.senderId,
        ),
      ),
    );
  }

  it("refuses memo and share e-mails past the sender's daily cap, saying so", async () => {
    const owner = await chatWithOneTurn("cap-sender");
    const member = await newUser("cap-member");
    await pastMails(DAILY_MAILS_PER_SENDER, { senderId: owner.user.id, to: "someone@example.com" });
    const memo = await call("POST", "/api/chat/sendMemo", { token: owner.token, body: { session_id: owner.sessionId } });
    expect(memo).toMatchObject({ status: 429, json: { message: MEMO_MESSAGES.dailySenderCap } });
    const share = await call("POST", "/api/chat/share", {
      token: owner.token,
      body: { session_id: owner.sessionId, emails: [member.email] },
    });
    expect(share.json).toMatchObject({
      status: "error",
      shared: [],
      errors: [{ email: member.email, error: MEMO_MESSAGES.dailySenderCap }],
    });
    const members = await call("GET", `/api/chat/share?session_id=${encodeURIComponent(owner.sessionId)}`, { token: owner.token });
    expect(members.json.members).toEqual([]);
  });

  it("holds the recipient's cap against shares from several owners at once", async () => {
    const owners = await Promise.all(["race-a", "race-b", "race-c", "race-d"].map((p) => chatWithOneTurn(p)));
    const target = `race-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await pastMails(DAILY_MAILS_PER_RECIPIENT - 1, { senderId: "someone-else", to: target });
    const results = await Promise.all(
      owners.map((o) => call("POST", "/api/chat/share", { token: o.token, body: { session_id: o.sessionId, emails: [target] } })),
    );
    expect(results.filter((r) => r.json.status === "success")).toHaveLength(1);
    for (const r of results.filter((r) => r.json.status !== "success"))
      expect(r.json.errors).toEqual([{ email: target, error: recipientCapMessage(target) }]);
    expect((await outbox(target)).filter((m) => m.kind === "share")).toHaveLength(1);
  });

  it("holds the sender's cap against memos sent at once", async () => {
    const owner = await chatWithOneTurn("race-memo");
    await pastMails(DAILY_MAILS_PER_SENDER - 1, { senderId: owner.user.id, to: "someone@example.com" });
    const memos = await Promise.all(
      [1, 2, 3].map(() => call("POST", "/api/chat/sendMemo", { token: owner.token, body: { session_id: owner.sessionId } })),
    );
    expect(memos.map((m) => m.status).sort()).toEqual([200, 429, 429]);
    for (const m of memos.filter((m) => m.status === 429)) expect(m.json.message).toBe(MEMO_MESSAGES.dailySenderCap);
    expect(await outbox(owner.email)).toHaveLength(1);
  });

  it("refuses e-mails to an address that had its share today, whoever sends them", async () => {
    const owner = await chatWithOneTurn("cap-recipient");
    const target = `target-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await pastMails(DAILY_MAILS_PER_RECIPIENT, { senderId: "someone-else", to: target });
    const memo = await call("POST", "/api/chat/sendMemo", { token: owner.token, body: { session_id: owner.sessionId, email: target } });
    expect(memo).toMatchObject({ status: 429, json: { message: recipientCapMessage(target) } });
    const share = await call("POST", "/api/chat/share", { token: owner.token, body: { session_id: owner.sessionId, emails: [target] } });
    expect(share.json.errors).toEqual([{ email: target, error: recipientCapMessage(target) }]);
    // the owner's own address is still fine
    expect((await call("POST", "/api/chat/sendMemo", { token: owner.token, body: { session_id: owner.sessionId } })).status).toBe(200);
  });
});

describe("one e-mail rule everywhere", () => {
  const odd = [
    'a"b@example.com',
    "a(b)@example.com",
    "a<b>@example.com",
    "a,b@example.com",
    "a b@example.com",
    `${"x".repeat(65)}@example.com`,
  ];

  it.each(odd)("refuses %j at sign-up, share, contact and memo alike", async (address) => {
    const signup = await call("POST", "/api/auth/signup", { body: { email: address, password: GOOD_PASSWORD } });
    expect(signup.status).toBe(400);
    const owner = await chatWithOneTurn("rule-owner");
    const share = await call("POST", "/api/chat/share", { token: owner.token, body: { session_id: owner.sessionId, emails: [address] } });
    expect(share.status).toBe(400);
    const memo = await call("POST", "/api/chat/sendMemo", { token: owner.token, body: { session_id: owner.sessionId, email: address } });
    expect(memo.status).toBe(400);
    const contact = await call("POST", "/api/contactUs", { body: { email: address, category: "general", message: "Hello" } });
    expect(contact.status).toBe(400);
  });

  it("sends a memo to every address sign-up accepts, an apostrophe and a plus included", async () => {
    for (const local of ["o'brien", "ann+memo", "first.last"]) {
      const email = `${local}-${crypto.randomUUID().slice(0, 8)}@example.com`;
      const signup = await call("POST", "/api/auth/signup", { body: { email, password: GOOD_PASSWORD } });
      expect(signup.status).toBe(201);
      const sessionId = `${email}-${crypto.randomUUID()}`;
      const socket = await openSocket(sessionId, signup.json.token);
      socket.send({ action: "chat", query: "Hello", session_id: sessionId, token: signup.json.token });
      await socket.next("end");
      const memo = await call("POST", "/api/chat/sendMemo", { token: signup.json.token, body: { session_id: sessionId } });
      expect(memo.status, email).toBe(200);
    }
  });
});

describe("mail headers", () => {
  it("cannot be injected through subjects or addresses", () => {
    const raw = buildMime(
      { from: "a@example.com", to: "b@example.com", subject: "Hello\r\nBcc: evil@example.com", text: "t", html: "h" },
      "id@example.com",
    );
    expect(raw).not.toMatch(/\r\nBcc:/);
    expect(raw).toContain("Subject: Hello Bcc: evil@example.com");
    expect(isEmailAddress("b@example.com\r\nBcc: evil@example.com")).toBe(false);
    expect(() => buildMime({ from: "a@example.com", to: "x@y.com\nBcc: z@y.com", subject: "s", text: "t", html: "h" }, "id")).toThrow();
    expect(buildMime({ from: "a@example.com", to: "b@example.com", subject: "Mémo é", text: "t", html: "h" }, "id")).toContain(
      "Subject: =?UTF-8?B?",
    );
  });
});

describe("share", () => {
  it("grants read-only access by e-mail, lists members, and revokes at once", async () => {
    const owner = await chatWithOneTurn("share-owner");
    const member = await newUser("share-member");
    const res = await call("POST", "/api/chat/share", {
      token: owner.token,
      body: { session_id: owner.sessionId, emails: [member.email.toUpperCase()] },
    });
    expect(res.json).toEqual({ status: "success", message: SHARE_MESSAGES.shared, shared: [member.email], errors: [] });
    const [mail] = await outbox(member.email);
    expect(mail).toMatchObject({ kind: "share", status: "sent" });
    expect(mail!.text_body).toContain(`/app/chat?session=${encodeURIComponent(owner.sessionId)}`);

    expect(
      (await call("GET", `/api/chat/share?session_id=${encodeURIComponent(owner.sessionId)}`, { token: owner.token })).json.members,
    ).toEqual([{ email: member.email, created_at: expect.any(Number) }]);

    // the member reads the chat but cannot write, and sees it in their list
    const socket = await openSocket(owner.sessionId, member.token);
    socket.send({ action: "get_full_chat", session_id: owner.sessionId, token: member.token });
    const full = await socket.next("full_chat");
    expect(full.readOnly).toBe(true);
    expect(full.messages).toHaveLength(2);
    socket.send({ action: "chat", query: "sneaky question", session_id: owner.sessionId, token: member.token });
    expect(await socket.next("error")).toMatchObject({ code: 403 });
    socket.send({ action: "get_chats", token: member.token });
    expect((await socket.next("chat_list")).chats.map((c) => c.session_id)).toContain(owner.sessionId);

    // the member can have a memo sent too
    expect((await call("POST", "/api/chat/sendMemo", { token: member.token, body: { session_id: owner.sessionId } })).status).toBe(200);

    const removed = await call("DELETE", "/api/chat/share", {
      token: owner.token,
      body: { session_id: owner.sessionId, email: member.email },
    });
    expect(removed.json).toEqual({ status: "success", message: SHARE_MESSAGES.revoked });
    // the open socket is told and closed as "no access" (4403), not as a logout
    expect((await socket.closed).code).toBe(CLOSE_NO_ACCESS);
    expect(socket.received.at(-1)).toEqual({ type: "error", code: 403, message: CHAT_MESSAGES.accessRemoved });
    const reopened = await openSocket(owner.sessionId, member.token);
    expect((await reopened.closed).code).toBe(CLOSE_NO_ACCESS);
    expect(reopened.received).toEqual([{ type: "error", code: 403, message: CHAT_MESSAGES.accessRemoved }]);
    // and the member is still signed in
    expect((await call("GET", "/api/getUserInfo", { token: member.token })).status).toBe(200);
    expect((await call("POST", "/api/chat/sendMemo", { token: member.token, body: { session_id: owner.sessionId } })).status).toBe(404);
  });

  it("invites a member once, however often or at once the chat is shared with them; again after a revoke", async () => {
    const owner = await chatWithOneTurn("share-once");
    const member = await newUser("share-once-member");
    const share = () =>
      call("POST", "/api/chat/share", { token: owner.token, body: { session_id: owner.sessionId, emails: [member.email] } });
    const results = await Promise.all(Array.from({ length: 8 }, share));
    for (const r of results) expect(r.json).toMatchObject({ status: "success", shared: [member.email], errors: [] });
    expect((await share()).json).toMatchObject({ status: "success", shared: [member.email] });
    expect(await outbox(member.email)).toHaveLength(1);

    await call("DELETE", "/api/chat/share", { token: owner.token, body: { session_id: owner.sessionId, email: member.email } });
    expect((await share()).json).toMatchObject({ status: "success", shared: [member.email] });
    expect(await outbox(member.email)).toHaveLength(2);
    const members = await call("GET", `/api/chat/share?session_id=${encodeURIComponent(owner.sessionId)}`, { token: owner.token });
    expect(members.json.members.map((m: { email: string }) => m.email)).toEqual([member.email]);
  });

  it("is for the owner only: others get 404", async () => {
    const owner = await chatWithOneTurn("share-only");
    const stranger = await newUser("share-stranger");
    const q = `/api/chat/share?session_id=${encodeURIComponent(owner.sessionId)}`;
    expect((await call("GET", q, { token: stranger.token })).status).toBe(404);
    expect(
      (await call("POST", "/api/chat/share", { token: stranger.token, body: { session_id: owner.sessionId, emails: [stranger.email] } }))
        .status,
    ).toBe(404);
    expect(
      (await call("DELETE", "/api/chat/share", { token: stranger.token, body: { session_id: owner.sessionId, email: stranger.email } }))
        .status,
    ).toBe(404);
    const never = await openSocket(owner.sessionId, stranger.token);
    expect((await never.closed).code).toBe(CLOSE_NO_ACCESS);
    expect(never.received).toEqual([{ type: "error", code: 403, message: CHAT_MESSAGES.notYourSession }]);
  });

  it.each([
    [{ session_id: "s", emails: [] }, SHARE_MESSAGES.selectAtLeastOne],
    [{ session_id: "s" }, SHARE_MESSAGES.selectAtLeastOne],
    [{ session_id: "s", emails: ["not-an-email"] }, SHARE_MESSAGES.invalidEmail],
  ])("validates %j", async (body, message) => {
    const { token } = await newUser("share-bad");
    const res = await call("POST", "/api/chat/share", { token, body });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(message);
  });
});

describe("contact", () => {
  it("stores the message and e-mails support", async () => {
    const email = `visitor-${crypto.randomUUID()}@example.com`;
    const res = await call("POST", "/api/contactUs", {
      body: { email, mobile: "+44-7911123456", category: "billing", message: "Invoice <b>question</b>" },
    });
    expect(res.json).toEqual({ status: "success", message: CONTACT_MESSAGES.success });
    const row = await env.DB.prepare("SELECT * FROM contact_messages WHERE email = ?").bind(email).first();
    expect(row).toMatchObject({ mobile: "+44-7911123456", category: "billing", message: "Invoice <b>question</b>" });
    const mail = (await outbox(env.SUPPORT_EMAIL)).find((m) => m.text_body.includes(email))!;
    expect(mail).toMatchObject({ kind: "contact", status: "sent" });
    expect(mail.html_body).toContain("Invoice &lt;b&gt;question&lt;/b&gt;");
  });

  it.each([
    [{ category: "general", message: "hi" }, CONTACT_MESSAGES.emailRequired],
    [{ email: "", category: "general", message: "hi" }, CONTACT_MESSAGES.emailRequired],
    [{ email: "a@b", category: "general", message: "hi" }, CONTACT_MESSAGES.emailInvalid],
    [{ email: "a@b.co", mobile: "12345", category: "general", message: "hi" }, CONTACT_MESSAGES.mobileInvalid],
    [{ email: "a@b.co", mobile: "+1-12345678901", category: "general", message: "hi" }, CONTACT_MESSAGES.mobileInvalid],
    [{ email: "a@b.co", mobile: "+999-1234567890", category: "general", message: "hi" }, CONTACT_MESSAGES.mobileInvalid],
    [{ email: "a@b.co", category: "sales", message: "hi" }, CONTACT_MESSAGES.categoryRequired],
    [{ email: "a@b.co", category: "general", message: "   " }, CONTACT_MESSAGES.messageRequired],
  ])("rejects %j with %s", async (body, message) => {
    const res = await call("POST", "/api/contactUs", { body });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: "error", message });
  });

  it("is rate limited per IP", async () => {
    const ip = "198.51.100.9";
    await freshRateWindow();
    let last = 0;
    for (let i = 0; i < 6; i++)
      last = (await call("POST", "/api/contactUs", { ip, body: { email: "a@b.co", category: "general", message: `m${i}` } })).status;
    expect(last).toBe(429);
  });
});

describe("development mailbox", () => {
  it("lists outbox messages locally and does not exist in production", async () => {
    await call("POST", "/api/contactUs", { body: { email: "mailbox@example.com", category: "feature", message: "Dark mode please" } });
    const page = await app.fetch(new Request("http://localhost/dev/mailbox"), env, createExecutionContext());
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Development mailbox");
    expect(html).toContain("Dark mode please");
    const id = html.match(/\/dev\/mailbox\/(\d+)/)![1];
    const one = await app.fetch(new Request(`http://localhost/dev/mailbox/${id}`), env, createExecutionContext());
    expect(one.headers.get("Content-Security-Policy")).toContain("sandbox");

    const production = { ...env, ENVIRONMENT: "production" } as Env;
    expect((await app.fetch(new Request("http://localhost/dev/mailbox"), production, createExecutionContext())).status).toBe(404);
  });
});

describe("rename and delete a chat", () => {
  it("lets the owner rename a chat; a member or a stranger gets 404 and changes nothing", async () => {
    const owner = await chatWithOneTurn("rename-owner");
    const member = await newUser("rename-member");
    await call("POST", "/api/chat/share", { token: owner.token, body: { session_id: owner.sessionId, emails: [member.email] } });
    const path = `/api/chat/${encodeURIComponent(owner.sessionId)}`;

    for (const title of ["", "   ", "\u202E", "\u200b", "\u2060 \u00ad"]) {
      const refused = await call("PATCH", path, { token: owner.token, body: { title } });
      expect(refused).toMatchObject({ status: 400, json: { message: CHAT_MESSAGES.titleRequired } });
    }
    expect((await call("PATCH", path, { token: owner.token, body: { title: "x".repeat(101) } })).status).toBe(400);
    expect((await call("PATCH", path, { token: member.token, body: { title: "Hijacked" } })).status).toBe(404);
    expect(await call("PATCH", path, { token: owner.token, body: { title: "  Dental plan questions " } })).toMatchObject({
      status: 200,
      json: { status: "success", message: CHAT_MESSAGES.renamed },
    });
    const listed = (await call("GET", "/api/chat/list", { token: member.token })).json.chats as { session_id: string; summary: string }[];
    expect(listed.find((c) => c.session_id === owner.sessionId)?.summary).toBe("Dental plan questions");
  });

  it("lets the owner delete a chat: its messages, shares and open sockets go; others get 404", async () => {
    const owner = await chatWithOneTurn("delete-chat");
    const member = await newUser("delete-chat-member");
    await call("POST", "/api/chat/share", { token: owner.token, body: { session_id: owner.sessionId, emails: [member.email] } });
    const memberSocket = await openSocket(owner.sessionId, member.token);
    const path = `/api/chat/${encodeURIComponent(owner.sessionId)}`;

    expect((await call("DELETE", path, { token: member.token })).status).toBe(404);
    expect(await call("DELETE", path, { token: owner.token })).toMatchObject({ status: 200, json: { message: CHAT_MESSAGES.deleted } });
    expect((await memberSocket.closed).code).toBe(CLOSE_NO_ACCESS);
    expect(memberSocket.received.at(-1)).toEqual({ type: "error", code: 404, message: CHAT_MESSAGES.chatDeleted });
    for (const token of [owner.token, member.token]) {
      const chats = (await call("GET", "/api/chat/list", { token })).json.chats as { session_id: string }[];
      expect(chats.map((c) => c.session_id)).not.toContain(owner.sessionId);
    }
    const shares = await env.DB.prepare("SELECT COUNT(*) AS n FROM chat_shares WHERE session_id = ?")
      .bind(owner.sessionId)
      .first<{ n: number }>();
    expect(shares!.n).toBe(0);
    const stored = await runInDurableObject(
      chatSession(env, owner.sessionId),
      (_object, state) => state.storage.sql.exec("SELECT COUNT(*) AS n FROM messages").one().n,
    );
    expect(stored).toBe(0);
    expect((await call("DELETE", path, { token: owner.token })).status).toBe(404);
  });

  it("answers a deleted chat opened again as a new one", async () => {
    const owner = await chatWithOneTurn("delete-reopen");
    await call("DELETE", `/api/chat/${encodeURIComponent(owner.sessionId)}`, { token: owner.token });
    const socket = await openSocket(owner.sessionId, owner.token);
    socket.send({ action: "get_full_chat", session_id: owner.sessionId, token: owner.token });
    expect(await socket.next("full_chat")).toMatchObject({ messages: [], files: [], folder: null });
  });

  it("keeps nothing of an answer still being written when its chat is deleted: no list entry, no search hit, no message", async () => {
    const owner = await chatWithOneTurn("delete-streaming");
    const socket = await openSocket(owner.sessionId, owner.token);
    socket.send({ action: "chat", query: "When does comparable dental coverage start?", session_id: owner.sessionId, token: owner.token });
    await socket.next("stream");
    expect((await call("DELETE", `/api/chat/${encodeURIComponent(owner.sessionId)}`, { token: owner.token })).status).toBe(200);
    expect((await socket.closed).code).toBe(CLOSE_NO_ACCESS);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the turn's own end, had it gone on
    const chats = (await call("GET", "/api/chat/list", { token: owner.token })).json.chats as { session_id: string }[];
    expect(chats.map((c) => c.session_id)).not.toContain(owner.sessionId);
    const found = (await call("GET", "/api/chat/search?q=comparable", { token: owner.token })).json.chats as unknown[];
    expect(found).toEqual([]);
    const stored = await runInDurableObject(
      chatSession(env, owner.sessionId),
      (_object, state) => state.storage.sql.exec("SELECT COUNT(*) AS n FROM messages").one().n,
    );
    expect(stored).toBe(0);
  });
});
