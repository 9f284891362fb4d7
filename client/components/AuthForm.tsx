// The two-step e-mail/password form shared by Login and Register (spec sections
// 2, 4 and 5): the password field appears once the e-mail is valid.
import { useState, type FormEvent } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router-dom";
import { emailSchema, signinSchema, signupSchema } from "../../worker/contract/validation";
import { ApiRequestError } from "../lib/api";
import { GOOGLE_SIGNIN_URL, rememberAuthFlow, startGoogleSignin } from "../lib/googleAuth";
import { signIn, signUp } from "../state/account";
import { Field } from "./Field";

type Mode = "login" | "register";

const COPY = {
  login: { heading: "Welcome back", switchText: "Don't have an account?", switchLink: "Sign Up", switchTo: "/app/auth/register" },
  register: { heading: "Create an account", switchText: "Already have an account?", switchLink: "Login", switchTo: "/app/auth/login" },
} as const;

export function AuthForm({ mode }: { mode: Mode }) {
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const [step, setStep] = useState<"showEmail" | "showPassword">("showEmail");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [rememberMe, setRememberMe] = useState(false);
  const [errors, setErrors] = useState<{ email?: string; password?: string; form?: string }>({});
  const [submitting, setSubmitting] = useState(false);
  const copy = COPY[mode];

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const emailCheck = emailSchema.safeParse(email);
    if (!emailCheck.success) {
      setErrors({ email: emailCheck.error.issues[0]?.message });
      setStep("showEmail");
      return;
    }
    if (step === "showEmail") {
      setErrors({});
      setStep("showPassword");
      return;
    }
    const passwordSchema = mode === "login" ? signinSchema.shape.password : signupSchema.shape.password;
    const passwordCheck = passwordSchema.safeParse(password);
    if (!passwordCheck.success) {
      setErrors({ password: passwordCheck.error.issues[0]?.message });
      return;
    }

    setErrors({});
    setSubmitting(true);
    try {
      if (mode === "login") await signIn({ email: emailCheck.data, password, rememberMe });
      else await signUp({ email: emailCheck.data, password, referralCode: params.get("ref") ?? undefined });
      // back to where a sign-in was asked for (e.g. a shared chat link), else home
      const from = (location.state as { from?: unknown } | null)?.from;
      navigate(typeof from === "string" && from.startsWith("/") && !from.startsWith("//") ? from : "/");
    } catch (err) {
      setErrors({ form: err instanceof ApiRequestError ? err.message : "Network error. Please try again." });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <main className="auth-page">
      <div className="auth-card">
        <Link to="/" className="auth-logo" aria-label="DocChat home">
          DocChat
        </Link>
        <h1>{copy.heading}</h1>
        <form noValidate onSubmit={onSubmit} aria-busy={submitting}>
          <Field
            label="Email address"
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={errors.email}
            autoFocus
          />
          {step === "showPassword" && (
            <>
              <Field
                label="Password"
                type="password"
                name="password"
                autoComplete={mode === "login" ? "current-password" : "new-password"}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                error={errors.password}
                autoFocus
              />
              {mode === "login" && (
                <label className="checkbox">
                  <input type="checkbox" checked={rememberMe} onChange={(e) => setRememberMe(e.target.checked)} />
                  <span>Remember me</span>
                </label>
              )}
            </>
          )}
          {errors.form && (
            <p className="form-error" role="alert">
              {errors.form}
            </p>
          )}
          <button type="submit" className="btn btn-primary btn-block" disabled={submitting}>
            Continue
          </button>
        </form>
        <p className="auth-switch">
          {copy.switchText} <Link to={copy.switchTo}>{copy.switchLink}</Link>
        </p>
        <div className="divider">
          <span>OR</span>
        </div>
        <a
          className="btn btn-outline btn-block"
          href={GOOGLE_SIGNIN_URL}
          onClick={(event) => {
            // authInfo tells the result page whether this was a login or a sign-up.
            if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
              rememberAuthFlow(mode); // opening in a new tab or window: the browser follows the link
              return;
            }
            event.preventDefault();
            startGoogleSignin(mode);
          }}
        >
          Continue with Google
        </a>
        <nav className="auth-footer" aria-label="Legal">
          <Link to="/app/contact-us">Contact Us</Link>
          <Link to="/app/privacy-policy">Privacy Policy</Link>
          {mode === "login" && <Link to="/app/terms-of-use">Terms of Use</Link>}
        </nav>
      </div>
    </main>
  );
}
