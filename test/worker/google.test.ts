// Proves Google sign-in and Drive import end to end against the built-in
// emulator (Google's wire formats): user creation and re-finding, linking to a
// password account, state tampering / replay / expiry, denied consent, the
// encrypted drive connection, token refresh and revoked grants, listing and
// importing into the documents pipeline, refusals for non-PDF and oversized
// files, isolation between users, and that the emulator is absent in production.
import { env, exports } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DOCUMENT_MESSAGES as M } from "../../worker/contract/documents";
import { app } from "../../worker/app";
import { open } from "../../worker/lib/secret-box";
import { GOOGLE_MESSAGES } from "../../worker/services/google-auth";
import { GOOD_PASSWORD, call, newUser, uniqueEmail } from "../helpers/api";
import { ftsPages } from "../helpers/library";
import { indexAnswerOnceSettled, waitUntilDone } from "../helpers/documents";

/** The test's browser: its cookies (the OAuth binding cookie among them) go with every request. */
const cookieJar = new Map<string, string>();

async function fetchWorker(url: string, init?: RequestInit, jar: Map<string, string> | null = cookieJar) {
  const headers = new Headers(init?.headers);
  if (jar?.size) headers.set("Cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
  const res = await exports.default.fetch(url.startsWith("http") ? url : `http://localhost${url}`, {
    redirect: "manual",
    ...init,
    headers,
  });
  for (const cookie of res.headers.getSetCookie()) {
    const [pair] = cookie.split(";");
    const [name, value = ""] = pair!.split("=");
    if (!jar) continue;
    if (/max-age=0/i.test(cookie) || value === "") jar.delete(name!);
    else jar.set(name!, value);
  }
  return res;
}

/** Runs the consent screen: Allow (or Deny) as the given person; returns the callback URL Google sends the browser to. */
async function consent(authUrl: string, person: { email: string; name?: string }, action: "allow" | "deny" = "allow"): Promise<string> {
  const url = new URL(authUrl);
  expect(url.pathname).toBe("/dev/google/o/oauth2/v2/auth");
  const page = await fetchWorker(url.toString());
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("Allow");
  const form = new URLSearchParams(url.searchParams);
  form.set("name", person.name ?? "Test Person");
  form.set("email", person.email);
  form.set("action", action);
  const decided = await fetchWorker(url.pathname, {
    method: "POST",
    body: form,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  expect(decided.status).toBe(302);
  return decided.headers.get("Location")!;
}

async function start(query: string): Promise<string> {
  const res = await fetchWorker(`/api/auth/google/connect?${query}`);
  expect(res.status).toBe(302);
  return res.headers.get("Location")!;
}

async function callbackJson(callbackUrl: string) {
  const res = await fetchWorker(callbackUrl, { headers: { Accept: "application/json" } });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

async function googleSignIn(email: string, name = "Grace Google") {
  return callbackJson(await consent(await start("action=signin"), { email, name }));
}

/** The Drive connection link's single-use ticket, as the client asks for it before leaving for Google. */
async function connectTicket(token: string): Promise<string> {
  const res = await call("POST", "/api/auth/google/connectTicket", { token });
  expect(res.status).toBe(200);
  return res.json.ticket as string;
}

async function connectDrive(token: string, email: string) {
  const authUrl = await start(
    `action=connect&authorization=${encodeURIComponent(await connectTicket(token))}&redirect_uri=${encodeURIComponent("http://localhost/gdrive-connected")}`,
  );
  expect(new URL(authUrl).searchParams.get("scope")).toContain("https://www.googleapis.com/auth/drive.readonly");
  const res = await fetchWorker(await consent(authUrl, { email }));
  return res;
}

const userCount = async () => (await env.DB.prepare("SELECT COUNT(*) AS n FROM users").first<{ n: number }>())!.n;

describe("binding the authorization to the browser that started it", () => {
  it("refuses a callback completed in another browser, for connect and sign-in, and links nothing", async () => {
    const victim = await newUser("bind-victim");
    const authUrl = await start(
      `action=connect&authorization=${encodeURIComponent(await connectTicket(victim.token))}&redirect_uri=${encodeURIComponent("/gdrive-connected")}`,
    );
    // someone else's consent, returning in a browser without the starter's cookie
    const attackerCallback = await consent(authUrl, { email: uniqueEmail("attacker") });
    const elsewhere = await fetchWorker(attackerCallback, { headers: { Accept: "application/json" } }, null);
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.json()).toEqual({ status: "error", message: GOOGLE_MESSAGES.badState });
    const linked = await env.DB.prepare("SELECT COUNT(*) AS n FROM drive_connections WHERE user_id = ?")
      .bind(victim.user.id)
      .first<{ n: number }>();
    expect(linked!.n).toBe(0);

    const signinCallback = await consent(await start("action=signin"), { email: uniqueEmail("bind-signin") });
    const noCookie = await fetchWorker(signinCallback, { headers: { Accept: "application/json" } }, null);
    expect(noCookie.status).toBe(400);
    // the starting browser still completes its own
    expect((await callbackJson(signinCallback)).status).toBe(200);
  });

  it("sets the binding cookie HttpOnly, SameSite=Lax, short-lived and scoped to the Google auth paths", async () => {
    const res = await fetchWorker("/api/auth/google/connect?action=signin", undefined, null);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("docchat_oauth_"))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Max-Age=600/i);
    expect(cookie).toMatch(/Path=\/api\/auth\/google/i);
  });

  it.each([
    "/\t/evil.example",
    "/\n/evil.example",
    "//evil.example",
    "/\\evil.example",
    "https://evil.example/x",
    "http://localhost.evil.example/",
  ])("never redirects off the site for redirect_uri %j", async (redirect) => {
    const result = await callbackJson(
      await consent(await start(`action=signin&redirect_uri=${encodeURIComponent(redirect)}`), {
        email: uniqueEmail("redirect"),
      }),
    );
    expect(result.json.redirectTo).toBe("/dashboard");
  });
});

describe("sign in with Google", () => {
  it("asks Google with PKCE and a signed state, creates the user once and finds them again", async () => {
    const authUrl = new URL(await start("action=signin"));
    expect(authUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authUrl.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authUrl.searchParams.get("redirect_uri")).toBe("http://localhost/api/auth/google/callback");
    expect(authUrl.searchParams.get("scope")).not.toContain("drive");

    const email = uniqueEmail("google");
    const first = await googleSignIn(email, "Grace Google");
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ status: "success", email, name: "Grace Google", redirectTo: "/dashboard" });
    expect(first.json.token.split(".")).toHaveLength(3);
    const before = await userCount();
    const second = await googleSignIn(email.toUpperCase());
    expect(second.json.email).toBe(email);
    expect(await userCount()).toBe(before);
    const me = await call("GET", "/api/getUserInfo", { token: second.json.token });
    expect(me.json.data).toMatchObject({ email, name: "Grace Google" });
  });

  it("redirects a browser to the sign-up-complete page, whose token signinStatus accepts", async () => {
    const email = uniqueEmail("browser");
    const res = await fetchWorker(await consent(await start("action=signin"), { email }));
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get("Location")!);
    expect(to.pathname).toBe("/sign-up-success");
    const token = to.searchParams.get("token")!;
    const status = await fetchWorker("/api/auth/google/signinStatus", { headers: { Authorization: `Bearer ${token}` } });
    expect(await status.json()).toMatchObject({ status: "success", user_info: { email }, error: null });
    const bad = await fetchWorker("/api/auth/google/signinStatus", { headers: { Authorization: "Bearer nope" } });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ status: "error", user_info: null });
  });

  it("links an existing password account with the same e-mail instead of duplicating it", async () => {
    const { email, user } = await newUser("linked");
    const before = await userCount();
    const google = await googleSignIn(email);
    expect(await userCount()).toBe(before);
    const row = await env.DB.prepare("SELECT id, google_sub FROM users WHERE email = ?")
      .bind(email)
      .first<{ id: string; google_sub: string }>();
    expect(row).toMatchObject({ id: user.id, google_sub: expect.any(String) });
    expect((await call("GET", "/api/getUserInfo", { token: google.json.token })).json.data.email).toBe(email);
    expect((await call("POST", "/api/auth/signin", { body: { email, password: GOOD_PASSWORD } })).status).toBe(200);
  });

  it("refuses tampered, replayed, expired and missing states, and changes nothing", async () => {
    const email = uniqueEmail("state");
    const callbackUrl = new URL(await consent(await start("action=signin"), { email }));
    const state = callbackUrl.searchParams.get("state")!;
    const before = await userCount();

    const tampered = new URL(callbackUrl);
    const [action, stateNonce, expires, signature] = state.split(".");
    const forged = `${signature![0] === "A" ? "B" : "A"}${signature!.slice(1)}`;
    tampered.searchParams.set("state", [action, stateNonce, expires, forged].join("."));
    expect(await callbackJson(tampered.toString())).toEqual({ status: 400, json: { status: "error", message: GOOGLE_MESSAGES.badState } });
    const missing = new URL(callbackUrl);
    missing.searchParams.delete("state");
    expect((await callbackJson(missing.toString())).json.message).toBe(GOOGLE_MESSAGES.badState);
    expect(await userCount()).toBe(before);

    expect((await callbackJson(callbackUrl.toString())).status).toBe(200);
    expect(await callbackJson(callbackUrl.toString())).toEqual({
      status: 400,
      json: { status: "error", message: GOOGLE_MESSAGES.badState },
    });

    const late = new URL(await consent(await start("action=signin"), { email: uniqueEmail("late") }));
    const nonce = late.searchParams.get("state")!.split(".")[1];
    await env.DB.prepare("UPDATE oauth_states SET expires_at = ? WHERE nonce = ?")
      .bind(Date.now() - 1, nonce)
      .run();
    const countBefore = await userCount();
    expect((await callbackJson(late.toString())).json.message).toBe(GOOGLE_MESSAGES.badState);
    expect(await userCount()).toBe(countBefore);
  });

  it("reports a denied consent on the error page and creates no account", async () => {
    const before = await userCount();
    const denied = await consent(await start("action=signin"), { email: uniqueEmail("deny") }, "deny");
    expect(new URL(denied).searchParams.get("error")).toBe("access_denied");
    const res = await fetchWorker(denied);
    const to = new URL(res.headers.get("Location")!);
    expect(to.pathname).toBe("/sign-up-success");
    expect(to.searchParams.get("error")).toBe(GOOGLE_MESSAGES.denied);
    expect(await userCount()).toBe(before);
  });
});

describe("Google Drive", () => {
  it("connect needs a signed-in caller's single-use ticket: never the sign-in token, a used ticket, or a chat's", async () => {
    const res = await fetchWorker("/api/auth/google/connect?action=connect&authorization=garbage");
    expect(res.status).toBe(401);
    expect((await call("POST", "/api/auth/google/connectTicket")).status).toBe(401);
    const { token, user } = await newUser("drive-ticket");
    const connect = (authorization: string) =>
      fetchWorker(`/api/auth/google/connect?action=connect&authorization=${encodeURIComponent(authorization)}`);
    // the sign-in token itself is no longer accepted in a URL
    expect((await connect(token)).status).toBe(401);
    const ticket = await connectTicket(token);
    expect((await connect(ticket)).status).toBe(302);
    expect((await connect(ticket)).status).toBe(401); // once
    const chatTicket = (await call("POST", "/api/chat/ticket", { token, body: { session_id: `${user.email}-x` } })).json.ticket as string;
    expect((await connect(chatTicket)).status).toBe(401);
    // a ticket of a session signed out since is refused
    const later = await connectTicket(token);
    await call("POST", "/api/auth/signout", { token });
    expect((await connect(later)).status).toBe(401);
  });

  it("stores the drive tokens encrypted, refreshes them when expired, and forgets a revoked grant", async () => {
    const { token, email, user } = await newUser("drive");
    expect((await call("GET", "/api/auth/google/connectionStatus", { token })).json).toEqual({ status: "not_connected" });
    const back = await connectDrive(token, email);
    expect(back.headers.get("Location")).toBe("/gdrive-connected");

    const row = await env.DB.prepare("SELECT access_token, refresh_token, scope FROM drive_connections WHERE user_id = ?")
      .bind(user.id)
      .first<{ access_token: string; refresh_token: string; scope: string }>();
    expect(row!.access_token).toMatch(/^v1\./);
    const access = (await open(env.ENCRYPTION_KEY, row!.access_token))!;
    const refresh = (await open(env.ENCRYPTION_KEY, row!.refresh_token))!;
    expect(access).toMatch(/^ya29\./);
    expect(JSON.stringify(row)).not.toContain(access);
    expect(JSON.stringify(row)).not.toContain(refresh);
    expect(row!.scope).toContain("drive.readonly");
    expect((await call("GET", "/api/auth/google/connectionStatus", { token })).json).toEqual({ status: "connected" });

    // expired: refreshed on the next use
    await env.DB.prepare("UPDATE drive_connections SET expires_at = ? WHERE user_id = ?")
      .bind(Date.now() - 1000, user.id)
      .run();
    expect((await call("GET", "/api/drive/files", { token })).status).toBe(200);
    const refreshed = await env.DB.prepare("SELECT access_token, expires_at FROM drive_connections WHERE user_id = ?")
      .bind(user.id)
      .first<{ access_token: string; expires_at: number }>();
    expect(refreshed!.expires_at).toBeGreaterThan(Date.now());
    expect(await open(env.ENCRYPTION_KEY, refreshed!.access_token)).not.toBe(access);

    // revoked at Google: not connected any more
    expect((await fetchWorker(`/dev/google/revoke?token=${encodeURIComponent(refresh)}`, { method: "POST" })).status).toBe(200);
    await env.DB.prepare("UPDATE drive_connections SET expires_at = ? WHERE user_id = ?")
      .bind(Date.now() - 1000, user.id)
      .run();
    expect((await call("GET", "/api/auth/google/connectionStatus", { token })).json).toEqual({ status: "not_connected" });
    expect((await call("GET", "/api/drive/files", { token })).status).toBe(409);
  });

  it("lists drive PDFs and imports chosen files into the documents pipeline", async () => {
    const { token, email, user } = await newUser("import");
    await connectDrive(token, email);
    const list = await call("GET", "/api/drive/files", { token });
    const names = list.json.files.map((f: { name: string }) => f.name);
    expect(names).toEqual(expect.arrayContaining(["Employee Handbook 2025.pdf", "Travel Expense Policy.pdf"]));
    expect(names).not.toContain("Meeting notes.txt");
    expect(names).not.toContain("Old Draft Policy.pdf");
    // a page token Google does not know is refused plainly, not a 500
    for (const pageToken of ["abc", "%", 'x"y'])
      expect(await call("GET", `/api/drive/files?${new URLSearchParams({ pageToken })}`, { token })).toMatchObject({
        status: 400,
        json: { status: "error", message: GOOGLE_MESSAGES.pageExpired },
      });
    expect(list.json.files[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      webViewLink: expect.stringContaining("https://drive.google.com/"),
    });

    const imported = await call("POST", "/api/drive/import", {
      token,
      body: { file_ids: ["1emu-employee-handbook-2025", "1emu-travel-expense-policy"] },
    });
    expect(imported.status).toBe(200);
    expect(imported.json).toMatchObject({ status: "success", message: "2 files imported.", errors: [] });
    expect(imported.json.results).toHaveLength(2);
    expect(imported.json.results[0]).toMatchObject({
      file_id: "1emu-employee-handbook-2025",
      status: "pending",
      s3_key: expect.stringMatching(/^users\//),
    });
    for (const r of imported.json.results) expect((await waitUntilDone(token, r.fileId)).status).toBe("indexed");

    // the imported file is searchable in the user's Library, and its catalogue row says where it came from
    expect(await ftsPages(user.id, "stipend")).toEqual([2]);
    const row = await env.DB.prepare("SELECT source, drive_file_id FROM documents WHERE user_id = ? AND id = ?")
      .bind(user.id, imported.json.results[0].fileId)
      .first();
    expect(row).toEqual({ source: "drive", drive_file_id: "1emu-employee-handbook-2025" });

    // importing the same file again points at the document the user already has (found by the indexer, after the
    // import answered: its upload's key then names that document)
    const again = await call("POST", "/api/drive/import", { token, body: { file_ids: ["1emu-employee-handbook-2025"] } });
    expect(await indexAnswerOnceSettled(token, again.json.results[0].s3_key)).toMatchObject({
      fileId: imported.json.results[0].fileId,
      duplicate: true,
    });
  });

  it("refuses non-PDF and oversized drive files with a reason, and an empty selection", async () => {
    const { token, email } = await newUser("refuse");
    await connectDrive(token, email);
    const res = await call("POST", "/api/drive/import", {
      token,
      body: { file_ids: ["1emu-meeting-notes", "1emu-scanned-archive", "no-such-file"] },
    });
    expect(res.json).toMatchObject({ status: "error", results: [] });
    expect(res.json.errors).toEqual([
      { file_id: "1emu-meeting-notes", error: M.notPdf },
      { file_id: "1emu-scanned-archive", error: M.tooLarge },
      { file_id: "no-such-file", error: M.fileNotFound },
    ]);
    expect((await call("GET", "/api/documents", { token })).json.files).toEqual([]);
    const empty = await call("POST", "/api/drive/import", { token, body: { file_ids: [] } });
    expect(empty.status).toBe(400);
    expect(empty.json.message).toBe("File is required.");
  });

  it("never lets another user use someone's connection", async () => {
    const owner = await newUser("conn-owner");
    await connectDrive(owner.token, owner.email);
    const other = await newUser("conn-other");
    expect((await call("GET", "/api/auth/google/connectionStatus", { token: other.token })).json).toEqual({ status: "not_connected" });
    expect((await call("GET", "/api/drive/files", { token: other.token })).status).toBe(409);
    const res = await call("POST", "/api/drive/import", { token: other.token, body: { file_ids: ["1emu-travel-expense-policy"] } });
    expect(res.status).toBe(409);
    expect(res.json.message).toBe(GOOGLE_MESSAGES.notConnected);
  });

  it("disconnects", async () => {
    const { token, email } = await newUser("disconnect");
    await connectDrive(token, email);
    expect((await call("DELETE", "/api/drive/connection", { token })).status).toBe(200);
    expect((await call("GET", "/api/auth/google/connectionStatus", { token })).json).toEqual({ status: "not_connected" });
  });
});

describe("production configuration", () => {
  it("has no emulator and no Google without a client id", async () => {
    const production = { ...env, ENVIRONMENT: "production" } as Env;
    const emulator = await app.fetch(
      new Request("http://localhost/dev/google/o/oauth2/v2/auth?client_id=x"),
      production,
      createExecutionContext(),
    );
    expect(emulator.status).toBe(404);
    const token = await app.fetch(
      new Request("http://localhost/dev/google/token", { method: "POST" }),
      production,
      createExecutionContext(),
    );
    expect(token.status).toBe(404);
    const signin = await app.fetch(
      new Request("http://localhost/api/auth/google/connect?action=signin"),
      production,
      createExecutionContext(),
    );
    expect(signin.status).toBe(503);
    expect(await signin.json()).toEqual({ status: "error", message: GOOGLE_MESSAGES.notConfigured });
  });

  it("talks to real Google endpoints when a client id is configured", async () => {
    const configured = { ...env, ENVIRONMENT: "production", GOOGLE_CLIENT_ID: "real-client.apps.googleusercontent.com" } as Env;
    const res = await app.fetch(
      new Request("http://localhost/api/auth/google/connect?action=signin"),
      configured,
      createExecutionContext(),
    );
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get("Location")!);
    expect(to.origin + to.pathname).toBe("https://accounts.google.com/o/oauth2/v2/auth");
    expect(to.searchParams.get("client_id")).toBe("real-client.apps.googleusercontent.com");
    const dev = { ...env, GOOGLE_CLIENT_ID: "real-client" } as Env;
    expect(
      (await app.fetch(new Request("http://localhost/dev/google/token", { method: "POST" }), dev, createExecutionContext())).status,
    ).toBe(404);
  });
});
