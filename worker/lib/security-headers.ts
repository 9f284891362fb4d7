// The security headers every response carries: the Worker's (middleware), the
// static assets' (client/public/_headers, checked against this list by a test)
// and the development server's HTML shell and modules (vite.config.ts).

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // 'wasm-unsafe-eval': text recognition compiles its WebAssembly core (no JavaScript eval)
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self' ws: wss:",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
};

/**
 * The policy for an HTML page with inline scripts of its own (the development
 * server's React refresh preamble): each is allowed by its SHA-256, nothing else.
 */
export function policyAllowingScripts(sha256Base64: readonly string[]): string {
  if (sha256Base64.length === 0) return CONTENT_SECURITY_POLICY;
  const allowed = sha256Base64.map((h) => `'sha256-${h}'`).join(" ");
  return CONTENT_SECURITY_POLICY.replace("script-src 'self'", `script-src 'self' ${allowed}`);
}
