// Contact Us (spec sections 2, 4, 5, 8 and 9): e-mail, an optional 10-digit
// mobile number with a country code (+1 by default), a category (general by
// default) and a message. States: idle, submitting ("Submitting..."), success
// (green, form cleared, defaults back) or error (red, form kept). Failed
// validation stops the submission. Works signed out too. The ways to reach
// support stay below.
import { useId, useState, type FormEvent } from "react";
import { CONTACT_MESSAGES, COUNTRY_CODES, type ContactCategory, type ContactRequest } from "../../worker/contract/mail";
import { contactSchema } from "../../worker/contract/mail-schemas";
import { Field } from "../components/Field";
import { serverMessage } from "../lib/api";
import { sendContactMessage } from "../state/contact";
import "./contact.css";

export const DEFAULT_COUNTRY_CODE = "+1";
export const DEFAULT_CATEGORY: ContactCategory = "general";

export const CATEGORY_LABELS: Record<ContactCategory, string> = {
  general: "General",
  technical: "Technical support",
  billing: "Billing",
  feature: "Feature request",
};

type FieldName = "email" | "mobile" | "category" | "message";
type Errors = Partial<Record<FieldName, string>>;
type Status = { kind: "success" | "error"; text: string } | null;

function ContactForm() {
  const [email, setEmail] = useState("");
  const [countryCode, setCountryCode] = useState(DEFAULT_COUNTRY_CODE);
  const [mobile, setMobile] = useState("");
  const [category, setCategory] = useState<ContactCategory>(DEFAULT_CATEGORY);
  const [message, setMessage] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [status, setStatus] = useState<Status>(null);
  const [submitting, setSubmitting] = useState(false);
  const ids = useId();
  const mobileId = `${ids}-mobile`;
  const categoryId = `${ids}-category`;
  const messageId = `${ids}-message`;

  function clearError(field: FieldName) {
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    setStatus(null);

    const digits = mobile.trim();
    const check = contactSchema.safeParse({
      email,
      mobile: digits ? `${countryCode}-${digits}` : undefined,
      category,
      message,
    });
    if (!check.success) {
      const next: Errors = {};
      for (const issue of check.error.issues) {
        const field = issue.path[0] as FieldName | undefined;
        if (field && !next[field]) next[field] = issue.message;
      }
      // Each failing field shows its first message in red under it.
      setErrors(next);
      return;
    }
    setErrors({});

    const payload: ContactRequest = { email: check.data.email, category: check.data.category, message: check.data.message };
    if (check.data.mobile) payload.mobile = check.data.mobile;

    setSubmitting(true);
    try {
      const result = await sendContactMessage(payload);
      if (result?.status && result.status !== "success") {
        setStatus({ kind: "error", text: result.message || CONTACT_MESSAGES.failure });
        return;
      }
      setStatus({ kind: "success", text: CONTACT_MESSAGES.success });
      setEmail("");
      setMobile("");
      setCountryCode(DEFAULT_COUNTRY_CODE);
      setCategory(DEFAULT_CATEGORY);
      setMessage("");
    } catch (err) {
      setStatus({ kind: "error", text: serverMessage(err) ?? CONTACT_MESSAGES.failure });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <form className="contact-form" noValidate onSubmit={onSubmit} aria-busy={submitting || undefined}>
      <Field
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => {
          setEmail(e.target.value);
          clearError("email");
        }}
        error={errors.email}
        disabled={submitting}
      />

      <div className="field">
        <label htmlFor={mobileId}>
          Mobile number <span className="contact-optional">(optional)</span>
        </label>
        <div className="contact-mobile">
          <select aria-label="Country code" value={countryCode} onChange={(e) => setCountryCode(e.target.value)} disabled={submitting}>
            {COUNTRY_CODES.map((c) => (
              <option key={c.code} value={c.code} title={c.label}>
                {c.label}
              </option>
            ))}
          </select>
          <input
            id={mobileId}
            type="tel"
            name="mobile"
            inputMode="numeric"
            autoComplete="tel-national"
            placeholder="10 digits"
            value={mobile}
            onChange={(e) => {
              setMobile(e.target.value);
              clearError("mobile");
            }}
            aria-invalid={Boolean(errors.mobile)}
            aria-describedby={errors.mobile ? `${mobileId}-error` : undefined}
            disabled={submitting}
          />
        </div>
        {errors.mobile && (
          <span id={`${mobileId}-error`} className="field-error">
            {errors.mobile}
          </span>
        )}
      </div>

      <div className="field">
        <label htmlFor={categoryId}>Category</label>
        <select
          id={categoryId}
          name="category"
          required
          value={category}
          onChange={(e) => {
            setCategory(e.target.value as ContactCategory);
            clearError("category");
          }}
          aria-invalid={Boolean(errors.category)}
          disabled={submitting}
        >
          {(Object.keys(CATEGORY_LABELS) as ContactCategory[]).map((c) => (
            <option key={c} value={c}>
              {CATEGORY_LABELS[c]}
            </option>
          ))}
        </select>
        {errors.category && <span className="field-error">{errors.category}</span>}
      </div>

      <div className="field">
        <label htmlFor={messageId}>Message</label>
        <textarea
          id={messageId}
          name="message"
          rows={6}
          required
          value={message}
          onChange={(e) => {
            setMessage(e.target.value);
            clearError("message");
          }}
          aria-invalid={Boolean(errors.message)}
          aria-describedby={errors.message ? `${messageId}-error` : undefined}
          disabled={submitting}
        />
        {errors.message && (
          <span id={`${messageId}-error`} className="field-error">
            {errors.message}
          </span>
        )}
      </div>

      {status && (
        <p className={`contact-status ${status.kind}`} role={status.kind === "error" ? "alert" : "status"}>
          {status.text}
        </p>
      )}

      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={submitting}>
          {submitting ? "Submitting..." : "Submit"}
        </button>
      </div>
    </form>
  );
}

export default function ContactUs() {
  return (
    <main className="page contact-page">
      <h1>Contact Us</h1>
      <p>Questions about your documents, billing or the product? We usually answer within one business day.</p>
      <ContactForm />
      <address className="contact-details">
        <p>
          <strong>Mailing address</strong>
          <br />
          DocChat Inc., 548 Market St, San Francisco, CA 94104, United States
        </p>
        <p>
          <strong>Support e-mail</strong>
          <br />
          <a href="mailto:support@docchat.app">support@docchat.app</a>
        </p>
      </address>
    </main>
  );
}
