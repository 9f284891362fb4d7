// The share button beside the memo button (spec sections 2 and 6): only for the
// signed-in owner of a chat that has messages; hidden for read-only shared chats.
import { useSnapshot } from "valtio";
import { chatState } from "../../state/chat";
import { userInfo } from "../../state/user";
import { Icon } from "../Icon";
import { Tooltip } from "../Tooltip";
import "./share-memo.css";

export const SHARE_TOOLTIP = "Share chat with other members";

export function ShareButton({ onClick }: { onClick: () => void }) {
  const { user } = useSnapshot(userInfo);
  const { sessionId, messages, readOnly } = useSnapshot(chatState);
  const owner = Boolean(user && sessionId?.startsWith(`${user.email}-`));
  if (!owner || readOnly || messages.length === 0) return null;
  return (
    <Tooltip text={SHARE_TOOLTIP}>
      <button type="button" className="memo-btn share-btn" aria-label="Share chat" onClick={onClick}>
        <Icon name="link" size={18} />
        <span className="memo-label">Share</span>
      </button>
    </Tooltip>
  );
}
