// Delete a chat: a confirmation that says what goes (messages, and the access of
// everyone it was shared with), then Delete.
import { useState } from "react";
import { serverMessage } from "../../lib/api";
import { deleteChat } from "../../state/history";
import { Modal } from "../Modal";

export const DELETE_CHAT_TEXT =
  "Delete this chat? Its messages are deleted, and everyone it was shared with loses access. You can't undo this.";

export function DeleteChatDialog({ sessionId, onClose }: { sessionId: string; onClose: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);

  async function confirm() {
    setDeleting(true);
    setError(null);
    try {
      await deleteChat(sessionId);
      onClose();
    } catch (err) {
      setError(serverMessage(err) ?? "Network error. Please try again.");
      setDeleting(false);
    }
  }

  return (
    <Modal title="Delete chat" onClose={deleting ? () => {} : onClose}>
      <p>{DELETE_CHAT_TEXT}</p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="modal-actions">
        <button type="button" className="btn btn-outline" onClick={onClose} disabled={deleting}>
          Cancel
        </button>
        <button type="button" className="btn btn-danger" onClick={confirm} disabled={deleting}>
          {deleting ? "Deleting..." : "Delete"}
        </button>
      </div>
    </Modal>
  );
}
