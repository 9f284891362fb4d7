// Deleting the account, under Security: a second step asks for the account's
// e-mail address, then every document, chat and share is removed and the user
// lands signed out on the home page.
import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router-dom";
import { useSnapshot } from "valtio";
import { MESSAGES } from "../../../worker/contract/messages";
import { serverMessage } from "../../lib/api";
import { deleteAccount } from "../../state/account";
import { userInfo } from "../../state/user";
import { Field } from "../Field";
import { StatusLine, type Status } from "./StatusLine";

export function DeleteAccount() {
  const { user } = useSnapshot(userInfo);
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [email, setEmail] = useState("");
  const [status, setStatus] = useState<Status>(null);
  const [deleting, setDeleting] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (email.trim().toLowerCase() !== (user?.email ?? "").toLowerCase()) {
      setStatus({ kind: "error", text: MESSAGES.deleteAccountConfirm });
      return;
    }
    setDeleting(true);
    setStatus(null);
    try {
      await deleteAccount(email.trim());
      navigate("/");
    } catch (err) {
      setStatus({ kind: "error", text: serverMessage(err) ?? "Network error. Please try again." });
      setDeleting(false);
    }
  }

  if (!confirming) {
    return (
      <section className="danger-zone">
        <h3>Delete account</h3>
        <p>Permanently delete your account with all its documents, chats and shares.</p>
        <button type="button" className="btn btn-danger" onClick={() => setConfirming(true)}>
          Delete account…
        </button>
      </section>
    );
  }
  return (
    <form noValidate onSubmit={onSubmit} className="danger-zone" aria-busy={deleting}>
      <h3>Delete account</h3>
      <p>
        This cannot be undone. Your documents, chats and shares are deleted, and any subscription stops renewing. Type{" "}
        <strong>{user?.email}</strong> to confirm.
      </p>
      <Field
        label="E-mail address"
        name="confirm_email"
        type="email"
        autoComplete="off"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <StatusLine status={status} />
      <div className="form-actions">
        <button type="button" className="btn btn-outline" onClick={() => setConfirming(false)} disabled={deleting}>
          Keep my account
        </button>
        <button type="submit" className="btn btn-danger" disabled={deleting}>
          {deleting ? "Deleting…" : "Delete my account"}
        </button>
      </div>
    </form>
  );
}
