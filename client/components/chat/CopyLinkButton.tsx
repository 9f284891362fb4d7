// "Copy link": puts the shared chat's link on the clipboard and reads "Copied"
// for 5 s (also when the clipboard is blocked: the link still works when typed).
import { useEffect, useRef, useState } from "react";
import { COPIED_INDICATOR_MS } from "../../lib/constants";
import { useMounted } from "../../lib/useMounted";
import { sharedChatLink } from "../../state/share";
import { Icon } from "../Icon";

export function CopyLinkButton({ sessionId }: { sessionId: string | null }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const mounted = useMounted();

  useEffect(() => () => clearTimeout(timer.current), []);

  async function copyLink() {
    if (!sessionId) return;
    try {
      await navigator.clipboard.writeText(sharedChatLink(sessionId));
    } catch {
      // clipboard blocked (insecure origin): the link is still shown in the dialog
    }
    if (!mounted.current) return;
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
  }

  return (
    <button type="button" className="share-copy" onClick={() => void copyLink()} disabled={!sessionId}>
      <Icon name={copied ? "check" : "link"} size={16} />
      <span>{copied ? "Copied" : "Copy link"}</span>
    </button>
  );
}
