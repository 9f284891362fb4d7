// Keyboard shortcuts for the whole app, and the dialog that lists them (`?`):
// Ctrl/Cmd+K focuses the history search, Ctrl/Cmd+Shift+O starts a new chat,
// Escape on the chat page stops an answer being written (an open dialog or menu
// closes first).
import { useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { HISTORY_SEARCH_ID } from "../components/history/HistorySearch";
import { Modal } from "../components/Modal";
import { startNewChat, toggleSidebar } from "../state/app";
import { chatState } from "../state/chat";
import { stopAnswer } from "../state/chatMessages";
import { userInfo } from "../state/user";

const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** The shortcuts as the dialog lists them, with this platform's modifier key. */
export function shortcutList(): { keys: string; does: string }[] {
  const mod = isMac() ? "⌘" : "Ctrl";
  return [
    { keys: `${mod}+K`, does: "Search your chats" },
    { keys: `${mod}+Shift+O`, does: "Start a new chat" },
    { keys: "Escape", does: "Stop the answer being written, or close a dialog" },
    { keys: "?", does: "Show these shortcuts" },
  ];
}

const typingIn = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
const dialogOpen = () => document.querySelector('[role="dialog"]') !== null;
/** An open dialog or menu has Escape to itself. */
const escapeTaken = () => document.querySelector('[role="dialog"], [role="menu"]') !== null;
const CHAT_PATHS = ["/", "/app/chat"];
/** The history search shows for a signed-in user with chats; without it Ctrl/Cmd+K stays the browser's. */
const canSearchHistory = () => userInfo.user !== null && userInfo.chatList.length > 0;

/** Focuses the history search, opening the sidebar first when it is closed. */
function focusHistorySearch(): void {
  toggleSidebar(true);
  // the box renders with the opened sidebar
  requestAnimationFrame(() => document.getElementById(HISTORY_SEARCH_ID)?.focus());
}

export function Shortcuts() {
  const [showList, setShowList] = useState(false);
  const navigate = useNavigate();
  const { pathname } = useLocation();

  useEffect(() => {
    const onChatPage = CHAT_PATHS.includes(pathname);
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      if (mod && !event.shiftKey && key === "k" && canSearchHistory()) {
        event.preventDefault();
        focusHistorySearch();
      } else if (mod && event.shiftKey && key === "o") {
        event.preventDefault();
        startNewChat(userInfo.user?.email);
        navigate("/app/chat");
      } else if (event.key === "Escape" && chatState.loading && onChatPage && !escapeTaken()) {
        event.preventDefault();
        stopAnswer();
      } else if (event.key === "?" && !mod && !typingIn(event.target) && !dialogOpen()) {
        event.preventDefault();
        setShowList(true);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [navigate, pathname]);

  if (!showList) return null;
  return (
    <Modal title="Keyboard shortcuts" onClose={() => setShowList(false)} closeButton>
      <dl className="shortcut-list">
        {shortcutList().map((s) => (
          <div key={s.keys}>
            <dt>
              <kbd>{s.keys}</kbd>
            </dt>
            <dd>{s.does}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
