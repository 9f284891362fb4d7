// The development Google emulator (worker/dev/google), cut to the requests the
// product makes: OAuth 2.0 code + PKCE, token / refresh / revoke, userinfo, and
// the read-only Drive v3 with its seeded files, through the sub-app mounted on
// its own (the main app's mount is tested with the app). State lives in the
// local R2 binding, so these run against it.
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES } from "../../worker/contract/documents";
import { SCANNED_ARCHIVE_BYTES, SEEDED_FILES } from "../../worker/dev/google/drive";
import { googleEmulator } from "../../worker/dev/google/index";
import { pdfString, writePdf } from "../../worker/dev/google/pdf";
import { issueToken, randomId } from "../../worker/dev/google/tokens";
import { base64url } from "../../worker/lib/encoding";

const app = new Hono<{ Bindings: Env }>().route("/dev/google", googleEmulator);
const request = (path: string, init: RequestInit = {}, bindings: Env = env) => app.request(path, init, bindings);

const CLIENT_ID = "docchat-local.apps.googleusercontent.com";
const REDIRECT_URI = "http://localhost:5173/api/auth/google/callback";
const DRIVE_READONLY = "https://www.googleapis.com/auth/drive.readonly";
const FULL_SCOPE = `openid email profile ${DRIVE_READONLY}`;

let counter = 0;
const uniqueEmail = (prefix = "g") => `${prefix}-${Date.now()}-${++counter}@example.com`;

async function pkce() {
  const verifier = randomId(48); // 64 base64url characters
  const challenge = base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return { verifier, challenge };
}

function authParams(challenge: string, extra: Record<string, string> = {}) {
  return {
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: FULL_SCOPE,
    state: "state-123",
    code_challenge: challenge,
    code_challenge_method: "S256",
    access_type: "offline",
    ...extra,
  };
}

const form = (fields: Record<string, string>) => ({ method: "POST", body: new URLSearchParams(fields) });

/** Submits the consent form and returns the redirect's query. */
async function consent(fields: Record<string, string>) {
  const res = await request("/dev/google/o/oauth2/v2/auth", form(fields));
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("location")!);
  expect(`${location.origin}${location.pathname}`).toBe(fields.redirect_uri);
  return location.searchParams;
}

async function token(fields: Record<string, string>) {
  const res = await request("/dev/google/token", form(fields));
  return { status: res.status, json: (await res.json()) as Record<string, any>, headers: res.headers };
}

/** Signs in through the consent page and exchanges the code: the product's whole flow. */
async function signIn(options: { email?: string; name?: string; scope?: string; accessType?: string } = {}) {
  const { verifier, challenge } = await pkce();
  const email = options.email ?? uniqueEmail();
  const query = await consent({
    ...authParams(challenge, { scope: options.scope ?? FULL_SCOPE, access_type: options.accessType ?? "offline" }),
    action: "allow",
    name: options.name ?? "Test User",
    email,
  });
  const code = query.get("code")!;
  const res = await token({
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT_URI,
    client_id: CLIENT_ID,
    client_secret: "anything",
    code_verifier: verifier,
  });
  expect(res.status).toBe(200);
  return { email, ...(res.json as { access_token: string; refresh_token?: string; scope: string; expires_in: number }) };
}

const bearer = (accessToken: string) => ({ headers: { Authorization: `Bearer ${accessToken}` } });

async function pdfText(bytes: ArrayBuffer) {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { totalPages, text } = await extractText(pdf, { mergePages: false });
  return { totalPages, text: text.map((t) => t.replace(/\s+/g, " ")) };
}

describe("consent page", () => {
  it("renders a script-free form with the scopes in words, Name and Email fields, Allow and Deny", async () => {
    const { challenge } = await pkce();
    const res = await request(`/dev/google/o/oauth2/v2/auth?${new URLSearchParams(authParams(challenge, { prompt: "consent" }))}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<form method="post" action="/dev/google/o/oauth2/v2/auth">');
    expect(html).toContain("See and download all your Google Drive files");
    expect(html).toContain("See your primary Google Account email address");
    expect(html).toContain("See your personal info");
    expect(html).toMatch(/<label for="name">Name<\/label><input type="text" id="name" name="name"/);
    expect(html).toMatch(/<label for="email">Email<\/label><input type="email" id="email" name="email"/);
    expect(html).toMatch(/<button type="submit"[^>]*value="allow">Allow<\/button>/);
    expect(html).toMatch(/<button type="submit"[^>]*value="deny"[^>]*>Deny<\/button>/);
    // the request travels through the form, escaped
    expect(html).toContain(`<input type="hidden" name="code_challenge" value="${challenge}">`);
    expect(html).toContain("localhost:5173");
  });

  it.each([
    ["missing client_id", { client_id: "" }, "invalid_request", "Missing required parameter: client_id"],
    ["relative redirect_uri", { redirect_uri: "/callback" }, "invalid_request", "redirect_uri"],
    ["non-http redirect_uri", { redirect_uri: "javascript:alert(1)" }, "invalid_request", "redirect_uri"],
    ["implicit flow", { response_type: "token" }, "invalid_request", "response_type"],
    ["plain PKCE", { code_challenge_method: "plain" }, "invalid_request", "code_challenge_method"],
    ["no PKCE method", { code_challenge_method: "" }, "invalid_request", "code_challenge_method"],
    ["no PKCE challenge", { code_challenge: "" }, "invalid_request", "code_challenge"],
    ["missing scope", { scope: "" }, "invalid_request", "scope"],
    ["unknown scope", { scope: "openid https://www.googleapis.com/auth/gmail.readonly" }, "invalid_scope", "gmail.readonly"],
  ])("shows Google's error page for a bad request (%s) without redirecting", async (_, override, error, detail) => {
    const { challenge } = await pkce();
    const params = new URLSearchParams(authParams(challenge, override));
    for (const [k, v] of [...params]) if (!v) params.delete(k);
    const res = await request(`/dev/google/o/oauth2/v2/auth?${params}`);
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    const html = await res.text();
    expect(html).toContain(`Error 400: ${error}`);
    expect(html).toContain(detail);
  });

  it("validates the form's copy of the request too", async () => {
    const { challenge } = await pkce();
    const res = await request(
      "/dev/google/o/oauth2/v2/auth",
      form({ ...authParams(challenge, { redirect_uri: "ftp://evil.example/cb" }), action: "allow", name: "X", email: uniqueEmail() }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain("Error 400: invalid_request");
  });

  it("re-renders with an error for an invalid e-mail on Allow", async () => {
    const { challenge } = await pkce();
    const res = await request(
      "/dev/google/o/oauth2/v2/auth",
      form({ ...authParams(challenge), action: "allow", name: "Nope", email: "not-an-email" }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    const html = await res.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain("Enter a valid email address");
    expect(html).toMatch(/id="email"[^>]*value="not-an-email"[^>]*aria-invalid="true"/);
    expect(html).toContain('value="Nope"');
  });

  it("Deny redirects with access_denied and the state, and no code", async () => {
    const { challenge } = await pkce();
    const state = "s p/a&c=e?é";
    const query = await consent({ ...authParams(challenge, { state }), action: "deny" });
    expect(query.get("error")).toBe("access_denied");
    expect(query.get("state")).toBe(state);
    expect(query.get("code")).toBeNull();
  });
});

describe("token endpoint", () => {
  it("exchanges a code with the right verifier for Google's token response", async () => {
    const { verifier, challenge } = await pkce();
    const email = uniqueEmail("Mixed.Case");
    const state = "xyz/ 42+&=";
    const query = await consent({ ...authParams(challenge, { state }), action: "allow", name: "Ada Lovelace", email: email.toUpperCase() });
    expect(query.get("state")).toBe(state);
    expect(query.get("scope")!.split(" ")).toEqual(
      expect.arrayContaining([
        "openid",
        "https://www.googleapis.com/auth/userinfo.email",
        "https://www.googleapis.com/auth/userinfo.profile",
        DRIVE_READONLY,
      ]),
    );
    const code = query.get("code")!;
    expect(code.startsWith("4/0")).toBe(true);

    const res = await token({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      client_id: CLIENT_ID,
      code_verifier: verifier,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.json).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: query.get("scope") });
    expect(res.json.access_token).toMatch(/^ya29\./);
    expect(res.json.refresh_token).toMatch(/^1\/\//);
    const info = (await (await request("/dev/google/oauth2/v3/userinfo", bearer(res.json.access_token))).json()) as Record<string, unknown>;
    expect(info).toMatchObject({ email: email.toLowerCase(), email_verified: true, name: "Ada Lovelace" });
  });

  it("rejects a wrong verifier, a wrong redirect_uri or client, then a reused code", async () => {
    const { verifier, challenge } = await pkce();
    const query = await consent({ ...authParams(challenge), action: "allow", name: "R", email: uniqueEmail() });
    const code = query.get("code")!;
    const base = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, client_id: CLIENT_ID, code_verifier: verifier };

    const wrongVerifier = await token({ ...base, code_verifier: (await pkce()).verifier });
    expect(wrongVerifier).toMatchObject({ status: 400, json: { error: "invalid_grant", error_description: "Invalid code verifier." } });
    expect((await token({ ...base, redirect_uri: "http://localhost:5173/other" })).json.error).toBe("invalid_grant");
    expect((await token({ ...base, client_id: "someone-else" })).json.error).toBe("invalid_grant");

    // failed attempts do not burn the code
    const ok = await token(base);
    expect(ok.status).toBe(200);
    expect((await request("/dev/google/oauth2/v3/userinfo", bearer(ok.json.access_token))).status).toBe(200);

    const replay = await token(base);
    expect(replay.status).toBe(400);
    expect(replay.json).toEqual({ error: "invalid_grant", error_description: "The authorization code has already been used." });
  });

  it("rejects unknown, expired and incomplete code exchanges with invalid_grant, other grant types as unsupported", async () => {
    const { verifier, challenge } = await pkce();
    const base = { grant_type: "authorization_code", redirect_uri: REDIRECT_URI, client_id: CLIENT_ID, code_verifier: verifier };
    expect(await token({ ...base, code: "4/0garbage.xyz" })).toMatchObject({ status: 400, json: { error: "invalid_grant" } });

    const codeUntil = (exp: number) =>
      issueToken(env.JWT_SECRET, "code", {
        cid: CLIENT_ID,
        scope: "openid",
        gid: randomId(),
        user: { email: uniqueEmail("code"), name: "Code" },
        redirectUri: REDIRECT_URI,
        codeChallenge: challenge,
        offline: true,
        exp,
      });
    expect(await token({ ...base, code: await codeUntil(Date.now() - 1) })).toMatchObject({
      status: 400,
      json: { error: "invalid_grant", error_description: "The authorization code has expired." },
    });

    const fresh = await codeUntil(Date.now() + 60_000);
    for (const missing of ["code", "redirect_uri", "code_verifier", "client_id"]) {
      const fields: Record<string, string> = { ...base, code: fresh };
      delete fields[missing];
      expect(await token(fields)).toMatchObject({ status: 400, json: { error: "invalid_grant" } });
    }
    expect(await token({ ...base, code: fresh, grant_type: "password" })).toMatchObject({
      status: 400,
      json: { error: "unsupported_grant_type" },
    });
  });

  it("issues a refresh token only for access_type=offline, like Google", async () => {
    const online = await signIn({ accessType: "online" });
    expect(online.refresh_token).toBeUndefined();
    expect(online.access_token).toBeTruthy();
  });

  it("refreshes, and refuses a refresh token after it is revoked", async () => {
    const session = await signIn();
    const refreshed = await token({ grant_type: "refresh_token", refresh_token: session.refresh_token!, client_id: CLIENT_ID });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: session.scope });
    expect(refreshed.json.refresh_token).toBeUndefined();
    expect(refreshed.json.access_token).not.toBe(session.access_token);
    expect((await request("/dev/google/oauth2/v3/userinfo", bearer(refreshed.json.access_token))).status).toBe(200);

    expect((await token({ grant_type: "refresh_token", refresh_token: session.refresh_token!, client_id: "other" })).json.error).toBe(
      "unauthorized_client",
    );
    expect((await token({ grant_type: "refresh_token", refresh_token: "1//bogus.sig", client_id: CLIENT_ID })).json.error).toBe(
      "invalid_grant",
    );

    const revoke = await request(`/dev/google/revoke?token=${encodeURIComponent(session.refresh_token!)}`, { method: "POST" });
    expect(revoke.status).toBe(200);
    expect(await revoke.json()).toEqual({});

    const after = await token({ grant_type: "refresh_token", refresh_token: session.refresh_token!, client_id: CLIENT_ID });
    expect(after).toMatchObject({ status: 400, json: { error: "invalid_grant", error_description: "Token has been expired or revoked." } });
    // access tokens of the grant die with it
    expect((await request("/dev/google/oauth2/v3/userinfo", bearer(session.access_token))).status).toBe(401);
    expect((await request("/dev/google/oauth2/v3/userinfo", bearer(refreshed.json.access_token))).status).toBe(401);
    // revoking twice, or an unknown token: invalid_token
    for (const token of [session.refresh_token!, "nope"]) {
      const again = await request(`/dev/google/revoke?token=${encodeURIComponent(token)}`, { method: "POST" });
      expect(again.status).toBe(400);
      expect(await again.json()).toMatchObject({ error: "invalid_token" });
    }
  });

  it("revoking an access token revokes its grant", async () => {
    const session = await signIn();
    expect((await request(`/dev/google/revoke?token=${encodeURIComponent(session.access_token)}`, { method: "POST" })).status).toBe(200);
    expect((await token({ grant_type: "refresh_token", refresh_token: session.refresh_token!, client_id: CLIENT_ID })).json.error).toBe(
      "invalid_grant",
    );
  });

  it("refuses an expired access token everywhere", async () => {
    const expired = await issueToken(env.JWT_SECRET, "access", {
      cid: CLIENT_ID,
      scope: `openid ${DRIVE_READONLY}`,
      gid: randomId(),
      user: { email: uniqueEmail("expired"), name: "Expired" },
      jti: randomId(8),
      exp: Date.now() - 1,
    });
    const userinfo = await request("/dev/google/oauth2/v3/userinfo", bearer(expired));
    expect(userinfo.status).toBe(401);
    expect(await userinfo.json()).toEqual({ error: "invalid_token", error_description: "Invalid Credentials" });
    expect((await request("/dev/google/drive/v3/files", bearer(expired))).status).toBe(401);
  });
});

describe("userinfo", () => {
  it("returns the account, with a sub that is stable per e-mail", async () => {
    const email = uniqueEmail("stable");
    const a = await signIn({ email, name: "Grace Hopper" });
    const b = await signIn({ email: email.toUpperCase(), name: "Grace Hopper" });
    const other = await signIn({ name: "Someone Else" });
    const infoA = (await (await request("/dev/google/oauth2/v3/userinfo", bearer(a.access_token))).json()) as Record<string, unknown>;
    const infoB = (await (await request("/dev/google/oauth2/v3/userinfo", bearer(b.access_token))).json()) as Record<string, unknown>;
    const infoOther = (await (await request("/dev/google/oauth2/v3/userinfo", bearer(other.access_token))).json()) as Record<
      string,
      unknown
    >;
    expect(infoA).toMatchObject({ email, email_verified: true, name: "Grace Hopper" });
    expect(infoA.picture).toMatch(/^data:image\/svg\+xml,/);
    expect(infoA.sub).toMatch(/^\d{21}$/);
    expect(infoB.sub).toBe(infoA.sub);
    expect(infoOther.sub).not.toBe(infoA.sub);
  });

  it("refuses a missing or forged token", async () => {
    for (const init of [{}, bearer("ya29.forged.token"), bearer("not-a-token")]) {
      const res = await request("/dev/google/oauth2/v3/userinfo", init);
      expect(res.status).toBe(401);
    }
  });
});

describe("Drive v3", () => {
  const pdfs = SEEDED_FILES.filter((f) => f.mimeType === "application/pdf" && !f.trashed);

  it("refuses calls without a valid token (401) or without the drive.readonly scope (403)", async () => {
    const none = await request("/dev/google/drive/v3/files");
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({
      error: { code: 401, message: "Request had invalid authentication credentials.", status: "UNAUTHENTICATED" },
    });

    const noDrive = await signIn({ scope: "openid email profile" });
    for (const path of ["/dev/google/drive/v3/files", `/dev/google/drive/v3/files/${pdfs[0]!.id}?alt=media`]) {
      const res = await request(path, bearer(noDrive.access_token));
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: { code: 403, status: "PERMISSION_DENIED" } });
    }
  });

  it("lists the product's query (PDFs not in the trash), newest first, paged, projected to fields", async () => {
    const { access_token } = await signIn();
    const all = (await (await request("/dev/google/drive/v3/files", bearer(access_token))).json()) as any;
    expect(all.kind).toBe("drive#fileList");
    expect(all.files).toHaveLength(SEEDED_FILES.length); // trashed files are listed unless q excludes them

    const q = "mimeType='application/pdf' and trashed=false";
    const list = async (params: Record<string, string>) =>
      (await (await request(`/dev/google/drive/v3/files?${new URLSearchParams(params)}`, bearer(access_token))).json()) as any;
    expect((await list({ q: "trashed = true" })).files.map((f: any) => f.name)).toEqual(["Old Draft Policy.pdf"]);
    expect((await list({ q: "mimeType = 'text/plain'" })).files.map((f: any) => f.name)).toEqual(["Meeting notes.txt"]);

    // the product's request: one page of 100
    const newestFirst = [...pdfs].sort((a, b) => Date.parse(b.modifiedTime) - Date.parse(a.modifiedTime)).map((f) => f.id);
    const fields = "nextPageToken,files(id,name,webViewLink)";
    const page = await list({ q, fields, pageSize: "100", orderBy: "modifiedTime desc" });
    expect(Object.keys(page)).toEqual(["files"]);
    expect(page.files.map((f: any) => f.id)).toEqual(newestFirst);
    for (const file of page.files) {
      expect(Object.keys(file).sort()).toEqual(["id", "name", "webViewLink"]);
      expect(file.webViewLink).toBe(`https://drive.google.com/file/d/${file.id}/view?usp=drivesdk`);
    }

    // paging: pageSize 2 walks the same result set without gaps or repeats
    const seen: any[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const next = await list({ q, pageSize: "2", fields, orderBy: "modifiedTime desc", ...(pageToken ? { pageToken } : {}) });
      expect(next.files.length).toBeLessThanOrEqual(2);
      seen.push(...next.files);
      pageToken = next.nextPageToken;
      pages++;
    } while (pageToken);
    expect(pages).toBe(Math.ceil(pdfs.length / 2));
    expect(seen.map((f) => f.id)).toEqual(newestFirst);
  });

  it("answers 400 like Drive for what it does not understand", async () => {
    const { access_token } = await signIn();
    for (const [params, location] of [
      [{ q: "name contains 'x'" }, "q"],
      [{ q: "mimeType='application/pdf' andd trashed=false" }, "q"],
      [{ pageToken: "garbage" }, "pageToken"],
      [{ pageSize: "0" }, "pageSize"],
      [{ orderBy: "colour" }, "orderBy"],
      [{ fields: "files(id" }, "fields"],
    ] as const) {
      const res = await request(`/dev/google/drive/v3/files?${new URLSearchParams(params)}`, bearer(access_token));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 400, message: "Invalid Value", errors: [{ location }] } });
    }
    const spaced = await request(`/dev/google/drive/v3/files?fields=${encodeURIComponent("files( id, name )")}`, bearer(access_token));
    const body = (await spaced.json()) as any;
    expect(Object.keys(body)).toEqual(["files"]);
    expect(Object.keys(body.files[0]).sort()).toEqual(["id", "name"]);
  });

  it("gets the product's metadata fields and downloads each seeded PDF, whose text unpdf extracts", async () => {
    const { access_token } = await signIn();
    const metadata = async (id: string) =>
      (await (await request(`/dev/google/drive/v3/files/${id}?fields=id,name,mimeType,size`, bearer(access_token))).json()) as any;
    const pageCounts: Record<string, number> = {
      "Employee Handbook 2025.pdf": 3,
      "Travel Expense Policy.pdf": 2,
      "Quarterly Tax Calendar.pdf": 2,
      "Vendor Contract Template.pdf": 2,
    };
    for (const file of pdfs.filter((f) => f.name in pageCounts)) {
      const meta = await metadata(file.id);
      expect(meta).toEqual({ id: file.id, name: file.name, mimeType: "application/pdf", size: expect.any(String) });

      const media = await request(`/dev/google/drive/v3/files/${file.id}?alt=media`, bearer(access_token));
      expect(media.status).toBe(200);
      expect(media.headers.get("content-type")).toBe("application/pdf");
      const bytes = await media.arrayBuffer();
      expect(String(bytes.byteLength)).toBe(meta.size);
      expect(media.headers.get("content-length")).toBe(meta.size);
      const { totalPages, text } = await pdfText(bytes);
      expect(totalPages).toBe(pageCounts[file.name]);
      expect(text.join("\n")).toContain(file.phrase);
    }
    const handbook = await pdfText(
      await (await request("/dev/google/drive/v3/files/1emu-employee-handbook-2025?alt=media", bearer(access_token))).arrayBuffer(),
    );
    expect(handbook.text[0]).toContain("Onboarding");
    expect(handbook.text[1]).toContain("home office stipend of 500 dollars");
    expect(handbook.text[2]).toContain("Parental leave is 16 weeks");
    const contract = await pdfText(
      await (await request("/dev/google/drive/v3/files/1emu-vendor-contract-template?alt=media", bearer(access_token))).arrayBuffer(),
    );
    expect(contract.text[0]).toContain("(the Client)");
    expect(contract.text[1]).toContain("\\\\fileserver\\contracts\\vendors (one folder per vendor)");

    const archive = await metadata("1emu-scanned-archive");
    expect(Number(archive.size)).toBe(SCANNED_ARCHIVE_BYTES);
    expect(Number(archive.size)).toBeGreaterThan(MAX_UPLOAD_BYTES);
    expect((await metadata("1emu-meeting-notes")).mimeType).toBe("text/plain");
  });

  it("serves the text file as text/plain", async () => {
    const { access_token } = await signIn();
    const res = await request("/dev/google/drive/v3/files/1emu-meeting-notes?alt=media", bearer(access_token));
    expect(res.headers.get("content-type")).toBe("text/plain");
    expect(await res.text()).toContain("migrate the wiki by Friday");
  });

  it("streams the large archive at exactly its reported size", async () => {
    const { access_token } = await signIn();
    const res = await request("/dev/google/drive/v3/files/1emu-scanned-archive?alt=media", bearer(access_token));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(Number(res.headers.get("content-length"))).toBe(SCANNED_ARCHIVE_BYTES);
    const reader = res.body!.getReader();
    let total = 0;
    let head = "";
    let tail = new Uint8Array(0);
    let largestChunk = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!head) head = new TextDecoder("latin1").decode(value.subarray(0, 8));
      total += value.byteLength;
      largestChunk = Math.max(largestChunk, value.byteLength);
      tail = value;
    }
    expect(head).toBe("%PDF-1.4");
    expect(new TextDecoder().decode(tail)).toMatch(/%%EOF\n$/);
    expect(total).toBe(SCANNED_ARCHIVE_BYTES);
    expect(largestChunk).toBeLessThanOrEqual(64 * 1024);
  });

  it("answers 404 in Drive's shape for an unknown id", async () => {
    const { access_token } = await signIn();
    for (const suffix of ["", "?alt=media"]) {
      const res = await request(`/dev/google/drive/v3/files/nope123${suffix}`, bearer(access_token));
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: 404, message: "File not found: nope123.", status: "NOT_FOUND" } });
    }
  });
});

describe("pdf writer", () => {
  it("escapes parentheses and backslashes and keeps the xref offsets right", async () => {
    expect(pdfString("a (b) \\ c")).toBe("(a \\(b\\) \\\\ c)");
    expect(pdfString("caf\u00e9 \u2014 \u4e16")).toBe("(caf\\351 \\227 ?)");
    const bytes = writePdf([["Title (x)", "back\\slash and )odd( parens"], ["Second page"]]);
    const text = new TextDecoder("latin1").decode(bytes);
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1]);
    expect(text.slice(startxref, startxref + 4)).toBe("xref");
    const entries = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    entries.forEach((offset, i) => expect(text.slice(offset).startsWith(`${i + 1} 0 obj`)).toBe(true));
    const { totalPages, text: pages } = await pdfText(bytes.buffer as ArrayBuffer);
    expect(totalPages).toBe(2);
    expect(pages[0]).toContain("back\\slash and )odd( parens");
  });
});

describe("gate", () => {
  it("answers 404 outside development or when a real Google client is configured", async () => {
    const { challenge } = await pkce();
    const path = `/dev/google/o/oauth2/v2/auth?${new URLSearchParams(authParams(challenge))}`;
    expect((await request(path)).status).toBe(200);
    expect((await request(path, {}, { ...env, ENVIRONMENT: "production" })).status).toBe(404);
    expect((await request(path, {}, { ...env, GOOGLE_CLIENT_ID: "real.apps.googleusercontent.com" } as Env)).status).toBe(404);
    expect((await request("/dev/google/token", form({ grant_type: "refresh_token" }), { ...env, ENVIRONMENT: "production" })).status).toBe(
      404,
    );
  });
});
