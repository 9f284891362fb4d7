// The history search box (Ctrl/Cmd+K focuses it) and, while something is typed,
// the chats found: title and the words around the match, one click opens it.
import { useNavigate } from "react-router-dom";
import { useSnapshot } from "valtio";
import { CHAT_SEARCH_MAX } from "../../../worker/contract/protocol";
import { closeSidebarOnPhone, setCurrentSession } from "../../state/app";
import { historySearch, searchHistory } from "../../state/history";

export const HISTORY_SEARCH_ID = "history-search";

export function HistorySearch() {
  const { query, results, error } = useSnapshot(historySearch);
  const navigate = useNavigate();
  const typed = query.trim();
  return (
    <div className="history-search">
      <input
        id={HISTORY_SEARCH_ID}
        type="search"
        placeholder="Search chats"
        aria-label="Search chats"
        maxLength={CHAT_SEARCH_MAX}
        value={query}
        onChange={(event) => searchHistory(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape" && query) {
            event.preventDefault();
            searchHistory("");
          }
        }}
      />
      {typed && error && (
        <p className="history-search-note" role="alert">
          {error}
        </p>
      )}
      {typed && results && (
        <ul className="history-results" aria-label="Chats found">
          {results.length === 0 && <li className="history-search-note">No chats match “{typed}”.</li>}
          {results.map((chat) => (
            <li key={chat.session_id}>
              <button
                type="button"
                className="history-item history-result"
                onClick={() => {
                  setCurrentSession(chat.session_id);
                  navigate("/app/chat");
                  closeSidebarOnPhone();
                }}
              >
                <span className="history-result-title">{chat.summary || "Untitled Chat"}</span>
                {chat.snippet && <span className="history-result-snippet">{chat.snippet}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
