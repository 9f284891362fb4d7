// Delete a chat: a confirmation that says what goes (messages, and the access of
// everyone it was shared with), then Delete.
import { deleteChat } from "../../state/history";
import { ConfirmDelete } from "../ConfirmDelete";

export const DELETE_CHAT_TEXT =
  "Delete this chat? Its messages are deleted, and everyone it was shared with loses access. You can't undo this.";

export function DeleteChatDialog({ sessionId, onClose }: { sessionId: string; onClose: () => void }) {
  return (
    <ConfirmDelete title="Delete chat" onDelete={() => deleteChat(sessionId)} onClose={onClose} failed="Network error. Please try again.">
      <p>{DELETE_CHAT_TEXT}</p>
    </ConfirmDelete>
  );
}
