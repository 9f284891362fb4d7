// The memo dialog (spec sections 2, 4, 5 and 8): a summary of the chat is
// generated and e-mailed. "Send to Email" needs a valid address; "Send to myself"
// skips the check and uses the signed-in user's e-mail. States: idle, sending /
// sending_to_self (the clicked button reads "Sending...", both are disabled),
// success / success_to_self (that button reads "Sent!"), error (red text).
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useSnapshot } from "valtio";
import { checkEmailAddress } from "../../../worker/contract/email";
import { MEMO_MESSAGES } from "../../../worker/contract/mail";
import { serverMessage } from "../../lib/api";
import { chatState } from "../../state/chat";
import { sendMemo } from "../../state/memo";
import { userInfo } from "../../state/user";
import { Field } from "../Field";
import { Icon } from "../Icon";
import { Modal } from "../Modal";
import "./share-memo.css";

export type MemoStatus = "idle" | "sending" | "sending_to_self" | "success" | "success_to_self" | "error";

export const MEMO_TITLE = "Generate Chat Memo";
export const MEMO_INTRO = "A summary of this chat will be generated and sent to the e-mail address below.";

export function MemoModal({ onClose }: { onClose: () => void }) {
  const { sessionId } = useSnapshot(chatState);
  const { user } = useSnapshot(userInfo);
  const [email, setEmail] = useState("");
  const [status, setStatus] = useState<MemoStatus>("idle");
  const [fieldError, setFieldError] = useState<string>();
  const [error, setError] = useState<string | null>(null);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const busy = status === "sending" || status === "sending_to_self";

  async function send(toSelf: boolean) {
    if (busy) return;
    setError(null);
    setFieldError(undefined);
    let address: string;
    if (toSelf) {
      address = user?.email ?? "";
    } else {
      const check = checkEmailAddress(email, MEMO_MESSAGES.emailRequired, MEMO_MESSAGES.emailInvalid);
      if ("error" in check) {
        setStatus("idle");
        setFieldError(check.error);
        return;
      }
      address = check.email;
    }
    if (!sessionId) {
      setStatus("error");
      setError(MEMO_MESSAGES.sessionMissing);
      return;
    }

    setStatus(toSelf ? "sending_to_self" : "sending");
    try {
      await sendMemo(sessionId, address);
      if (!mounted.current) return;
      setStatus(toSelf ? "success_to_self" : "success");
    } catch (err) {
      if (!mounted.current) return;
      setStatus("error");
      setError(serverMessage(err) ?? MEMO_MESSAGES.sendFailed);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void send(false);
  }

  const toEmailLabel = status === "sending" ? "Sending..." : status === "success" ? "Sent!" : "Send to Email";
  const toSelfLabel = status === "sending_to_self" ? "Sending..." : status === "success_to_self" ? "Sent!" : "Send to myself";
  const succeeded = status === "success" || status === "success_to_self";

  return (
    <Modal title={MEMO_TITLE} onClose={onClose} className="memo-modal">
      <p className="memo-intro">{MEMO_INTRO}</p>
      <form noValidate onSubmit={onSubmit} aria-busy={busy || undefined}>
        <Field
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          placeholder={user?.email ?? "name@example.com"}
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setFieldError(undefined);
            if (status !== "idle" && !busy) setStatus("idle");
            setError(null);
          }}
          error={fieldError}
          disabled={busy}
        />
        {succeeded && (
          <p className="share-memo-status success" role="status">
            {MEMO_MESSAGES.sent}
          </p>
        )}
        {status === "error" && error && (
          <p className="share-memo-status error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions memo-actions">
          <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={status === "sending" || undefined}>
            {toEmailLabel}
          </button>
          <button
            type="button"
            className="btn btn-outline"
            disabled={busy || !user}
            aria-busy={status === "sending_to_self" || undefined}
            onClick={() => void send(true)}
          >
            {toSelfLabel}
          </button>
        </div>
      </form>
      <button type="button" className="icon-btn modal-close" aria-label="Close" onClick={onClose}>
        <Icon name="close" size={18} />
      </button>
    </Modal>
  );
}
