// The OAuth scopes the product asks for: their canonical names (Google answers
// with full URLs for `email` and `profile`) and the sentences Google's consent
// screen shows for them.
const G = "https://www.googleapis.com/auth/";

export const SCOPE_DRIVE_READONLY = `${G}drive.readonly`;

const ALIASES: Record<string, string> = { email: `${G}userinfo.email`, profile: `${G}userinfo.profile` };

export const SCOPE_TEXT: Record<string, string> = {
  openid: "Associate you with your personal info on Google",
  [`${G}userinfo.email`]: "See your primary Google Account email address",
  [`${G}userinfo.profile`]: "See your personal info, including any personal info you've made publicly available",
  [SCOPE_DRIVE_READONLY]: "See and download all your Google Drive files",
};

/** The granted scope list for a `scope` parameter, or the first unknown scope. */
export function normalizeScopes(raw: string): { scopes: string[] } | { unknown: string } {
  const scopes: string[] = [];
  for (const part of raw.split(/\s+/).filter(Boolean)) {
    const scope = ALIASES[part] ?? part;
    if (!(scope in SCOPE_TEXT)) return { unknown: part };
    if (!scopes.includes(scope)) scopes.push(scope);
  }
  return { scopes };
}

export const hasScope = (granted: string, scope: string) => granted.split(" ").includes(scope);
