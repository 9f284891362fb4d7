// Profile: read-only e-mail, editable name, Save with "User info updated successfully.".
import { useEffect, useRef, useState, type FormEvent } from "react";
import { saveUserInfoSchema } from "../../../worker/contract/validation";
import { ApiRequestError } from "../../lib/api";
import { loadProfile, saveProfile } from "../../state/account";
import { userInfo } from "../../state/user";
import { Field } from "../Field";
import { StatusLine, type Status } from "./StatusLine";

export function ProfilePanel({ onCancel }: { onCancel: () => void }) {
  const [email, setEmail] = useState(userInfo.user?.email ?? "");
  const [name, setName] = useState(userInfo.user?.name ?? "");
  const [phone, setPhone] = useState("");
  const [nameError, setNameError] = useState<string>();
  const [status, setStatus] = useState<Status>(null);
  const [saving, setSaving] = useState(false);
  // What the user typed before the profile arrived must not be overwritten by it.
  const edited = useRef(false);

  useEffect(() => {
    let live = true;
    loadProfile()
      .then((data) => {
        if (!live) return;
        setEmail(data.email);
        if (!edited.current) setName(data.name ?? "");
        setPhone(data.phone ?? "");
      })
      .catch((err) => console.error("getUserInfo failed", err));
    return () => {
      live = false;
    };
  }, []);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setStatus(null);
    // Only the name is shown; an empty phone is left out rather than rejected.
    const payload = phone.trim() ? { name, phone } : { name };
    const check = saveUserInfoSchema.safeParse(payload);
    if (!check.success) {
      setNameError(check.error.issues.find((i) => i.path[0] === "name")?.message);
      if (!check.error.issues.some((i) => i.path[0] === "name")) setStatus({ kind: "error", text: check.error.issues[0]!.message });
      return;
    }
    setNameError(undefined);
    setSaving(true);
    try {
      const result = await saveProfile(check.data);
      if (result.status === "success") {
        setStatus({ kind: "success", text: result.message });
      } else {
        setStatus({ kind: "error", text: result.message });
      }
    } catch (err) {
      setStatus({ kind: "error", text: err instanceof ApiRequestError ? err.message : "Network error. Please try again." });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form noValidate onSubmit={onSubmit} className={saving ? "settings-form is-saving" : "settings-form"} aria-busy={saving}>
      <h3>Profile</h3>
      <Field label="Email" type="email" value={email} readOnly />
      <Field
        label="Name"
        name="name"
        value={name}
        onChange={(e) => {
          edited.current = true;
          setName(e.target.value);
        }}
        error={nameError}
        autoComplete="name"
      />
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
