// A Google emulator for local development (DESIGN.md section 2): OAuth 2.0
// authorization code + PKCE, token / refresh / revoke, OpenID userinfo, and a
// read-only Drive v3 with seeded files, all speaking Google's wire formats so
// the product switches to real Google by configuration only.
//
// Mounted at /dev/google (paths below are relative to the mount), and only when
// ENVIRONMENT is "development" and no GOOGLE_CLIENT_ID is set; the sub-app also
// checks that itself and answers 404 otherwise.
//
//   GET  /o/oauth2/v2/auth        consent page (accounts.google.com/o/oauth2/v2/auth)
//   POST /o/oauth2/v2/auth        the consent form: Allow -> ?code&state&scope, Deny -> ?error=access_denied&state
//   POST /token                   oauth2.googleapis.com/token (authorization_code, refresh_token)
//   POST /revoke                  oauth2.googleapis.com/revoke
//   GET  /oauth2/v3/userinfo      www.googleapis.com/oauth2/v3/userinfo (also POST)
//   GET  /drive/v3/files          www.googleapis.com/drive/v3/files
//   GET  /drive/v3/files/:id      metadata, or the bytes with alt=media
//
// Test knob: `x-emulator-expires-in: <seconds>` (header) or `emulator_expires_in`
// (form field) on /token sets the access token lifetime (0 or negative = already
// expired). State: signed tokens (./tokens.ts) + a small R2 store (./store.ts).
import { Hono, type Context } from "hono";
import { isGoogleEmulated } from "../../providers/google";
import { AUTH_REQUEST_KEYS, consentPage, errorPage, type AuthRequest } from "./consent";
import {
  DriveParamError,
  fileBody,
  fileResource,
  fileSelection,
  fileSize,
  findFile,
  listFiles,
  project,
  type DriveAccess,
  type DriveOwner,
} from "./drive";
import {
  SCOPE_DRIVE,
  SCOPE_DRIVE_FILE,
  SCOPE_DRIVE_METADATA_READONLY,
  SCOPE_DRIVE_READONLY,
  SCOPE_EMAIL,
  SCOPE_OPENID,
  SCOPE_PROFILE,
  hasScope,
  normalizeScopes,
} from "./scopes";
import { claimCode, isRevoked, rememberAccount, revokeGrant, savedAccounts } from "./store";
import {
  idToken,
  isValidChallenge,
  isValidVerifier,
  issueToken,
  kindOf,
  pkceChallenge,
  profileClaims,
  randomId,
  readToken,
  type AccessClaims,
  type GoogleUser,
} from "./tokens";

type EmulatorEnv = { Bindings: Env };
type Ctx = Context<EmulatorEnv>;

export const ACCESS_TOKEN_SECONDS = 3600;
export const CODE_TTL_MS = 10 * 60 * 1000;
const ID_TOKEN_SECONDS = 3600;

/** The emulator's memory: the development bucket DEV_STATE (bound only in development). */
function devState(c: Ctx): R2Bucket {
  if (!c.env.DEV_STATE) throw new Error("the Google emulator needs the DEV_STATE bucket (development only)");
  return c.env.DEV_STATE;
}

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

// ---- helpers -------------------------------------------------------------------

/** A form (urlencoded or multipart) or JSON body as strings; {} when absent or unreadable. */
async function readBody(c: Ctx): Promise<Record<string, string>> {
  const type = c.req.header("content-type") ?? "";
  const out: Record<string, string> = {};
  try {
    if (type.includes("application/json")) {
      const json = (await c.req.json()) as unknown;
      if (json && typeof json === "object") {
        for (const [k, v] of Object.entries(json)) if (typeof v === "string" || typeof v === "number") out[k] = String(v);
      }
    } else if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
      for (const [k, v] of Object.entries(await c.req.parseBody())) if (typeof v === "string") out[k] = v;
    }
  } catch {
    // a malformed body reads as empty, which each endpoint reports as missing parameters
  }
  return out;
}

function pickAuthRequest(source: Record<string, string | undefined>): AuthRequest {
  const get = (k: string) => source[k] ?? undefined;
  const request: Partial<Record<(typeof AUTH_REQUEST_KEYS)[number], string>> = {};
  for (const key of AUTH_REQUEST_KEYS) {
    const value = get(key);
    if (value !== undefined) request[key] = value;
  }
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

/** Google's checks, in its order; a failure is shown as an error page (never redirected). */
function checkAuthRequest(r: AuthRequest): Checked {
  const missing = (p: string): Checked => ({ ok: false, error: "invalid_request", description: `Missing required parameter: ${p}` });
  if (!r.client_id) return missing("client_id");
  if (!r.redirect_uri) return missing("redirect_uri");
  let redirect: URL;
  try {
    redirect = new URL(r.redirect_uri);
  } catch {
    return {
      ok: false,
      error: "invalid_request",
      description: `Invalid parameter value for redirect_uri: Not an absolute URI: ${r.redirect_uri}`,
    };
  }
  if ((redirect.protocol !== "http:" && redirect.protocol !== "https:") || redirect.hash || redirect.username || redirect.password) {
    return { ok: false, error: "invalid_request", description: `Invalid parameter value for redirect_uri: ${r.redirect_uri}` };
  }
  if (!r.response_type) return missing("response_type");
  if (r.response_type !== "code") {
    return { ok: false, error: "invalid_request", description: `Invalid response_type: ${r.response_type} (only "code" is supported)` };
  }
  if (!r.scope.trim()) return missing("scope");
  const scopes = normalizeScopes(r.scope);
  if ("unknown" in scopes)
    return { ok: false, error: "invalid_scope", description: `Some requested scopes were invalid. {invalid=[${scopes.unknown}]}` };
  if (!r.code_challenge) return missing("code_challenge");
  if (r.code_challenge_method !== "S256") {
    return {
      ok: false,
      error: "invalid_request",
      description: `Invalid code_challenge_method: "${r.code_challenge_method}" (this app must use S256)`,
    };
  }
  if (!isValidChallenge(r.code_challenge))
    return { ok: false, error: "invalid_request", description: "Invalid code_challenge: expected 43 base64url characters" };
  return { ok: true, scopes: scopes.scopes };
}

function redirectTo(c: Ctx, redirectUri: string, params: Record<string, string | undefined>) {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return c.body(null, 302, { Location: url.toString(), ...NO_STORE });
}

const EMAIL_RE = /^[^\s@"<>(),;:\\[\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/** "alice.smith@example.com" -> "Alice Smith", for an account saved without a name. */
function nameFromEmail(email: string): string {
  const local = email.split("@")[0] ?? email;
  const words = local.split(/[._+-]+/).filter(Boolean);
  return words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(" ") || local;
}

function oauthError(c: Ctx, status: 400 | 401, error: string, description: string) {
  return c.json({ error, error_description: description }, status, NO_STORE);
}

/** The test knob: a lifetime in whole seconds (may be <= 0), the default when absent, or null when malformed. */
function requestedLifetime(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === "") return ACCESS_TOKEN_SECONDS;
  const n = Number(raw);
  return Number.isInteger(n) && Math.abs(n) <= 366 * 24 * 3600 ? n : null;
}

function bearer(c: Ctx): string | undefined {
  const header = c.req.header("authorization");
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1] ?? c.req.query("access_token") ?? undefined;
}

/** The claims of a live access token: signed by us, unexpired, grant not revoked. */
async function authenticate(c: Ctx): Promise<AccessClaims | null> {
  const claims = await readToken(c.env.JWT_SECRET, "access", bearer(c));
  if (!claims || claims.exp <= Date.now()) return null;
  if (await isRevoked(devState(c), claims.gid)) return null;
  return claims;
}

// ---- Drive error shapes --------------------------------------------------------

const REALM = 'realm="https://accounts.google.com/"';

function driveError(
  c: Ctx,
  code: 400 | 401 | 403 | 404,
  status: string,
  message: string,
  detail: { message?: string; reason: string; location?: string; locationType?: string },
  headers: Record<string, string> = {},
) {
  const error = {
    message: detail.message ?? message,
    domain: "global",
    reason: detail.reason,
    ...(detail.location ? { location: detail.location, locationType: detail.locationType } : {}),
  };
  return c.json({ error: { code, message, errors: [error], status } }, code, headers);
}

const unauthenticated = (c: Ctx) =>
  driveError(
    c,
    401,
    "UNAUTHENTICATED",
    "Request had invalid authentication credentials.",
    { message: "Invalid Credentials", reason: "authError", location: "Authorization", locationType: "header" },
    { "WWW-Authenticate": `Bearer ${REALM}, error="invalid_token"` },
  );

const insufficientScope = (c: Ctx) =>
  driveError(
    c,
    403,
    "PERMISSION_DENIED",
    "Request had insufficient authentication scopes.",
    { message: "Insufficient Permission", reason: "insufficientPermissions" },
    { "WWW-Authenticate": `Bearer ${REALM}, error="insufficient_scope", scope="${SCOPE_DRIVE_READONLY}"` },
  );

const fileNotFound = (c: Ctx, id: string) =>
  driveError(c, 404, "NOT_FOUND", `File not found: ${id}.`, { reason: "notFound", location: "fileId", locationType: "parameter" });

const badParam = (c: Ctx, err: DriveParamError) =>
  driveError(c, 400, "INVALID_ARGUMENT", err.message, { reason: err.reason, location: err.location, locationType: "parameter" });

function driveAccess(scope: string): DriveAccess | null {
  if (hasScope(scope, SCOPE_DRIVE) || hasScope(scope, SCOPE_DRIVE_READONLY)) return "full";
  if (hasScope(scope, SCOPE_DRIVE_METADATA_READONLY)) return "metadata";
  if (hasScope(scope, SCOPE_DRIVE_FILE)) return "appOnly";
  return null;
}

/** Bearer + scope check for Drive; a Response when the call must be refused. */
async function driveCaller(c: Ctx): Promise<{ owner: DriveOwner; access: DriveAccess } | Response> {
  const claims = await authenticate(c);
  if (!claims) return unauthenticated(c);
  const access = driveAccess(claims.scope);
  if (!access) return insufficientScope(c);
  const profile = await profileClaims(claims.user);
  return { owner: { sub: profile.sub, email: profile.email, name: profile.name, picture: profile.picture }, access };
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
  // No emulated browser session exists, so a silent request cannot succeed.
  if (request.prompt?.split(" ").includes("none"))
    return redirectTo(c, request.redirect_uri, { error: "login_required", state: request.state });

  const accounts = await savedAccounts(devState(c));
  const hint = request.login_hint?.trim().toLowerCase() ?? "";
  const known = accounts.some((a) => a.email === hint);
  return c.html(
    consentPage({
      action: c.req.path,
      request,
      scopes: checked.scopes,
      accounts,
      selected: known ? hint : "",
      name: "",
      email: known ? "" : hint,
    }),
    200,
    NO_STORE,
  );
});

googleEmulator.post("/o/oauth2/v2/auth", async (c) => {
  const form = await readBody(c);
  const request = pickAuthRequest(form);
  const checked = checkAuthRequest(request);
  if (!checked.ok) return c.html(errorPage(checked.error, checked.description), 400, NO_STORE);

  if (form.action === "deny") return redirectTo(c, request.redirect_uri, { error: "access_denied", state: request.state });
  if (form.action !== "allow") return c.html(errorPage("invalid_request", "Choose Allow or Deny."), 400, NO_STORE);

  const accounts = await savedAccounts(devState(c));
  const picked = form.account?.trim().toLowerCase() ?? "";
  const saved = picked ? accounts.find((a) => a.email === picked) : undefined;
  const email = (picked || (form.email ?? "")).trim().toLowerCase();
  const typedName = (form.name ?? "").trim().replace(/\s+/g, " ");
  const rerender = (error: string) =>
    c.html(
      consentPage({
        action: c.req.path,
        request,
        scopes: checked.scopes,
        accounts,
        selected: "",
        name: typedName,
        email: form.email ?? "",
        error,
      }),
      400,
      NO_STORE,
    );
  if (!email) return rerender("Enter an email address, or choose a saved account.");
  if (email.length > 254 || !EMAIL_RE.test(email)) return rerender("Enter a valid email address, like alex@example.com.");
  if (typedName.length > 100) return rerender("The name must be 100 characters or fewer.");

  const user: GoogleUser = { email, name: saved?.name ?? (typedName || nameFromEmail(email)) };
  await rememberAccount(devState(c), user);
  const scope = checked.scopes.join(" ");
  const code = await issueToken(c.env.JWT_SECRET, "code", {
    cid: request.client_id,
    scope,
    gid: randomId(),
    user,
    redirectUri: request.redirect_uri,
    codeChallenge: request.code_challenge,
    offline: request.access_type === "offline",
    ...(request.nonce ? { nonce: request.nonce } : {}),
    exp: Date.now() + CODE_TTL_MS,
  });
  return redirectTo(c, request.redirect_uri, { state: request.state, code, scope, authuser: "0", prompt: "consent" });
});

googleEmulator.post("/token", async (c) => {
  const form = await readBody(c);
  const secret = c.env.JWT_SECRET;
  // Google accepts client credentials in the body or as HTTP Basic.
  let clientId = form.client_id;
  const basic = /^Basic\s+(\S+)$/i.exec(c.req.header("authorization") ?? "");
  if (!clientId && basic?.[1]) {
    try {
      clientId = decodeURIComponent(atob(basic[1]).split(":")[0] ?? "");
    } catch {
      // ignore a malformed header: reported as a missing client id below
    }
  }
  const lifetime = requestedLifetime(c.req.header("x-emulator-expires-in") ?? form.emulator_expires_in);
  if (lifetime === null) return oauthError(c, 400, "invalid_request", "emulator_expires_in must be a whole number of seconds.");
  if (!form.grant_type) return oauthError(c, 400, "invalid_request", "Missing required parameter: grant_type");
  if (!clientId) return oauthError(c, 400, "invalid_request", "Could not determine client ID from request.");

  const issueAccess = (grant: { cid: string; scope: string; gid: string; user: GoogleUser }) =>
    issueToken(secret, "access", { ...grant, jti: randomId(8), exp: Date.now() + lifetime * 1000 });
  const maybeIdToken = async (grant: { cid: string; scope: string; user: GoogleUser }, accessToken: string, nonce?: string) =>
    hasScope(grant.scope, SCOPE_OPENID)
      ? {
          id_token: await idToken(secret, { clientId: grant.cid, user: grant.user, nonce, accessToken, lifetimeSeconds: ID_TOKEN_SECONDS }),
        }
      : {};

  if (form.grant_type === "authorization_code") {
    for (const p of ["code", "redirect_uri", "code_verifier"] as const) {
      if (!form[p]) return oauthError(c, 400, "invalid_request", `Missing required parameter: ${p}`);
    }
    const code = await readToken(secret, "code", form.code);
    if (!code) return oauthError(c, 400, "invalid_grant", "Malformed auth code.");
    if (code.exp <= Date.now()) return oauthError(c, 400, "invalid_grant", "The authorization code has expired.");
    if (code.cid !== clientId) return oauthError(c, 400, "invalid_grant", "The authorization code was issued to a different client.");
    if (code.redirectUri !== form.redirect_uri) {
      return oauthError(c, 400, "invalid_grant", "redirect_uri does not match the one in the authorization request.");
    }
    const verifier = form.code_verifier!;
    if (!isValidVerifier(verifier) || (await pkceChallenge(verifier)) !== code.codeChallenge) {
      return oauthError(c, 400, "invalid_grant", "Invalid code verifier.");
    }
    if (!(await claimCode(devState(c), code.gid))) {
      // RFC 6749 4.1.2: a replayed code also revokes what was issued from it.
      await revokeGrant(devState(c), code.gid);
      return oauthError(c, 400, "invalid_grant", "The authorization code has already been used.");
    }
    const grant = { cid: code.cid, scope: code.scope, gid: code.gid, user: code.user };
    const accessToken = await issueAccess(grant);
    const refreshToken = code.offline ? await issueToken(secret, "refresh", grant) : undefined;
    return c.json(
      {
        access_token: accessToken,
        expires_in: Math.max(0, lifetime),
        ...(refreshToken ? { refresh_token: refreshToken } : {}),
        scope: code.scope,
        token_type: "Bearer",
        ...(await maybeIdToken(grant, accessToken, code.nonce)),
      },
      200,
      NO_STORE,
    );
  }

  if (form.grant_type === "refresh_token") {
    if (!form.refresh_token) return oauthError(c, 400, "invalid_request", "Missing required parameter: refresh_token");
    const grant = await readToken(secret, "refresh", form.refresh_token);
    if (!grant) return oauthError(c, 400, "invalid_grant", "Bad Request");
    if (grant.cid !== clientId) return oauthError(c, 400, "unauthorized_client", "Unauthorized");
    if (await isRevoked(devState(c), grant.gid)) return oauthError(c, 400, "invalid_grant", "Token has been expired or revoked.");
    const accessToken = await issueAccess(grant);
    return c.json(
      {
        access_token: accessToken,
        expires_in: Math.max(0, lifetime),
        scope: grant.scope,
        token_type: "Bearer",
        ...(await maybeIdToken(grant, accessToken)),
      },
      200,
      NO_STORE,
    );
  }

  return oauthError(c, 400, "unsupported_grant_type", `Invalid grant_type: ${form.grant_type}`);
});

googleEmulator.post("/revoke", async (c) => {
  const form = await readBody(c);
  const token = c.req.query("token") ?? form.token;
  if (!token) return oauthError(c, 400, "invalid_request", "Missing required parameter: token");
  // Revoking either token of a grant revokes the whole grant, as at Google.
  const kind = kindOf(token);
  let claims: { gid: string } | null = null;
  if (kind === "refresh") claims = await readToken(c.env.JWT_SECRET, "refresh", token);
  if (kind === "access") {
    const access = await readToken(c.env.JWT_SECRET, "access", token);
    claims = access && access.exp > Date.now() ? access : null;
  }
  if (!claims || (await isRevoked(devState(c), claims.gid))) {
    return oauthError(c, 400, "invalid_token", "Token expired or revoked");
  }
  await revokeGrant(devState(c), claims.gid);
  return c.json({}, 200, NO_STORE);
});

const userinfo = async (c: Ctx) => {
  const claims = await authenticate(c);
  if (!claims) {
    return c.json({ error: "invalid_token", error_description: "Invalid Credentials" }, 401, {
      "WWW-Authenticate": `Bearer ${REALM}, error="invalid_token"`,
    });
  }
  // Like Google: the e-mail needs the email scope, name and picture the profile scope.
  const { sub, email, email_verified, ...profile } = await profileClaims(claims.user);
  return c.json(
    {
      sub,
      ...(hasScope(claims.scope, SCOPE_PROFILE) ? profile : {}),
      ...(hasScope(claims.scope, SCOPE_EMAIL) ? { email, email_verified } : {}),
    },
    200,
    { "Cache-Control": "no-store" },
  );
};
googleEmulator.get("/oauth2/v3/userinfo", userinfo);
googleEmulator.post("/oauth2/v3/userinfo", userinfo);

googleEmulator.get("/drive/v3/files", async (c) => {
  const caller = await driveCaller(c);
  if (caller instanceof Response) return caller;
  try {
    return c.json(listFiles(c.req.query(), caller.owner, caller.access), 200);
  } catch (err) {
    if (err instanceof DriveParamError) return badParam(c, err);
    throw err;
  }
});

googleEmulator.get("/drive/v3/files/:id", async (c) => {
  const caller = await driveCaller(c);
  if (caller instanceof Response) return caller;
  const id = c.req.param("id");
  const alt = c.req.query("alt") ?? "json";
  if (alt !== "json" && alt !== "media") return badParam(c, new DriveParamError("Invalid Value", "alt"));
  try {
    const selection = alt === "json" ? fileSelection(c.req.query("fields")) : null;
    const file = caller.access === "appOnly" ? undefined : findFile(id);
    if (!file) return fileNotFound(c, id);
    if (!selection) {
      if (caller.access !== "full") return insufficientScope(c);
      return c.body(fileBody(file), 200, {
        "Content-Type": file.mimeType,
        "Content-Length": String(fileSize(file)),
        "Cache-Control": "private, max-age=0",
      });
    }
    return c.json(project(fileResource(file, caller.owner), selection) as Record<string, unknown>, 200);
  } catch (err) {
    if (err instanceof DriveParamError) return badParam(c, err);
    throw err;
  }
});
