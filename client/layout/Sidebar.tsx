// Collapsible sidebar: 280 px open / 98 px collapsed on large screens; on small
// screens it slides in over a dimmed overlay that closes it on tap.
import { Link, useNavigate } from "react-router-dom";
import { useSnapshot } from "valtio";
import { Icon } from "../components/Icon";
import { Tooltip } from "../components/Tooltip";
import { appInfo, closeSidebarOnPhone, openSettings, startNewChat, toggleSidebar } from "../state/app";
import { userInfo } from "../state/user";
import { ChatHistory } from "./ChatHistory";

export function Sidebar() {
  const { isSidebarOpen } = useSnapshot(appInfo);
  const { user } = useSnapshot(userInfo);
  const navigate = useNavigate();

  // On a phone every choice also closes the slide-in panel.
  function go(path: string) {
    navigate(path);
    closeSidebarOnPhone();
  }

  return (
    <>
      <div
        className={isSidebarOpen ? "sidebar-overlay visible" : "sidebar-overlay"}
        aria-hidden="true"
        data-testid="sidebar-overlay"
        onClick={() => toggleSidebar(false)}
      />
      <aside className={isSidebarOpen ? "sidebar open" : "sidebar collapsed"} aria-label="Sidebar">
        <div className="sidebar-actions">
          <button
            type="button"
            className="sidebar-btn"
            aria-label="New Chat"
            title="New Chat"
            onClick={() => {
              startNewChat(user?.email);
              go("/app/chat");
            }}
          >
            <span className="sidebar-icon">
              <Icon name="plus" />
            </span>
            <span className="sidebar-label">New Chat</span>
          </button>
          {user && (
            <>
              <button type="button" className="sidebar-btn" aria-label="Files" title="Files" onClick={() => go("/app/files")}>
                <span className="sidebar-icon">
                  <Icon name="files" />
                </span>
                <span className="sidebar-label">Files</span>
              </button>
              <button
                type="button"
                className="sidebar-btn"
                aria-label="Chat History"
                title="Chat History"
                aria-expanded={isSidebarOpen}
                onClick={() => toggleSidebar()}
              >
                <span className="sidebar-icon">
                  <Icon name="history" />
                </span>
                <span className="sidebar-label">Chat History</span>
              </button>
            </>
          )}
        </div>
        <ChatHistory />
        <div className="sidebar-footer">
          {user && (
            <Tooltip text="Referral Link">
              <button type="button" className="icon-btn" aria-label="Referral Link" onClick={() => openSettings("referral")}>
                <Icon name="gift" />
              </button>
            </Tooltip>
          )}
          <Tooltip text="Help">
            <Link to="/app/contact-us" className="icon-btn" aria-label="Help">
              <Icon name="help" />
            </Link>
          </Tooltip>
          <Tooltip text="Privacy Policy">
            <Link to="/app/privacy-policy" className="icon-btn" aria-label="Privacy Policy">
              <Icon name="shield" />
            </Link>
          </Tooltip>
          <Tooltip text="Terms of Use">
            <Link to="/app/terms-of-use" className="icon-btn" aria-label="Terms of Use">
              <Icon name="scroll" />
            </Link>
          </Tooltip>
          {user && (
            <Tooltip text="Settings">
              <button type="button" className="icon-btn" aria-label="Settings" onClick={() => openSettings("profile")}>
                <Icon name="settings" />
              </button>
            </Tooltip>
          )}
        </div>
      </aside>
    </>
  );
}
