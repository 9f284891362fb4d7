// What the share dialog holds while open: the address being typed, the
// addresses to invite (checked or not, each with its last error), the current
// members, the notice, and which request is running. Closing the dialog drops
// all of it.
import { useEffect, useState } from "react";
import { MEMO_MESSAGES, SHARE_MESSAGES, type SharedMember } from "../../../worker/contract/mail";
import { serverMessage } from "../../lib/api";
import { useMounted } from "../../lib/useMounted";
import { checkInvite, loadMembers, removeMember, shareChat } from "../../state/share";

export interface Candidate {
  email: string;
  checked: boolean;
  error?: string;
}

export type Notice = { kind: "success" | "warning" | "error"; text: string } | null;

const SHARE_FAILED = "Sharing failed. Please try again.";
const REMOVE_FAILED = "Removing access failed. Please try again.";

export function useShareDialog(sessionId: string | null, ownEmail: string | null) {
  const [draft, setDraftText] = useState("");
  const [draftError, setDraftError] = useState<string>();
  const [candidates, setCandidates] = useState<Candidate[]>([]);
  const [members, setMembers] = useState<SharedMember[]>([]);
  const [notice, setNotice] = useState<Notice>(null);
  const [sharing, setSharing] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const mounted = useMounted();

  async function refreshMembers(id: string) {
    try {
      const list = await loadMembers(id);
      if (mounted.current) setMembers(list);
    } catch (err) {
      console.error("Loading the chat members failed", err);
    }
  }

  useEffect(() => {
    if (sessionId) void refreshMembers(sessionId);
  }, [sessionId]);

  function setDraft(text: string) {
    setDraftText(text);
    setDraftError(undefined);
  }

  /** Enter: the typed address joins the list, checked, unless it is invalid or listed already. */
  function addDraft() {
    const invite = checkInvite(
      draft,
      ownEmail,
      candidates.map((c) => c.email),
    );
    if ("error" in invite) return setDraftError(invite.error);
    setCandidates((list) => [...list, { email: invite.email, checked: true }]);
    setDraft("");
    settleSelectionNotice();
  }

  /**
   * An address typed but not entered when Share is pressed is meant too: it is
   * shared with the checked ones (an address already listed is checked).
   * Returns null when it is invalid, with its error under the input.
   */
  function withDraft(checked: string[]): string[] | null {
    if (!draft.trim()) return checked;
    const invite = checkInvite(draft, ownEmail, []);
    if ("error" in invite) {
      setDraftError(invite.error);
      return null;
    }
    const { email } = invite;
    setCandidates((list) =>
      list.some((c) => c.email === email)
        ? list.map((c) => (c.email === email ? { ...c, checked: true } : c))
        : [...list, { email, checked: true }],
    );
    setDraft("");
    return checked.includes(email) ? checked : [...checked, email];
  }

  function toggle(email: string) {
    setCandidates((list) => list.map((c) => (c.email === email ? { ...c, checked: !c.checked } : c)));
    settleSelectionNotice();
  }

  /** "Please select at least one email address." goes once an address is added or checked. */
  function settleSelectionNotice() {
    setNotice((current) => (current?.text === SHARE_MESSAGES.selectAtLeastOne ? null : current));
  }

  async function share() {
    if (sharing) return;
    setNotice(null);
    const emails = withDraft(candidates.filter((c) => c.checked).map((c) => c.email));
    if (!emails) return;
    if (emails.length === 0) return setNotice({ kind: "error", text: SHARE_MESSAGES.selectAtLeastOne });
    if (!sessionId) return setNotice({ kind: "error", text: MEMO_MESSAGES.sessionMissing });
    setSharing(true);
    try {
      const result = await shareChat(sessionId, emails);
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
      if (shared.size > 0) await refreshMembers(sessionId);
    } catch (err) {
      if (mounted.current) setNotice({ kind: "error", text: serverMessage(err) ?? SHARE_FAILED });
    } finally {
      if (mounted.current) setSharing(false);
    }
  }

  async function remove(email: string) {
    if (!sessionId || removing) return;
    setNotice(null);
    setRemoving(email);
    try {
      const result = await removeMember(sessionId, email);
      if (!mounted.current) return;
      if (result?.status && result.status !== "success") return setNotice({ kind: "error", text: result.message || REMOVE_FAILED });
      setMembers((list) => list.filter((m) => m.email !== email));
      setNotice({ kind: "success", text: result?.message || SHARE_MESSAGES.revoked });
    } catch (err) {
      if (mounted.current) setNotice({ kind: "error", text: serverMessage(err) ?? REMOVE_FAILED });
    } finally {
      if (mounted.current) setRemoving(null);
    }
  }

  return { draft, draftError, setDraft, addDraft, candidates, members, notice, sharing, removing, toggle, share, remove };
}
