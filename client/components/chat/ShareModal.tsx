// The share dialog (spec sections 2, 4, 5 and 9): the owner types e-mail
// addresses (validated on Enter, duplicates not added) into a list of checkable
// addresses, copies the chat link ("Copied" for 5 s) and shares with the checked
// ones and any address still typed in the input. Sharing with none checked is blocked. The current members are loaded on
// open, each with Remove. Closing unmounts the dialog, which clears the list.
import { useSnapshot } from "valtio";
import { chatState } from "../../state/chat";
import { userInfo } from "../../state/user";
import { Modal } from "../Modal";
import { CopyLinkButton } from "./CopyLinkButton";
import "./share-memo.css";
import { ShareInvites } from "./ShareInvites";
import { ShareMembers } from "./ShareMembers";
import { useShareDialog } from "./useShareDialog";

export const SHARE_TITLE = "Share chat with other members";

export function ShareModal({ onClose }: { onClose: () => void }) {
  const { sessionId } = useSnapshot(chatState);
  const { user } = useSnapshot(userInfo);
  const dialog = useShareDialog(sessionId, user?.email ?? null);
  const { candidates, members, notice, sharing, removing, toggle, share, remove } = dialog;

  return (
    <Modal title={SHARE_TITLE} onClose={onClose} className="share-modal">
      <ShareInvites
        draft={dialog.draft}
        draftError={dialog.draftError}
        onDraftChange={dialog.setDraft}
        onAdd={dialog.addDraft}
        candidates={candidates}
        onToggle={toggle}
        disabled={sharing}
      />

      {notice && (
        <p className={`share-memo-status ${notice.kind}`} role={notice.kind === "success" ? "status" : "alert"}>
          {notice.text}
        </p>
      )}

      <ShareMembers members={members} removing={removing} onRemove={(email) => void remove(email)} />

      <div className="share-footer">
        <CopyLinkButton sessionId={sessionId} />
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
