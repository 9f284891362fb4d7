// Sign-up / login complete after a third-party sign-in: shows the provider
// flow's error, or a loading indicator while there is none.
import { Link, useSearchParams } from "react-router-dom";
import { STORAGE_KEYS } from "../lib/constants";

function authInfoType(): "login" | "signup" {
  try {
    const info = JSON.parse(localStorage.getItem(STORAGE_KEYS.authInfo) ?? "{}") as { type?: string };
    return info.type === "login" ? "login" : "signup";
  } catch {
    return "signup";
  }
}

export default function SignUpSuccess() {
  const [params] = useSearchParams();
  const error = params.get("error");
  const type = authInfoType();

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
