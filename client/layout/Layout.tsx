// The shared layout: header, sidebar, the routed page, footer, and the dialogs.
import { Outlet } from "react-router-dom";
import { SettingsDialog } from "../components/settings/SettingsDialog";
import { useSnapshot } from "valtio";
import { appInfo } from "../state/app";
import { useChatConnection } from "../state/chatConnection";
import { Footer } from "./Footer";
import { Header } from "./Header";
import { Sidebar } from "./Sidebar";

export function Layout() {
  const { isSidebarOpen } = useSnapshot(appInfo);
  // One chat connection for the whole layout, so the sidebar history stays current on every page.
  useChatConnection();
  return (
    <div className={isSidebarOpen ? "app-shell sidebar-is-open" : "app-shell"}>
      <Header />
      <div className="app-body">
        <Sidebar />
        <div className="app-content">
          <Outlet />
          <Footer />
        </div>
      </div>
      <SettingsDialog />
    </div>
  );
}
