// Header: logo home, version label, Log in / Sign up or the avatar menu.
import { useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { useSnapshot } from "valtio";
import { Icon } from "../components/Icon";
import { APP_VERSION } from "../lib/constants";
import { focusFirstItem, moveMenuFocus } from "../components/menuFocus";
import { appInfo, openSettings, toggleSidebar } from "../state/app";
import { signOut, userInfo } from "../state/user";

export function Header() {
  const { user } = useSnapshot(userInfo);
  const { isSidebarOpen } = useSnapshot(appInfo);
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);
  const avatarRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!menuOpen) return;
    focusFirstItem(menuRef.current);
    const close = (event: MouseEvent) => {
      if (!menuRef.current?.contains(event.target as Node)) setMenuOpen(false);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, [menuOpen]);

  function onMenuKey(event: React.KeyboardEvent<HTMLDivElement>) {
    if (moveMenuFocus(event)) return;
    if (event.key === "Escape" || event.key === "Tab") {
      if (event.key === "Escape") avatarRef.current?.focus();
      setMenuOpen(false);
    }
  }

  async function onSignOut() {
    setMenuOpen(false);
    await signOut();
    navigate("/");
  }

  return (
    <header className="app-header">
      <button
        type="button"
        className="icon-btn menu-toggle"
        aria-label="Toggle sidebar"
        aria-expanded={isSidebarOpen}
        onClick={() => toggleSidebar()}
      >
        <Icon name="menu" />
      </button>
      <Link to="/" className="logo" aria-label="DocChat home">
        <span className="logo-mark">
          <Icon name="logo" size={24} />
        </span>
        DocChat
      </Link>
      <span className="version">{APP_VERSION}</span>
      <div className="header-actions">
        {user ? (
          <div className="avatar-menu" ref={menuRef}>
            <button
              ref={avatarRef}
              type="button"
              className="avatar"
              aria-haspopup="menu"
              aria-expanded={menuOpen}
              // the name starts with the visible initials (WCAG label in name)
              aria-label={`${user.email.slice(0, 2)}: Account menu for ${user.email}`}
              onClick={() => setMenuOpen(!menuOpen)}
            >
              {user.email.slice(0, 2)}
            </button>
            {menuOpen && (
              <div className="menu" role="menu" onKeyDown={onMenuKey}>
                <button
                  type="button"
                  role="menuitem"
                  onClick={() => {
                    setMenuOpen(false);
                    // the settings dialog returns focus to the avatar when it closes
                    avatarRef.current?.focus();
                    openSettings("profile");
                  }}
                >
                  Settings
                </button>
                <button type="button" role="menuitem" onClick={onSignOut}>
                  Sign out
                </button>
              </div>
            )}
          </div>
        ) : (
          <>
            <Link to="/app/auth/login" className="btn btn-outline">
              Log in
            </Link>
            <Link to="/app/auth/register" className="btn btn-primary signup-btn">
              Sign up
            </Link>
          </>
        )}
      </div>
    </header>
  );
}
