// The fence around the development tools of worker/dev (the mailbox, the test
// checkout, the Google emulator). `__DEV_TOOLS__` is fixed at build time
// (vite.config.ts, test/vitest.config.ts): false in a production build
// (CLOUDFLARE_ENV=production), so the bundler drops the import below and no
// development code ships; a test builds for production and checks.
declare const __DEV_TOOLS__: boolean;

/** Development tools answer only in a development build running with ENVIRONMENT=development. */
export function isDevelopment(env: { ENVIRONMENT?: string }): boolean {
  return __DEV_TOOLS__ && env.ENVIRONMENT === "development";
}

/** The development router, loaded on first use; null in a production build. */
export const loadDevTools = __DEV_TOOLS__ ? () => import("./dev") : null;
