// Integration-test helpers: requests go through the real Worker entry point.
import { exports } from "cloudflare:workers";

let ipCounter = 0;
/** Test files run side by side against one set of rate limiters: each file numbers its IPs in its own random 10.x range. */
let ipRange: number | undefined;

/** Each call gets its own client IP unless one is given, so per-IP limits do not leak between tests. */
export async function call(
  method: string,
  path: string,
  options: { body?: unknown; token?: string; ip?: string; rawBody?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = {
    "CF-Connecting-IP":
      options.ip ?? `10.${(ipRange ??= Math.floor(Math.random() * 256))}.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`,
    ...options.headers,
  };
  if (options.body !== undefined || options.rawBody !== undefined) headers["Content-Type"] = "application/json";
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const response = await exports.default.fetch(`http://localhost${path}`, {
    method,
    headers,
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, headers: response.headers, json };
}

let userCounter = 0;

export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${Date.now()}-${++userCounter}@example.com`;
}

export const GOOD_PASSWORD = "Secret123";

/**
 * Local rate limits count per wall-clock minute (miniflare aligns each 60 s window to the
 * clock), so a test that counts up to a limit starts with at least 20 s of its window left:
 * a window turning over mid-count would reset the count and the refusal would never come.
 */
export async function freshRateWindow(periodMs = 60_000, needMs = 20_000): Promise<void> {
  const left = periodMs - (Date.now() % periodMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

/** Signs up a fresh user and returns its e-mail and token. */
export async function newUser(prefix = "user") {
  const email = uniqueEmail(prefix);
  const res = await call("POST", "/api/auth/signup", { body: { email, password: GOOD_PASSWORD } });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.json)}`);
  return { email, token: res.json.token as string, user: res.json.user };
}
