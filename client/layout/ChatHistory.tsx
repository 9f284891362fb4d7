// The sidebar's chat history: the search box, then the chats grouped, current
// session highlighted, at most 10 (or, while searching, the chats found).
// Each chat of one's own has a menu to rename or delete it (shared chats do not).
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { useSnapshot } from "valtio";
import { RowMenu } from "../components/RowMenu";
import { DeleteChatDialog } from "../components/history/DeleteChatDialog";
import { HistorySearch } from "../components/history/HistorySearch";
import { RenameChatDialog } from "../components/history/RenameChatDialog";
import { groupChatHistory } from "../lib/history";
import { appInfo, closeSidebarOnPhone, setCurrentSession } from "../state/app";
import { historySearch, ownsChat } from "../state/history";
import { userInfo } from "../state/user";

type Editing = { kind: "rename" | "delete"; sessionId: string; title: string } | null;

export function ChatHistory() {
  const { chatList, user } = useSnapshot(userInfo);
  const { isSidebarOpen, currentSessionId } = useSnapshot(appInfo);
  const navigate = useNavigate();
  const [editing, setEditing] = useState<Editing>(null);
  const { query } = useSnapshot(historySearch);
  if (!isSidebarOpen || !user || chatList.length === 0) return null;

  return (
    <nav className="chat-history" aria-label="Chat history">
      <HistorySearch />
      {!query.trim() &&
        groupChatHistory(chatList).map((group) => (
          <section key={group.label}>
            <h3>{group.label}</h3>
            <ul>
              {group.chats.map((chat) => {
                const title = chat.summary || "Untitled Chat";
                return (
                  <li key={chat.session_id} className="history-row">
                    <button
                      type="button"
                      className={chat.session_id === currentSessionId ? "history-item current" : "history-item"}
                      aria-current={chat.session_id === currentSessionId ? "true" : undefined}
                      onClick={() => {
                        setCurrentSession(chat.session_id);
                        navigate("/app/chat");
                        closeSidebarOnPhone();
                      }}
                    >
                      {title}
                    </button>
                    {ownsChat(chat.session_id, user.email) && (
                      <RowMenu
                        name={title}
                        items={[
                          { label: "Rename", onSelect: () => setEditing({ kind: "rename", sessionId: chat.session_id, title }) },
                          {
                            label: "Delete",
                            danger: true,
                            onSelect: () => setEditing({ kind: "delete", sessionId: chat.session_id, title }),
                          },
                        ]}
                      />
                    )}
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
      {editing?.kind === "rename" && (
        <RenameChatDialog sessionId={editing.sessionId} title={editing.title} onClose={() => setEditing(null)} />
      )}
      {editing?.kind === "delete" && <DeleteChatDialog sessionId={editing.sessionId} onClose={() => setEditing(null)} />}
    </nav>
  );
}
