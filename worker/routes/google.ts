// /api/auth/google (sign-in and drive connection) and /api/drive (list, import,
// disconnect). The callback answers JSON to fetch calls and redirects a browser
// navigation to the page that shows the outcome.
import { Hono, type Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import { MESSAGES } from "../contract/messages";
import type { AppEnv } from "../env";
import { ApiError, unauthorized } from "../errors";
import { bearerToken, requireUser } from "../middleware/auth";
import { valid } from "../middleware/validate";
import { googleConfig, type GoogleConfig } from "../providers/google";
import { authenticate, getUserInfo, sessionUser } from "../services/accounts";
import { DRIVE_CONNECT, mintTicket, readTicket } from "../lib/tickets";
import { isUniqueViolation } from "../db/unique";
import type { TicketResponse } from "../contract/protocol";
import { disconnectDrive, driveAccessToken, importDriveFiles, listDrivePdfs, MAX_IMPORT_FILES } from "../services/drive";
import {
  DEFAULT_CONNECT_REDIRECT,
  DEFAULT_SIGNIN_REDIRECT,
  GOOGLE_MESSAGES,
  STATE_TTL_MS,
  completeAuthorization,
  oauthCookieName,
  startAuthorization,
  stateNonce,
} from "../services/google-auth";
import { safeRedirectPath } from "../contract/redirect";
import { appOrigin } from "../lib/origin";
import type { DriveConnectionResponse, DriveImportResponse } from "../contract/documents";
import type { StatusMessage } from "../contract/messages";

const origin = (c: Context<AppEnv>) => appOrigin(c.env, c.req.url);

function requireGoogle(c: Context<AppEnv>): GoogleConfig {
  const config = googleConfig(c.env, origin(c));
  if (!config) throw new ApiError(503, GOOGLE_MESSAGES.notConfigured);
  return config;
}

const wantsJson = (c: Context<AppEnv>) => (c.req.header("Accept") ?? "").includes("application/json");

export const googleAuthRoutes = new Hono<AppEnv>()
  // the ticket the Drive connection's browser link carries in place of the sign-in token
  .post("/connectTicket", requireUser, async (c) => {
    const { id: userId, sessionId: authSessionId } = c.var.user;
    const ticket = await mintTicket(c.env.JWT_SECRET, { userId, authSessionId, sessionId: DRIVE_CONNECT });
    return c.json({ ticket } satisfies TicketResponse, 200);
  })
  .get(
    "/connect",
    valid(
      "query",
      z.object({
        action: z.enum(["signin", "connect"]).catch("signin"),
        authorization: z.string().optional(),
        redirect_uri: z.string().optional(),
      }),
    ),
    async (c) => {
      const { action, authorization, redirect_uri } = c.req.valid("query");
      const config = requireGoogle(c);
      let userId: string | undefined;
      let nonce: string | undefined;
      if (action === "connect") {
        // the browser navigates here: the spec's authorization value is a single-use ticket
        // (POST /connectTicket), never the sign-in token, which would stay in request logs
        const ticket = authorization ? await readTicket(c.env.JWT_SECRET, authorization) : null;
        const user = ticket?.sessionId === DRIVE_CONNECT ? await sessionUser({ db: c.var.db }, ticket) : null;
        if (!ticket || !user) throw unauthorized();
        userId = user.id;
        nonce = ticket.nonce; // the OAuth state takes the ticket's nonce: a second use of the ticket finds it taken
      }
      const redirectPath = safeRedirectPath(
        redirect_uri && redirect_uri.startsWith(`${origin(c)}/`) ? redirect_uri.slice(origin(c).length) : redirect_uri,
        action === "connect" ? DEFAULT_CONNECT_REDIRECT : DEFAULT_SIGNIN_REDIRECT,
      );
      const started = await startAuthorization(
        { db: c.var.db, env: c.env, config },
        { origin: origin(c), action, userId, redirectPath, nonce },
      ).catch((err: unknown) => {
        if (nonce && isUniqueViolation(err)) throw unauthorized();
        throw err;
      });
      const { url } = started;
      setCookie(c, oauthCookieName(started.nonce), "1", {
        path: "/api/auth/google",
        httpOnly: true,
        sameSite: "Lax", // sent on Google's top-level redirect back to the callback
        secure: origin(c).startsWith("https:"),
        maxAge: STATE_TTL_MS / 1000,
      });
      return c.redirect(url, 302);
    },
  )
  .get("/callback", async (c) => {
    const query = c.req.query();
    const action = query.state?.split(".")[0] === "connect" ? "connect" : "signin";
    try {
      // only the browser that started this authorization may finish it
      const nonce = stateNonce(query.state);
      if (!nonce || getCookie(c, oauthCookieName(nonce)) !== "1") throw new ApiError(400, GOOGLE_MESSAGES.badState);
      const result = await completeAuthorization({ db: c.var.db, env: c.env, config: requireGoogle(c) }, { origin: origin(c), ...query });
      deleteCookie(c, oauthCookieName(nonce), { path: "/api/auth/google" });
      if (result.action === "connect") {
        return wantsJson(c)
          ? c.json({ status: "success", message: "Google Drive connected.", redirectTo: result.redirectTo }, 200)
          : c.redirect(result.redirectTo, 302);
      }
      const body = {
        status: "success" as const,
        message: "Signed in with Google.",
        token: result.token,
        email: result.user.email,
        name: result.user.name,
        picture: result.user.picture,
        redirectTo: result.redirectTo,
      };
      if (wantsJson(c)) return c.json(body, 200);
      const to = new URL("/sign-up-success", origin(c));
      to.searchParams.set("token", result.token);
      to.searchParams.set("redirectTo", result.redirectTo);
      return c.redirect(to.toString(), 302);
    } catch (err) {
      const message = err instanceof ApiError ? err.message : GOOGLE_MESSAGES.failed;
      if (!(err instanceof ApiError)) console.error("google callback failed", err);
      if (wantsJson(c)) return c.json({ status: "error" as const, message }, err instanceof ApiError ? err.status : 502);
      const to = new URL(action === "connect" ? DEFAULT_CONNECT_REDIRECT : "/sign-up-success", origin(c));
      to.searchParams.set("error", message);
      return c.redirect(to.toString(), 302);
    }
  })
  .get("/signinStatus", async (c) => {
    const token = bearerToken(c.req.header("Authorization")) ?? c.req.query("token") ?? null;
    const user = token ? await authenticate({ db: c.var.db, jwtSecret: c.env.JWT_SECRET }, { token }) : null;
    if (!user) return c.json({ status: "error" as const, user_info: null, error: MESSAGES.unauthorized }, 401);
    const info = await getUserInfo({ db: c.var.db }, { userId: user.id });
    return c.json(
      { status: "success" as const, user_info: { email: info.email, name: info.name, picture: info.picture }, error: null },
      200,
    );
  })
  .get("/connectionStatus", requireUser, async (c) => {
    const config = googleConfig(c.env, origin(c));
    if (!config) return c.json({ status: "unavailable" as const, message: GOOGLE_MESSAGES.notConfigured }, 200);
    const token = await driveAccessToken({ db: c.var.db, env: c.env, config }, { userId: c.var.user.id });
    return c.json({ status: token ? ("connected" as const) : ("not_connected" as const) } satisfies DriveConnectionResponse, 200);
  });

export const driveRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/files", valid("query", z.object({ pageToken: z.string().max(500).optional() })), async (c) => {
    const deps = { db: c.var.db, env: c.env, config: requireGoogle(c) };
    return c.json(await listDrivePdfs(deps, { userId: c.var.user.id, pageToken: c.req.valid("query").pageToken }), 200);
  })
  .post(
    "/import",
    valid(
      "json",
      z.object({
        file_ids: z
          .array(z.string().min(1).max(200), { error: GOOGLE_MESSAGES.fileRequired })
          .min(1, GOOGLE_MESSAGES.fileRequired)
          .max(MAX_IMPORT_FILES, `Import at most ${MAX_IMPORT_FILES} files at a time.`),
      }),
    ),
    async (c) => {
      const deps = { db: c.var.db, env: c.env, config: requireGoogle(c), bucket: c.env.DOCUMENTS, queue: c.env.INGEST_QUEUE };
      const { results, errors } = await importDriveFiles(deps, { userId: c.var.user.id, fileIds: c.req.valid("json").file_ids });
      const status = errors.length === 0 ? "success" : results.length === 0 ? "error" : "partial";
      const message =
        results.length === 0
          ? "No files were imported."
          : `${results.length} ${results.length === 1 ? "file" : "files"} imported${errors.length ? `, ${errors.length} failed` : ""}.`;
      return c.json({ status, message, results, errors } satisfies DriveImportResponse, 200);
    },
  )
  .delete("/connection", async (c) => {
    await disconnectDrive({ db: c.var.db, env: c.env, config: requireGoogle(c) }, { userId: c.var.user.id });
    return c.json({ status: "success" as const, message: "Google Drive disconnected." } satisfies StatusMessage, 200);
  });
