// Where a sign-in or connection may return to: only a path of this site. Used by
// the Worker (the Google callback) and by the client (after sign-in).

const PROBE_ORIGIN = "http://docchat.invalid";

/**
 * `value` when it is a path on this site, else `fallback`. Control characters are
 * removed first (browsers drop tabs and newlines, so "/\t/evil.example" would be
 * "//evil.example"), then the path must resolve without changing the origin
 * (which also refuses "//host", "/\\host" and any absolute URL).
 */
export function safeRedirectPath(value: string | null | undefined, fallback: string): string {
  const cleaned = (value ?? "").replace(/[\u0000-\u001f\u007f]/g, "");
  if (!cleaned.startsWith("/")) return fallback;
  let url: URL;
  try {
    url = new URL(cleaned, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  return url.origin === PROBE_ORIGIN ? `${url.pathname}${url.search}${url.hash}` : fallback;
}
