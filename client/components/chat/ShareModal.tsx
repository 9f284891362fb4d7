// The share dialog (spec sections 2, 4, 5 and 9): the owner types e-mail
// addresses (validated on Enter, duplicates not added) into a list of checkable
// addresses, copies the chat link ("Copied" for 5 s) and shares with the checked
// ones. Sharing with none checked is blocked. The current members are loaded on
// open, each with Remove. Closing unmounts the dialog, which clears the list.
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useSnapshot } from "valtio";
import { emailAddressSchema, MEMO_MESSAGES, SHARE_MESSAGES } from "../../../worker/contract/mail";
import { api, serverMessage } from "../../lib/api";
import { COPIED_INDICATOR_MS } from "../../lib/constants";
import { chatState } from "../../state/chat";
import { userInfo } from "../../state/user";
import { Field } from "../Field";
import { Icon } from "../Icon";
import { Modal } from "../Modal";
import "./share-memo.css";

export const SHARE_TITLE = "Share chat with other members";

export interface ShareResponse {
  status: "success" | "partial" | "error";
  message: string;
  shared: string[];
  errors: { email: string; error: string }[];
}

export interface SharedMember {
  email: string;
  created_at: number | string;
}

interface Candidate {
  email: string;
  checked: boolean;
  error?: string;
}

type Notice = { kind: "success" | "warning" | "error"; text: string } | null;

const SHARE_FAILED = "Sharing failed. Please try again.";
const REMOVE_FAILED = "Removing access failed. Please try again.";

const shareEmail = emailAddressSchema(SHARE_MESSAGES.invalidEmail, SHARE_MESSAGES.invalidEmail);

/** The link that opens a shared chat (see the Chat page). */
export function sharedChatLink(sessionId: string): string {
  return `${window.location.origin}/app/chat?session=${encodeURIComponent(sessionId)}`;
}

function messageOf(err: unknown, fallback: string): string {
  return serverMessage(err) ?? fallback;
}

export function ShareModal({ onClose }: { onClose: () => void }) {
  const { sessionId } = useSnapshot(chatState);
  const { user } = useSnapshot(userInfo);
  const [input, setInput] = useState("");
  const [inputError, setInputError] = useState<string>();
  const [candidates, setCandidates] = useState<Candidate[]>([]);
  const [members, setMembers] = useState<SharedMember[]>([]);
  const [notice, setNotice] = useState<Notice>(null);
  const [sharing, setSharing] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const copyTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(copyTimer.current);
    };
  }, []);

  async function loadMembers(id: string) {
    try {
      const result = await api<{ members?: SharedMember[] }>("GET", `/api/chat/share?session_id=${encodeURIComponent(id)}`);
      if (mounted.current) setMembers(Array.isArray(result?.members) ? result.members : []);
    } catch (err) {
      console.error("Loading the chat members failed", err);
    }
  }

  useEffect(() => {
    if (sessionId) void loadMembers(sessionId);
  }, [sessionId]);

  function addCandidate() {
    const check = shareEmail.safeParse(input);
    if (!check.success) {
      setInputError(check.error.issues[0]?.message ?? SHARE_MESSAGES.invalidEmail);
      return;
    }
    const email = check.data;
    if (user && email === user.email.toLowerCase()) {
      setInputError(SHARE_MESSAGES.cannotShareWithSelf);
      return;
    }
    if (candidates.some((c) => c.email === email)) {
      setInputError(SHARE_MESSAGES.duplicate);
      return;
    }
    setCandidates((list) => [...list, { email, checked: true }]);
    setInput("");
    setInputError(undefined);
  }

  function onInputKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== "Enter" || event.nativeEvent.isComposing) return;
    event.preventDefault();
    addCandidate();
  }

  function toggle(email: string) {
    setCandidates((list) => list.map((c) => (c.email === email ? { ...c, checked: !c.checked } : c)));
  }

  async function copyLink() {
    if (!sessionId) return;
    try {
      await navigator.clipboard.writeText(sharedChatLink(sessionId));
    } catch {
      // clipboard blocked (insecure origin): the link is still shown in the dialog
    }
    if (!mounted.current) return;
    setCopied(true);
    clearTimeout(copyTimer.current);
    copyTimer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
  }

  async function share() {
    if (sharing) return;
    setNotice(null);
    const emails = candidates.filter((c) => c.checked).map((c) => c.email);
    if (emails.length === 0) {
      setNotice({ kind: "error", text: SHARE_MESSAGES.selectAtLeastOne });
      return;
    }
    if (!sessionId) {
      setNotice({ kind: "error", text: MEMO_MESSAGES.sessionMissing });
      return;
    }
    setSharing(true);
    try {
      const result = await api<ShareResponse>("POST", "/api/chat/share", { session_id: sessionId, emails });
      if (!mounted.current) return;
      const shared = new Set(result?.shared ?? []);
      const failed = new Map((result?.errors ?? []).map((e) => [e.email, e.error]));
      // Shared addresses leave the list (they show as members); failed ones stay with their error.
      setCandidates((list) =>
        list
          .filter((c) => !shared.has(c.email))
          .map((c) => (failed.has(c.email) ? { ...c, error: failed.get(c.email) } : { ...c, error: undefined })),
      );
      const kind = result?.status === "success" ? "success" : result?.status === "partial" ? "warning" : "error";
      setNotice({ kind, text: result?.message || (kind === "error" ? SHARE_FAILED : SHARE_MESSAGES.shared) });
      if (shared.size > 0) await loadMembers(sessionId);
    } catch (err) {
      if (mounted.current) setNotice({ kind: "error", text: messageOf(err, SHARE_FAILED) });
    } finally {
      if (mounted.current) setSharing(false);
    }
  }

  async function remove(email: string) {
    if (!sessionId || removing) return;
    setNotice(null);
    setRemoving(email);
    try {
      const result = await api<{ status: string; message?: string }>("DELETE", "/api/chat/share", { session_id: sessionId, email });
      if (!mounted.current) return;
      if (result?.status && result.status !== "success") {
        setNotice({ kind: "error", text: result.message || REMOVE_FAILED });
        return;
      }
      setMembers((list) => list.filter((m) => m.email !== email));
      setNotice({ kind: "success", text: result?.message || SHARE_MESSAGES.revoked });
    } catch (err) {
      if (mounted.current) setNotice({ kind: "error", text: messageOf(err, REMOVE_FAILED) });
    } finally {
      if (mounted.current) setRemoving(null);
    }
  }

  return (
    <Modal title={SHARE_TITLE} onClose={onClose} className="share-modal">
      <Field
        label="Email address*"
        type="email"
        name="share-email"
        autoComplete="off"
        placeholder="Type an e-mail address and press Enter"
        value={input}
        onChange={(e) => {
          setInput(e.target.value);
          setInputError(undefined);
        }}
        onKeyDown={onInputKeyDown}
        error={inputError}
        disabled={sharing}
      />

      {candidates.length > 0 && (
        <ul className="share-candidates" aria-label="E-mail addresses to share with">
          {candidates.map((c) => (
            <li key={c.email}>
              <label className="checkbox share-candidate">
                <input type="checkbox" checked={c.checked} onChange={() => toggle(c.email)} disabled={sharing} />
                <span className="share-email">{c.email}</span>
              </label>
              {c.error && <span className="field-error">{c.error}</span>}
            </li>
          ))}
        </ul>
      )}

      {notice && (
        <p className={`share-memo-status ${notice.kind}`} role={notice.kind === "success" ? "status" : "alert"}>
          {notice.text}
        </p>
      )}

      {members.length > 0 && (
        <section className="share-members" aria-label="Shared with">
          <h3>Shared with</h3>
          <ul>
            {members.map((m) => (
              <li key={m.email}>
                <span className="share-email">{m.email}</span>
                <button
                  type="button"
                  className="btn btn-outline btn-small"
                  aria-label={`Remove ${m.email}`}
                  disabled={removing !== null}
                  onClick={() => void remove(m.email)}
                >
                  {removing === m.email ? "Removing..." : "Remove"}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}

      <div className="share-footer">
        <button type="button" className="share-copy" onClick={() => void copyLink()} disabled={!sessionId}>
          <Icon name={copied ? "check" : "link"} size={16} />
          <span>{copied ? "Copied" : "Copy link"}</span>
        </button>
        <div className="modal-actions">
          <button type="button" className="btn btn-outline" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => void share()}
            disabled={sharing}
            aria-busy={sharing || undefined}
          >
            {sharing ? "Sharing..." : "Share"}
          </button>
        </div>
      </div>
    </Modal>
  );
}
