// Google Drive connection and import (spec sections 2, 4, 7, 8 and 9).
// Connection: false, "loading" (checking, or waiting for the authorization to
// land after a return from Google), true. While "loading" the pages re-check
// every 30 s (chat) or 10 s (My Files) until connected. Import: idle, loading
// ("Indexing selected files..."), success with counts, or error.
import { useEffect } from "react";
import { proxy, useSnapshot } from "valtio";
import type { DriveConnectionResponse, DriveFile, DriveFileList, DriveImportResponse } from "../../worker/contract/documents";
import type { StatusMessage } from "../../worker/contract/messages";
import type { TicketResponse } from "../../worker/contract/protocol";
import { api, ApiRequestError, getToken } from "../lib/api";
import { browserNavigation } from "../lib/navigation";
import { addChatFiles } from "./chatDocuments";
import { userInfo } from "./user";

/** Drive connection re-check intervals (spec section 9). */
export const CHAT_DRIVE_RECHECK_MS = 30_000;
export const FILES_DRIVE_RECHECK_MS = 10_000;
/** How long an unfinished authorization keeps the state "loading" (an abandoned consent screen gives up after this). */
export const AWAIT_CONNECTION_MS = 5 * 60_000;

export const DRIVE_MESSAGES = {
  fileRequired: "File is required.",
  indexing: "Indexing selected files...",
  unavailable: "Google Drive is not available on this server.",
  listFailed: "Could not load your Google Drive files. Please try again.",
  importFailed: "The import failed. Please try again.",
} as const;

export type DriveConnection = false | "loading" | true;

export interface ImportStats {
  indexed: number;
  failed: number;
  pending: number;
}

export type ImportState =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "success"; message: string; stats: ImportStats; failures: { fileId: string; error: string }[] }
  | { status: "error"; error: string };

export interface DriveState {
  connected: DriveConnection;
  /** false once the server answered "unavailable" (Google is not configured). */
  available: boolean;
  /** When an authorization was started or came back and is not confirmed yet. */
  awaitingSince: number | null;
  /** Whose connection this is (the state starts over for another user). */
  owner: string | null;
  import: ImportState;
}

function initialDriveState(owner: string | null = null): DriveState {
  return { connected: false, available: true, awaitingSince: null, owner, import: { status: "idle" } };
}

export const driveState = proxy<DriveState>(initialDriveState());

let inFlight: Promise<DriveConnection> | null = null;
/** Whether a check has answered since the last reset (only the first one shows "loading"). */
let checked = false;

export function resetDrive(owner: string | null = null): void {
  Object.assign(driveState, initialDriveState(owner));
  inFlight = null;
  checked = false;
}

/** The state belongs to the signed-in user: another user starts over. */
export function bindDriveOwner(email: string): void {
  if (driveState.owner !== email) resetDrive(email);
}

function awaiting(): boolean {
  return driveState.awaitingSince !== null && Date.now() - driveState.awaitingSince < AWAIT_CONNECTION_MS;
}

/**
 * GET /api/auth/google/connectionStatus. "connected" -> true; otherwise false,
 * or still "loading" while a just-finished authorization is awaited. The very
 * first check shows "loading" while it runs. Failures are only logged.
 */
export function checkConnection(): Promise<DriveConnection> {
  if (inFlight) return inFlight;
  if (!checked && driveState.connected !== true) driveState.connected = "loading";
  const owner = driveState.owner;
  const request = api<DriveConnectionResponse>("GET", "/api/auth/google/connectionStatus")
    .then((result) => {
      if (driveState.owner !== owner) return driveState.connected;
      checked = true;
      if (result?.status === "connected") {
        driveState.connected = true;
        driveState.available = true;
        driveState.awaitingSince = null;
      } else {
        driveState.available = result?.status !== "unavailable";
        driveState.connected = driveState.available && awaiting() ? "loading" : false;
        if (!driveState.available) driveState.awaitingSince = null;
      }
      return driveState.connected;
    })
    .catch((err: unknown) => {
      console.error("Checking the Google Drive connection failed", err);
      if (driveState.owner === owner && driveState.connected === "loading" && !awaiting()) driveState.connected = false;
      return driveState.connected;
    })
    .finally(() => {
      if (inFlight === request) inFlight = null;
    });
  inFlight = request;
  return request;
}

/** Back from Google without an error: the connection is expected, keep checking until it shows. */
export function awaitConnection(): void {
  driveState.awaitingSince = Date.now();
  if (driveState.connected !== true) driveState.connected = "loading";
}

/** The authorization came back with an error: stop waiting for it. */
export function connectionFailed(): void {
  driveState.awaitingSince = null;
  if (driveState.connected === "loading") driveState.connected = false;
}

/**
 * The browser URL that starts the drive authorization. Its authorization value is a single-use
 * ticket for it (POST /api/auth/google/connectTicket), never the sign-in token: a URL stays in logs.
 */
export function connectUrl(ticket: string): string {
  const redirect = `${window.location.origin}/gdrive-connected`;
  return `/api/auth/google/connect?action=connect&authorization=${encodeURIComponent(ticket)}&redirect_uri=${encodeURIComponent(redirect)}`;
}

/** Leaves for Google's consent screen; it returns to /gdrive-connected. */
export async function startConnect(): Promise<void> {
  if (!getToken()) {
    console.error("Connecting Google Drive needs a signed-in user.");
    return;
  }
  awaitConnection();
  try {
    const { ticket } = await api<TicketResponse>("POST", "/api/auth/google/connectTicket");
    browserNavigation.assign(connectUrl(ticket));
  } catch (err) {
    // a 401 has signed the user out already (api.ts); anything else leaves the button as it was
    console.error("Could not start the Google Drive connection", err);
    connectionFailed();
  }
}

/** DELETE /api/drive/connection. */
export async function disconnectDrive(): Promise<boolean> {
  try {
    await api<StatusMessage>("DELETE", "/api/drive/connection");
    driveState.connected = false;
    driveState.awaitingSince = null;
    return true;
  } catch (err) {
    console.error("Disconnecting Google Drive failed", err);
    return false;
  }
}

/** A 409 from a drive call: the connection is gone (revoked or expired). */
export function noteDriveError(err: unknown): void {
  if (err instanceof ApiRequestError && err.status === 409) {
    driveState.connected = false;
    driveState.awaitingSince = null;
  }
}

/** GET /api/drive/files[?pageToken] (PDFs only). */
export async function listDriveFiles(pageToken?: string): Promise<DriveFileList> {
  const query = pageToken ? `?${new URLSearchParams({ pageToken })}` : "";
  try {
    const result = await api<DriveFileList>("GET", `/api/drive/files${query}`);
    return {
      files: Array.isArray(result?.files) ? result.files : [],
      ...(result?.nextPageToken ? { nextPageToken: result.nextPageToken } : {}),
    };
  } catch (err) {
    noteDriveError(err);
    throw err;
  }
}

/** Indexed / failed / pending counts: result statuses, plus every error as failed. */
export function importStats(response: Pick<DriveImportResponse, "results" | "errors">): ImportStats {
  const results = Array.isArray(response.results) ? response.results : [];
  const errors = Array.isArray(response.errors) ? response.errors : [];
  const count = (...statuses: string[]) => results.filter((r) => statuses.includes(String(r.status).toLowerCase())).length;
  return {
    indexed: count("indexed"),
    failed: count("failed") + errors.length,
    pending: count("pending", "processing", "uploading"),
  };
}

export function formatStats(stats: ImportStats): string {
  return `Indexed: ${stats.indexed}, Failed: ${stats.failed}, Pending: ${stats.pending}`;
}

export function resetImport(): void {
  driveState.import = { status: "idle" };
}

/**
 * POST /api/drive/import. An empty list is refused here with "File is required."
 * (no call). Returns the answer when at least one file was imported, else null;
 * the outcome is kept in driveState.import either way.
 */
export async function importFiles(ids: readonly string[]): Promise<DriveImportResponse | null> {
  const fileIds = [...new Set(ids.filter(Boolean))];
  if (fileIds.length === 0) {
    driveState.import = { status: "error", error: DRIVE_MESSAGES.fileRequired };
    return null;
  }
  driveState.import = { status: "loading" };
  try {
    const response = await api<DriveImportResponse>("POST", "/api/drive/import", { file_ids: fileIds });
    const results = Array.isArray(response?.results) ? response.results : [];
    if (response?.status === "error" || results.length === 0) {
      const firstError = response?.errors?.[0]?.error;
      const message = response?.message || DRIVE_MESSAGES.importFailed;
      driveState.import = { status: "error", error: firstError ? `${message} ${firstError}` : message };
      return null;
    }
    const failures = (Array.isArray(response.errors) ? response.errors : []).map((e) => ({ fileId: e.file_id, error: e.error }));
    driveState.import = { status: "success", message: response.message, stats: importStats(response), failures };
    return response;
  } catch (err) {
    console.error("Importing from Google Drive failed", err);
    noteDriveError(err);
    driveState.import = { status: "error", error: err instanceof Error && err.message ? err.message : DRIVE_MESSAGES.importFailed };
    return null;
  }
}

/** Chat: imports one drive file and adds it to the chat's documents. */
export async function attachDriveFile(file: DriveFile): Promise<boolean> {
  const response = await importFiles([file.id]);
  const first = response?.results[0];
  if (!first?.fileId) {
    if (response) driveState.import = { status: "error", error: response.message || DRIVE_MESSAGES.importFailed };
    return false;
  }
  addChatFiles([first.fileId]);
  return true;
}

/**
 * Keeps the connection state for the signed-in user: checks on mount (and for
 * a new user), then every `intervalMs` while "loading", until connected or unmounted.
 */
export function useDriveConnection(intervalMs: number) {
  const { user } = useSnapshot(userInfo);
  const email = user?.email ?? null;
  const snap = useSnapshot(driveState);
  const loading = snap.connected === "loading";

  useEffect(() => {
    if (!email) return;
    bindDriveOwner(email);
    void checkConnection();
  }, [email]);

  useEffect(() => {
    if (!email || !loading) return;
    const timer = setInterval(() => void checkConnection(), intervalMs);
    return () => clearInterval(timer);
  }, [email, loading, intervalMs]);

  return snap;
}
