// "Export chat" beside Share and Memo (#45 item 4): a menu of Markdown and PDF; either downloads
// the chat from GET /api/chat/:session_id/export with the bearer token and saves it under the name
// the server gives (the chat's title). Shown to a signed-in owner or shared reader once the chat
// has messages; a failed export is told through `onError` (the dock's error banner).
import { useState } from "react";
import { useSnapshot } from "valtio";
import { EXPORT_MESSAGES, exportPath, type ExportFormat } from "../../../worker/contract/chat-export";
import { apiDownload, saveFile, serverMessage } from "../../lib/api";
import { chatState } from "../../state/chat";
import { userInfo } from "../../state/user";
import { Icon } from "../Icon";
import "./export-menu.css";
import { moveMenuFocus, usePopupMenu } from "../menuFocus";

const FORMATS: { format: ExportFormat; label: string }[] = [
  { format: "md", label: "Markdown" },
  { format: "pdf", label: "PDF" },
];

export function ExportMenu({ onError }: { onError: (message: string) => void }) {
  const { user } = useSnapshot(userInfo);
  const { sessionId, messages } = useSnapshot(chatState);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);

  const { rootRef, buttonRef, menuRef } = usePopupMenu(open, () => setOpen(false));

  if (!user || !sessionId || messages.length === 0) return null;

  async function download(format: ExportFormat) {
    setOpen(false);
    setBusy(true);
    try {
      const { blob, fileName } = await apiDownload(exportPath(sessionId!, format));
      saveFile(blob, fileName ?? `chat.${format}`);
    } catch (err) {
      onError(serverMessage(err) ?? EXPORT_MESSAGES.failed);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="export-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="memo-btn"
        aria-label="Export chat"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-busy={busy}
        disabled={busy}
        onClick={() => setOpen((o) => !o)}
      >
        <Icon name="download" size={18} />
        <span className="memo-label">Export chat</span>
      </button>
      {open && (
        <div className="menu export-popover" role="menu" aria-label="Export chat" ref={menuRef} onKeyDown={moveMenuFocus}>
          {FORMATS.map(({ format, label }) => (
            <button key={format} type="button" role="menuitem" onClick={() => void download(format)}>
              {label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
