// The sidebar's chat history: grouped, current session highlighted, at most 10.
import { useNavigate } from "react-router-dom";
import { useSnapshot } from "valtio";
import { groupChatHistory } from "../lib/history";
import { appInfo, setCurrentSession } from "../state/app";
import { userInfo } from "../state/user";

export function ChatHistory() {
  const { chatList, user } = useSnapshot(userInfo);
  const { isSidebarOpen, currentSessionId } = useSnapshot(appInfo);
  const navigate = useNavigate();
  if (!isSidebarOpen || !user || chatList.length === 0) return null;

  return (
    <nav className="chat-history" aria-label="Chat history">
      {groupChatHistory(chatList).map((group) => (
        <section key={group.label}>
          <h3>{group.label}</h3>
          <ul>
            {group.chats.map((chat) => (
              <li key={chat.session_id}>
                <button
                  type="button"
                  className={chat.session_id === currentSessionId ? "history-item current" : "history-item"}
                  aria-current={chat.session_id === currentSessionId ? "true" : undefined}
                  onClick={() => {
                    setCurrentSession(chat.session_id);
                    navigate("/app/chat");
                  }}
                >
                  {chat.summary || "Untitled Chat"}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </nav>
  );
}
