// Abuse limits through the Workers `ratelimits` bindings. Keys are namespaced so
// one binding can count per IP and per e-mail separately.
import { MESSAGES } from "../contract/messages";
import { ApiError } from "../errors";

export function clientIp(req: Request): string {
  return req.headers.get("CF-Connecting-IP") ?? req.headers.get("X-Forwarded-For")?.split(",")[0]?.trim() ?? "unknown";
}

/** Throws a 429 with a clear message as soon as any of the keys is over its limit. */
export async function enforceRateLimit(limiter: RateLimit, keys: string[], message: string = MESSAGES.tooManyAttempts): Promise<void> {
  for (const key of keys) {
    const { success } = await limiter.limit({ key });
    if (!success) throw new ApiError(429, message);
  }
}
