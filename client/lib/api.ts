// The HTTP client: JSON in and out, the bearer header when a token exists, and
// any 401 signs the user out and sends them to the login page (spec section 6).
// What signing out clears is state: state/user.ts registers it (setSessionEnd),
// so nothing here imports state.
import type { ErrorResponse } from "../../worker/contract/messages";
import { STORAGE_KEYS } from "./constants";

export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiRequestError";
  }
}

const fallbackMessage = (status: number) => `Request failed (${status})`;

/** The message the server sent with a failed request, or null (network failure, no message in the body). */
export function serverMessage(err: unknown): string | null {
  if (!(err instanceof ApiRequestError) || !err.message) return null;
  return err.message === fallbackMessage(err.status) ? null : err.message;
}

/** The bearer token kept since sign-in (localStorage `token`), or null when signed out. */
export function getToken(): string | null {
  return localStorage.getItem(STORAGE_KEYS.token);
}

type Navigate = (path: string) => void;
let navigate: Navigate = (path) => window.location.assign(path);

/** The router registers its navigate function so a 401 does not reload the page. */
export function setNavigator(fn: Navigate): void {
  navigate = fn;
}

export interface SessionEnd {
  /** Clears the token and every piece of state. */
  clear(): void;
  /** Tells the user why they were logged out (the Error modal). */
  explain(reason: string): void;
}

let sessionEnd: SessionEnd = { clear: () => {}, explain: () => {} };

/** The state registers how a session ends, the way the router registers navigation. */
export function setSessionEnd(end: SessionEnd): void {
  sessionEnd = end;
}

/** True while the user's own sign-out is under way: the server closing this session's sockets then is no forced logout. */
let signingOut = false;

/** Runs the user's own sign-out call: what it revokes (the chat sockets' 401) does not show "Your session has expired". */
export async function duringSignOut<T>(signOutCall: () => Promise<T>): Promise<T> {
  signingOut = true;
  try {
    return await signOutCall();
  } finally {
    signingOut = false;
  }
}

/** A forced logout (a 401, a refused chat connection, the Error modal's Ok): clear, go to login, say why when known. */
export function forceLogout(reason?: string): void {
  if (signingOut) return;
  sessionEnd.clear();
  navigate("/app/auth/login");
  if (reason) sessionEnd.explain(reason);
}

// `error` covers the few bodies that name their failure that way (the Google sign-in status).
type Reply<T> = { response: Response; data: (T & Partial<ErrorResponse> & { error?: string }) | null };

async function exchange<T>(path: string, init: RequestInit): Promise<Reply<T>> {
  const response = await fetch(path, init);
  return { response, data: await response.json().catch(() => null) };
}

/**
 * A read the connection drops (a network error, or a 5xx that is not the product's own JSON answer: a
 * proxy's page, or the local runtime resetting a request while it warms up) is sent once more. Reading
 * twice changes nothing; writes are never repeated here.
 */
async function readTwiceIfDropped<T>(path: string, init: RequestInit): Promise<Reply<T>> {
  const first = await exchange<T>(path, init).catch(() => null);
  const dropped = first === null || (first.response.status >= 500 && first.data === null);
  return dropped ? exchange<T>(path, init) : first;
}

export async function api<T>(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  const init: RequestInit = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  const { response, data } = method === "GET" ? await readTwiceIfDropped<T>(path, init) : await exchange<T>(path, init);

  if (response.status === 401) {
    forceLogout();
    throw new ApiRequestError(data?.message ?? "Unauthorized", 401);
  }
  if (!response.ok) {
    throw new ApiRequestError(data?.message ?? data?.error ?? fallbackMessage(response.status), response.status, data?.errors);
  }
  return data as T;
}

/** The file name a download's `Content-Disposition` gives: `filename*=UTF-8''…` first, else `filename="…"`. */
export function attachmentName(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // a malformed escape: the plain name below
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(header)?.[1] ?? /filename\s*=\s*([^;]+)/i.exec(header)?.[1]?.trim() ?? null;
}

/** A GET whose answer is a file (a chat export): its bytes and the name the server gave it; failures as `api` reports them. */
export async function apiDownload(path: string): Promise<{ blob: Blob; fileName: string | null }> {
  const token = getToken();
  const response = await fetch(path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!response.ok) {
    const data = (await response.json().catch(() => null)) as Partial<ErrorResponse> | null;
    if (response.status === 401) forceLogout();
    throw new ApiRequestError(data?.message ?? fallbackMessage(response.status), response.status);
  }
  return { blob: await response.blob(), fileName: attachmentName(response.headers.get("Content-Disposition")) };
}

/** Saves a file the browser holds: a blob URL clicked as an `<a download>`, then released. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // the click has started the download; a later release lets slow browsers read it first
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
