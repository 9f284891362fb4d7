// Full-page navigations that leave the single-page app (the Google sign-in and
// drive authorization redirects). Kept on an object so tests can replace it.
export const browserNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
