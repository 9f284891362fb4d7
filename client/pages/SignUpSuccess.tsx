// Sign-up / login complete after a third-party sign-in (spec sections 2, 4 and
// 8). The server sends the browser here with ?token=JWT&redirectTo=/path, or
// with ?error=MESSAGE. With a token: confirm it (signinStatus with the bearer
// header), store the session like a password sign-in, take the token out of the
// address bar and go to redirectTo (or /dashboard); any failure goes silently to
// the root and is logged. With an error: the Sign Up Error or Login Error page,
// depending on the stored authInfo. Otherwise a loading indicator.
import { useEffect } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { authInfoType, DEFAULT_SIGNIN_REDIRECT } from "../lib/googleAuth";
import { safeRedirectPath } from "../../worker/contract/redirect";
import { checkGoogleSignin, completeGoogleSignin } from "../state/account";

/** Removes the token from the address bar without touching the router's history state. */
function dropTokenFromAddressBar(): void {
  const url = new URL(window.location.href);
  if (!url.searchParams.has("token")) return;
  url.searchParams.delete("token");
  window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
}

export default function SignUpSuccess() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const error = params.get("error");
  const token = error ? null : params.get("token");
  const redirectTo = params.get("redirectTo");
  const type = authInfoType();

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    dropTokenFromAddressBar();
    (async () => {
      try {
        const info = await checkGoogleSignin(token);
        if (cancelled) return;
        completeGoogleSignin(info, token);
        navigate(safeRedirectPath(redirectTo, DEFAULT_SIGNIN_REDIRECT), { replace: true });
      } catch (err) {
        if (cancelled) return;
        console.error("Google sign-in could not be completed", err);
        navigate("/", { replace: true });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [token, redirectTo, navigate]);

  return (
    <main className="auth-page">
      <div className="auth-card">
        {error ? (
          <>
            <h1>{type === "login" ? "Login Error" : "Sign Up Error"}</h1>
            <p className="form-error" role="alert">
              {error}
            </p>
            <Link className="btn btn-primary btn-block" to={type === "login" ? "/app/auth/login" : "/app/auth/register"}>
              {type === "login" ? "Back to login" : "Back to sign up"}
            </Link>
          </>
        ) : (
          <div className="loading" role="status">
            <span className="spinner" aria-hidden="true" /> Signing you in...
          </div>
        )}
      </div>
    </main>
  );
}
