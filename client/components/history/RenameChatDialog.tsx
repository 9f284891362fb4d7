// Rename a chat: one field, Save and Cancel; the server's message on a bad title.
import { useState, type FormEvent } from "react";
import { CHAT_TITLE_MAX } from "../../../worker/contract/protocol";
import { serverMessage } from "../../lib/api";
import { renameChat } from "../../state/history";
import { Field } from "../Field";
import { Modal } from "../Modal";

export function RenameChatDialog({ sessionId, title, onClose }: { sessionId: string; title: string; onClose: () => void }) {
  const [value, setValue] = useState(title);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      await renameChat(sessionId, value);
      onClose();
    } catch (err) {
      setError(serverMessage(err) ?? "Network error. Please try again.");
      setSaving(false);
    }
  }

  return (
    <Modal title="Rename chat" onClose={onClose}>
      <form noValidate onSubmit={onSubmit} aria-busy={saving}>
        <Field
          label="Chat title"
          name="chat_title"
          value={value}
          maxLength={CHAT_TITLE_MAX}
          onChange={(e) => setValue(e.target.value)}
          error={error ?? undefined}
        />
        <div className="modal-actions">
          <button type="button" className="btn btn-outline" onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={saving}>
            Save
          </button>
        </div>
      </form>
    </Modal>
  );
}
