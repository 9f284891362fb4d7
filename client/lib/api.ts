// The HTTP client: JSON in and out, the bearer header when a token exists, and
// any 401 signs the user out and sends them to the login page (spec section 6).
import { resetAll } from "../state/session";
import { getToken } from "../state/user";

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

type Navigate = (path: string) => void;
let navigate: Navigate = (path) => window.location.assign(path);

/** The router registers its navigate function so a 401 does not reload the page. */
export function setNavigator(fn: Navigate): void {
  navigate = fn;
}

export function forceLogout(): void {
  resetAll();
  navigate("/app/auth/login");
}

export async function api<T>(method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = (await response.json().catch(() => null)) as
    (T & { status?: string; message?: string; error?: string; errors?: Record<string, string> }) | null;

  if (response.status === 401) {
    forceLogout();
    throw new ApiRequestError(data?.message ?? "Unauthorized", 401);
  }
  if (!response.ok) {
    throw new ApiRequestError(data?.message ?? data?.error ?? fallbackMessage(response.status), response.status, data?.errors);
  }
  return data as T;
}
