// The emulator's HTML: the consent page (a plain form, no script, so it works
// under the app's CSP) and Google's "Error 400" page for bad authorization
// requests. Every value from the request is HTML-escaped.
import { SCOPE_TEXT } from "./scopes";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `
  :root { color-scheme: light; font-family: Roboto, "Segoe UI", Arial, sans-serif; color: #1f1f1f; }
  body { margin: 0; background: #f0f4f9; }
  main { max-width: 30rem; margin: 2rem auto; background: #fff; border-radius: 1.75rem; padding: 2rem 2.25rem; }
  .badge { display: inline-block; margin: 0 0 1rem; padding: .25rem .75rem; border-radius: 1rem; background: #fef7e0; color: #5c4300; font-size: .85rem; }
  h1 { font-size: 1.75rem; font-weight: 400; margin: 0 0 .5rem; }
  h2 { font-size: 1rem; font-weight: 500; margin: 1.5rem 0 .5rem; }
  p { line-height: 1.5; }
  .field { display: flex; flex-direction: column; gap: .25rem; margin: .75rem 0; }
  .field label { font-weight: 500; }
  input[type=text], input[type=email] { font: inherit; padding: .6rem .75rem; border: 1px solid #747775; border-radius: .25rem; }
  input:focus-visible, button:focus-visible { outline: 3px solid #0b57d0; outline-offset: 2px; }
  .error { color: #b3261e; font-weight: 500; }
  input[aria-invalid=true] { border-color: #b3261e; }
  ul.scopes { padding-left: 1.25rem; line-height: 1.6; }
  .actions { display: flex; gap: .75rem; justify-content: flex-end; margin-top: 1.5rem; }
  button { font: inherit; font-weight: 500; padding: .6rem 1.5rem; border-radius: 1.25rem; border: 1px solid #747775; background: #fff; color: #0b57d0; cursor: pointer; }
  button.primary { background: #0b57d0; border-color: #0b57d0; color: #fff; }
  .small { font-size: .85rem; color: #444746; }
  code { word-break: break-all; }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="badge">Google emulator for local development: no real Google account is used.</p>
${body}
</main>
</body>
</html>`;
}

/** The parameters of the authorization request, carried through the form as hidden fields. */
export interface AuthRequest {
  client_id: string;
  redirect_uri: string;
  response_type: string;
  scope: string;
  state?: string;
  code_challenge: string;
  code_challenge_method: string;
  access_type?: string;
}

export const AUTH_REQUEST_KEYS = [
  "client_id",
  "redirect_uri",
  "response_type",
  "scope",
  "state",
  "code_challenge",
  "code_challenge_method",
  "access_type",
] as const satisfies readonly (keyof AuthRequest)[];

export interface ConsentView {
  action: string;
  request: AuthRequest;
  scopes: string[];
  name: string;
  email: string;
  error?: string;
}

export function consentPage(view: ConsentView): string {
  const { request } = view;
  const appHost = new URL(request.redirect_uri).host; // validated before
  const hidden = AUTH_REQUEST_KEYS.filter((key) => request[key] !== undefined)
    .map((key) => `<input type="hidden" name="${key}" value="${escapeHtml(request[key] ?? "")}">`)
    .join("\n");
  const errorAttrs = view.error ? ` aria-invalid="true" aria-describedby="email-error"` : "";
  const scopes = view.scopes.map((s) => `<li>${escapeHtml(SCOPE_TEXT[s] ?? s)}</li>`).join("\n");

  return page(
    "Sign in - Google Accounts",
    `<h1>Sign in with Google</h1>
<p>to continue to <strong>${escapeHtml(appHost)}</strong></p>
${view.error ? `<p id="email-error" class="error" role="alert">${escapeHtml(view.error)}</p>` : ""}
<form method="post" action="${escapeHtml(view.action)}">
${hidden}
<div class="field"><label for="name">Name</label><input type="text" id="name" name="name" autocomplete="name" maxlength="100" value="${escapeHtml(view.name)}"></div>
<div class="field"><label for="email">Email</label><input type="email" id="email" name="email" autocomplete="email" maxlength="254" value="${escapeHtml(view.email)}"${errorAttrs}></div>
<h2 id="scopes-heading">This will allow ${escapeHtml(appHost)} to:</h2>
<ul class="scopes" aria-labelledby="scopes-heading">
${scopes}
</ul>
<p class="small">Client ID: <code>${escapeHtml(request.client_id)}</code></p>
<div class="actions">
<button type="submit" class="primary" name="action" value="allow">Allow</button>
<button type="submit" name="action" value="deny" formnovalidate>Deny</button>
</div>
</form>`,
  );
}

/** Google's page for a malformed authorization request: shown, never redirected. */
export function errorPage(error: string, description: string): string {
  return page(
    "Error 400 - Google Accounts",
    `<h1>Access blocked: this app's request is invalid</h1>
<p><strong>Error 400: ${escapeHtml(error)}</strong></p>
<p>${escapeHtml(description)}</p>
<p class="small">The app that sent you here made a malformed sign-in request. Nothing was shared with it.</p>`,
  );
}
