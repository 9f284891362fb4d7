// Sharing a chat (spec sections 2, 4, 5 and 9): the owner invites e-mail
// addresses, sees who the chat is shared with, and removes access. Members open
// the chat read-only through its link.
import { checkEmailAddress } from "../../worker/contract/email";
import { SHARE_MESSAGES, type ShareMembersResponse, type SharedMember, type ShareResponse } from "../../worker/contract/mail";
import type { StatusMessage } from "../../worker/contract/messages";
import { api } from "../lib/api";

/** The link that opens a shared chat (see the Chat page). */
export function sharedChatLink(sessionId: string): string {
  return `${window.location.origin}/app/chat?session=${encodeURIComponent(sessionId)}`;
}

/** An address typed to invite: the address as it is sent, or why it cannot be added to the list. */
export function checkInvite(raw: string, ownEmail: string | null, listed: readonly string[]): { email: string } | { error: string } {
  const check = checkEmailAddress(raw, SHARE_MESSAGES.invalidEmail, SHARE_MESSAGES.invalidEmail);
  if ("error" in check) return check;
  const { email } = check;
  if (ownEmail && email === ownEmail.toLowerCase()) return { error: SHARE_MESSAGES.cannotShareWithSelf };
  if (listed.includes(email)) return { error: SHARE_MESSAGES.duplicate };
  return { email };
}

/** Who the chat is shared with now. */
export async function loadMembers(sessionId: string): Promise<SharedMember[]> {
  const result = await api<ShareMembersResponse>("GET", `/api/chat/share?session_id=${encodeURIComponent(sessionId)}`);
  return Array.isArray(result?.members) ? result.members : [];
}

/** Shares the chat with these addresses; each gets an e-mail with the link. */
export function shareChat(sessionId: string, emails: string[]): Promise<ShareResponse> {
  return api<ShareResponse>("POST", "/api/chat/share", { session_id: sessionId, emails });
}

/** Removes one member's access at once. */
export function removeMember(sessionId: string, email: string): Promise<StatusMessage> {
  return api<StatusMessage>("DELETE", "/api/chat/share", { session_id: sessionId, email });
}
