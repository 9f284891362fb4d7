// Full-page navigations that leave the single-page app (the Google sign-in and
// drive authorization redirects). Kept on an object so tests can replace it.
export const browserNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

/** A same-site path to go to after a redirect: starts with "/", not "//" and has no backslash. */
export function safeRedirectPath(value: string | null | undefined, fallback: string): string {
  return value && value.startsWith("/") && !value.startsWith("//") && !value.includes("\\") ? value : fallback;
}
