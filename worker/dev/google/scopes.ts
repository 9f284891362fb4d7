// OAuth scopes the emulator knows: their canonical names (Google answers with
// full URLs, and adds `openid` when `email` or `profile` is asked for) and the
// sentences Google's consent screen shows for them.
const G = "https://www.googleapis.com/auth/";

export const SCOPE_OPENID = "openid";
export const SCOPE_EMAIL = `${G}userinfo.email`;
export const SCOPE_PROFILE = `${G}userinfo.profile`;
export const SCOPE_DRIVE = `${G}drive`;
export const SCOPE_DRIVE_READONLY = `${G}drive.readonly`;
export const SCOPE_DRIVE_METADATA_READONLY = `${G}drive.metadata.readonly`;
export const SCOPE_DRIVE_FILE = `${G}drive.file`;

const ALIASES: Record<string, string> = { email: SCOPE_EMAIL, profile: SCOPE_PROFILE };

export const SCOPE_TEXT: Record<string, string> = {
  [SCOPE_OPENID]: "Associate you with your personal info on Google",
  [SCOPE_EMAIL]: "See your primary Google Account email address",
  [SCOPE_PROFILE]: "See your personal info, including any personal info you've made publicly available",
  [SCOPE_DRIVE_READONLY]: "See and download all your Google Drive files",
  [SCOPE_DRIVE]: "See, edit, create, and delete all of your Google Drive files",
  [SCOPE_DRIVE_METADATA_READONLY]: "See information about your Google Drive files",
  [SCOPE_DRIVE_FILE]: "See, edit, create, and delete only the specific Google Drive files you use with this app",
};

/** The granted scope list for a `scope` parameter, or the first unknown scope. */
export function normalizeScopes(raw: string): { scopes: string[] } | { unknown: string } {
  const scopes: string[] = [];
  for (const part of raw.split(/[\s+]+/).filter(Boolean)) {
    const scope = ALIASES[part] ?? part;
    if (!(scope in SCOPE_TEXT)) return { unknown: part };
    if (!scopes.includes(scope)) scopes.push(scope);
  }
  if ((scopes.includes(SCOPE_EMAIL) || scopes.includes(SCOPE_PROFILE)) && !scopes.includes(SCOPE_OPENID)) scopes.push(SCOPE_OPENID);
  return { scopes };
}

export const hasScope = (granted: string, scope: string) => granted.split(" ").includes(scope);
