// The product's public origin, for links in e-mails, redirects and signed links:
// APP_URL when it is set (behind a proxy or a custom domain), else the origin the
// request came to.
export function appOrigin(env: { APP_URL?: string }, requestUrl: string): string {
  return env.APP_URL || new URL(requestUrl).origin;
}
