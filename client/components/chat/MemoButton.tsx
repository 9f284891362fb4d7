// The memo button (spec section 2): shown once the chat has messages. Anonymous
// visitors get it disabled with the log-in tooltip; signed-in users open the
// memo dialog with it (`onClick`).
import { useSnapshot } from "valtio";
import { userInfo } from "../../state/user";
import { Icon } from "../Icon";
import { Tooltip } from "../Tooltip";

export const MEMO_LOGIN_TOOLTIP = "Log in to send chat memo via email for free.";
export const MEMO_TOOLTIP = "Send chat memo via email";

export function MemoButton({ visible, onClick }: { visible: boolean; onClick?: () => void }) {
  const { user } = useSnapshot(userInfo);
  if (!visible) return null;
  const signedIn = Boolean(user);
  return (
    <Tooltip text={signedIn ? MEMO_TOOLTIP : MEMO_LOGIN_TOOLTIP}>
      <button type="button" className="memo-btn" aria-label={MEMO_TOOLTIP} disabled={!signedIn} onClick={onClick}>
        <Icon name="mail" size={18} />
        <span className="memo-label">Memo</span>
      </button>
    </Tooltip>
  );
}
