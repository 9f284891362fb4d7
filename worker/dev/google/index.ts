// A Google emulator for local development (DESIGN.md section 2), cut to the
// requests the product makes (worker/providers/google.ts): OAuth 2.0
// authorization code + PKCE, token exchange and refresh, revoke, OpenID userinfo,
// and a read-only Drive v3 with seeded files, all speaking Google's wire formats
// so the product switches to real Google by configuration only. It checks the
// product's requests as Google would (client, redirect URI, PKCE, scopes, code
// reuse, expired and revoked tokens) and answers with Google's errors.
//
// Mounted at /dev/google (paths below are relative to the mount), and only when
// ENVIRONMENT is "development" and no GOOGLE_CLIENT_ID is set; the sub-app also
// checks that itself and answers 404 otherwise.
//
//   GET  /o/oauth2/v2/auth        consent page (accounts.google.com/o/oauth2/v2/auth)
//   POST /o/oauth2/v2/auth        the consent form: Allow -> ?code&state&scope, Deny -> ?error=access_denied&state
//   POST /token                   oauth2.googleapis.com/token (authorization_code, refresh_token)
//   POST /revoke?token=           oauth2.googleapis.com/revoke
//   GET  /oauth2/v3/userinfo      openidconnect.googleapis.com/v1/userinfo
//   GET  /drive/v3/files          www.googleapis.com/drive/v3/files
//   GET  /drive/v3/files/:id      metadata, or the bytes with alt=media
//
// State: signed tokens (./tokens.ts) + a small R2 store (./store.ts).
import { Hono, type Context } from "hono";
import { isGoogleEmulated } from "../../providers/google";
import { AUTH_REQUEST_KEYS, consentPage, errorPage, type AuthRequest } from "./consent";
import { DriveParamError, fileBody, fileResource, fileSize, findFile, listFiles, project, selection } from "./drive";
import { SCOPE_DRIVE_READONLY, hasScope, normalizeScopes } from "./scopes";
import { claimCode, isRevoked, revokeGrant } from "./store";
import {
  isValidChallenge,
  isValidVerifier,
  issueToken,
  pkceChallenge,
  profileClaims,
  randomId,
  readToken,
  type AccessClaims,
  type GoogleUser,
} from "./tokens";

type EmulatorEnv = { Bindings: Env };
type Ctx = Context<EmulatorEnv>;

const ACCESS_TOKEN_SECONDS = 3600;
const CODE_TTL_MS = 10 * 60 * 1000;

/** The emulator's memory: the development bucket DEV_STATE (bound only in development). */
function devState(c: Ctx): R2Bucket {
  if (!c.env.DEV_STATE) throw new Error("the Google emulator needs the DEV_STATE bucket (development only)");
  return c.env.DEV_STATE;
}

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

// ---- helpers -------------------------------------------------------------------

/** A form body's string fields; {} when absent or unreadable. */
async function readForm(c: Ctx): Promise<Record<string, string>> {
  const body = await c.req.parseBody().catch(() => ({}));
  return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

function pickAuthRequest(source: Record<string, string | undefined>): AuthRequest {
  const request: Partial<AuthRequest> = {};
  for (const key of AUTH_REQUEST_KEYS) if (source[key] !== undefined) request[key] = source[key];
  return {
    ...request,
    client_id: request.client_id ?? "",
    redirect_uri: request.redirect_uri ?? "",
    response_type: request.response_type ?? "",
    scope: request.scope ?? "",
    code_challenge: request.code_challenge ?? "",
    code_challenge_method: request.code_challenge_method ?? "",
  };
}

type Checked = { ok: true; scopes: string[] } | { ok: false; error: string; description: string };

/** Google's checks of an authorization request; a failure is shown as an error page (never redirected). */
function checkAuthRequest(r: AuthRequest): Checked {
  const invalid = (description: string): Checked => ({ ok: false, error: "invalid_request", description });
  if (!r.client_id) return invalid("Missing required parameter: client_id");
  let redirect: URL | null = null;
  try {
    redirect = new URL(r.redirect_uri);
  } catch {
    // reported below
  }
  if (!redirect || (redirect.protocol !== "http:" && redirect.protocol !== "https:") || redirect.hash)
    return invalid(`Invalid parameter value for redirect_uri: ${r.redirect_uri}`);
  if (r.response_type !== "code") return invalid(`Invalid response_type: ${r.response_type} (only "code" is supported)`);
  const scopes = normalizeScopes(r.scope);
  if ("unknown" in scopes)
    return { ok: false, error: "invalid_scope", description: `Some requested scopes were invalid. {invalid=[${scopes.unknown}]}` };
  if (scopes.scopes.length === 0) return invalid("Missing required parameter: scope");
  if (r.code_challenge_method !== "S256")
    return invalid(`Invalid code_challenge_method: "${r.code_challenge_method}" (this app must use S256)`);
  if (!isValidChallenge(r.code_challenge)) return invalid("Invalid code_challenge: expected 43 base64url characters");
  return { ok: true, scopes: scopes.scopes };
}

function redirectTo(c: Ctx, redirectUri: string, params: Record<string, string | undefined>) {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return c.body(null, 302, { Location: url.toString(), ...NO_STORE });
}

const EMAIL_RE = /^[^\s@"<>(),;:\\[\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

function oauthError(c: Ctx, error: string, description: string) {
  return c.json({ error, error_description: description }, 400, NO_STORE);
}

/** The claims of a live access token: signed by us, unexpired, grant not revoked. */
async function authenticate(c: Ctx): Promise<AccessClaims | null> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "")?.[1];
  const claims = await readToken(c.env.JWT_SECRET, "access", token);
  if (!claims || claims.exp <= Date.now()) return null;
  if (await isRevoked(devState(c), claims.gid)) return null;
  return claims;
}

/** Drive's error shape (the product reads `error.message` and `error.status`). */
function driveError(c: Ctx, code: 400 | 401 | 403 | 404, status: string, message: string, location?: string) {
  const errors = location ? { errors: [{ message, reason: "invalid", location, locationType: "parameter" }] } : {};
  return c.json({ error: { code, message, ...errors, status } }, code);
}

/** A Drive call: refused without a live token with the drive.readonly scope, 400 for a parameter it does not understand. */
async function driveCall(c: Ctx, answer: () => Response): Promise<Response> {
  const claims = await authenticate(c);
  if (!claims) return driveError(c, 401, "UNAUTHENTICATED", "Request had invalid authentication credentials.");
  if (!hasScope(claims.scope, SCOPE_DRIVE_READONLY))
    return driveError(c, 403, "PERMISSION_DENIED", "Request had insufficient authentication scopes.");
  try {
    return answer();
  } catch (err) {
    if (err instanceof DriveParamError) return driveError(c, 400, "INVALID_ARGUMENT", "Invalid Value", err.parameter);
    throw err;
  }
}

// ---- the app -------------------------------------------------------------------

export const googleEmulator = new Hono<EmulatorEnv>();

googleEmulator.use("*", async (c, next) => {
  if (!isGoogleEmulated(c.env)) return c.notFound(); // a real Google client is configured
  await next();
});

googleEmulator.get("/o/oauth2/v2/auth", async (c) => {
  const request = pickAuthRequest(c.req.query());
  const checked = checkAuthRequest(request);
  if (!checked.ok) return c.html(errorPage(checked.error, checked.description), 400, NO_STORE);
  return c.html(consentPage({ action: c.req.path, request, scopes: checked.scopes, name: "", email: "" }), 200, NO_STORE);
});

googleEmulator.post("/o/oauth2/v2/auth", async (c) => {
  const form = await readForm(c);
  const request = pickAuthRequest(form);
  const checked = checkAuthRequest(request);
  if (!checked.ok) return c.html(errorPage(checked.error, checked.description), 400, NO_STORE);

  if (form.action === "deny") return redirectTo(c, request.redirect_uri, { error: "access_denied", state: request.state });
  if (form.action !== "allow") return c.html(errorPage("invalid_request", "Choose Allow or Deny."), 400, NO_STORE);

  const email = (form.email ?? "").trim().toLowerCase();
  const name = (form.name ?? "").trim().replace(/\s+/g, " ");
  const rerender = (error: string) =>
    c.html(consentPage({ action: c.req.path, request, scopes: checked.scopes, name, email: form.email ?? "", error }), 400, NO_STORE);
  if (email.length > 254 || !EMAIL_RE.test(email)) return rerender("Enter a valid email address, like alex@example.com.");
  if (name.length > 100) return rerender("The name must be 100 characters or fewer.");

  const scope = checked.scopes.join(" ");
  const code = await issueToken(c.env.JWT_SECRET, "code", {
    cid: request.client_id,
    scope,
    gid: randomId(),
    user: { email, name: name || email },
    redirectUri: request.redirect_uri,
    codeChallenge: request.code_challenge,
    offline: request.access_type === "offline",
    exp: Date.now() + CODE_TTL_MS,
  });
  return redirectTo(c, request.redirect_uri, { state: request.state, code, scope });
});

googleEmulator.post("/token", async (c) => {
  const form = await readForm(c);
  const secret = c.env.JWT_SECRET;
  const tokenResponse = async (grant: { cid: string; scope: string; gid: string; user: GoogleUser }, refreshToken?: string) =>
    c.json(
      {
        access_token: await issueToken(secret, "access", { ...grant, jti: randomId(8), exp: Date.now() + ACCESS_TOKEN_SECONDS * 1000 }),
        expires_in: ACCESS_TOKEN_SECONDS,
        ...(refreshToken ? { refresh_token: refreshToken } : {}),
        scope: grant.scope,
        token_type: "Bearer",
      },
      200,
      NO_STORE,
    );

  if (form.grant_type === "authorization_code") {
    const code = await readToken(secret, "code", form.code);
    if (!code) return oauthError(c, "invalid_grant", "Malformed auth code.");
    if (code.exp <= Date.now()) return oauthError(c, "invalid_grant", "The authorization code has expired.");
    if (code.cid !== form.client_id) return oauthError(c, "invalid_grant", "The authorization code was issued to a different client.");
    if (code.redirectUri !== form.redirect_uri)
      return oauthError(c, "invalid_grant", "redirect_uri does not match the one in the authorization request.");
    const verifier = form.code_verifier ?? "";
    if (!isValidVerifier(verifier) || (await pkceChallenge(verifier)) !== code.codeChallenge)
      return oauthError(c, "invalid_grant", "Invalid code verifier.");
    if (!(await claimCode(devState(c), code.gid))) return oauthError(c, "invalid_grant", "The authorization code has already been used.");
    const grant = { cid: code.cid, scope: code.scope, gid: code.gid, user: code.user };
    return tokenResponse(grant, code.offline ? await issueToken(secret, "refresh", grant) : undefined);
  }

  if (form.grant_type === "refresh_token") {
    const grant = await readToken(secret, "refresh", form.refresh_token);
    if (!grant) return oauthError(c, "invalid_grant", "Bad Request");
    if (grant.cid !== form.client_id) return oauthError(c, "unauthorized_client", "Unauthorized");
    // the product drops the Drive connection on this answer
    if (await isRevoked(devState(c), grant.gid)) return oauthError(c, "invalid_grant", "Token has been expired or revoked.");
    return tokenResponse(grant);
  }

  return oauthError(c, "unsupported_grant_type", `Invalid grant_type: ${form.grant_type ?? ""}`);
});

googleEmulator.post("/revoke", async (c) => {
  // Revoking either token of a grant revokes the whole grant, as at Google.
  const token = c.req.query("token");
  const access = await readToken(c.env.JWT_SECRET, "access", token);
  const claims = (await readToken(c.env.JWT_SECRET, "refresh", token)) ?? (access && access.exp > Date.now() ? access : null);
  if (!claims || (await isRevoked(devState(c), claims.gid))) return oauthError(c, "invalid_token", "Token expired or revoked");
  await revokeGrant(devState(c), claims.gid);
  return c.json({}, 200, NO_STORE);
});

googleEmulator.get("/oauth2/v3/userinfo", async (c) => {
  const claims = await authenticate(c);
  if (!claims) return c.json({ error: "invalid_token", error_description: "Invalid Credentials" }, 401);
  return c.json(await profileClaims(claims.user), 200, { "Cache-Control": "no-store" });
});

googleEmulator.get("/drive/v3/files", (c) => driveCall(c, () => c.json(listFiles(c.req.query()), 200)));

googleEmulator.get("/drive/v3/files/:id", (c) =>
  driveCall(c, () => {
    const id = c.req.param("id");
    const file = findFile(id);
    if (!file) return driveError(c, 404, "NOT_FOUND", `File not found: ${id}.`);
    if (c.req.query("alt") === "media")
      return c.body(fileBody(file), 200, { "Content-Type": file.mimeType, "Content-Length": String(fileSize(file)) });
    return c.json(project(fileResource(file), selection(c.req.query("fields"))) as Record<string, unknown>, 200);
  }),
);
