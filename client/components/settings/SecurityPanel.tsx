// Security: change password with the spec's messages; other sessions are signed out.
import { useState, type FormEvent } from "react";
import { firstErrors, securityFormSchema, type FieldErrors } from "../../../worker/contract/validation";
import { ApiRequestError } from "../../lib/api";
import { changePassword } from "../../state/account";
import { Field } from "../Field";
import { StatusLine, type Status } from "./StatusLine";

const EMPTY = { current_password: "", new_password: "", confirm_new_password: "" };
const FIELDS = [
  { name: "current_password", label: "Old password", autoComplete: "current-password" },
  { name: "new_password", label: "New password", autoComplete: "new-password" },
  { name: "confirm_new_password", label: "Confirm new password", autoComplete: "new-password" },
] as const;

export function SecurityPanel({ onCancel }: { onCancel: () => void }) {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState<Status>(null);
  const [saving, setSaving] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setStatus(null);
    const check = securityFormSchema.safeParse(values);
    if (!check.success) {
      setErrors(firstErrors(check.error));
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const { current_password, new_password } = check.data;
      const result = await changePassword({ current_password, new_password });
      if (result.status === "success") {
        setStatus({ kind: "success", text: result.message });
        setValues(EMPTY);
      } else {
        setStatus({ kind: "error", text: result.message });
      }
    } catch (err) {
      if (err instanceof ApiRequestError) {
        setErrors(err.fields);
        setStatus({ kind: "error", text: err.message, heard: Object.values(err.fields).includes(err.message) });
      } else {
        setStatus({ kind: "error", text: "Network error. Please try again." });
      }
    } finally {
      setSaving(false);
    }
  }

  return (
    <form noValidate onSubmit={onSubmit} className={saving ? "settings-form is-saving" : "settings-form"} aria-busy={saving}>
      <h3>Security</h3>
      {FIELDS.map((field) => (
        <Field
          key={field.name}
          label={field.label}
          type="password"
          name={field.name}
          autoComplete={field.autoComplete}
          value={values[field.name]}
          onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
          error={errors[field.name]}
        />
      ))}
      <StatusLine status={status} />
      <div className="form-actions">
        <button type="button" className="btn btn-outline" onClick={onCancel} disabled={saving}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={saving}>
          Save
        </button>
      </div>
    </form>
  );
}
