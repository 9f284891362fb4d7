// The shared layout: header, sidebar, the routed page, footer, and the dialogs.
import { lazy, Suspense, useEffect } from "react";
import { Outlet, useSearchParams } from "react-router-dom";
import { useSnapshot } from "valtio";
import { LoadBoundary, RELOAD_ADVICE } from "../components/LoadBoundary";
import { Modal } from "../components/Modal";
import { appInfo, closeSettings, openSettings, SETTINGS_PARAM } from "../state/app";
import { useChatConnection } from "../state/chatConnection";
import { Footer } from "./Footer";
import { Header } from "./Header";
import { Shortcuts } from "./Shortcuts";
import { Sidebar } from "./Sidebar";

// Settings (and the form validation it carries) loads when it is first opened
const SettingsDialog = lazy(() => import("../components/settings/SettingsDialog").then((m) => ({ default: m.SettingsDialog })));

export function Layout() {
  const { isSidebarOpen, isOpenSettingsModal } = useSnapshot(appInfo);
  // One chat connection for the whole layout, so the sidebar history stays current on every page.
  useChatConnection();
  useSettingsReturn();
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
      <Shortcuts />
      {isOpenSettingsModal && (
        <LoadBoundary fallback={<SettingsUnavailable />}>
          <Suspense fallback={null}>
            <SettingsDialog />
          </Suspense>
        </LoadBoundary>
      )}
    </div>
  );
}

/** Back from a checkout cancelled in Settings (?settings=subscription): Settings opens again on its tab. */
function useSettingsReturn() {
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    if (params.get(SETTINGS_PARAM) !== "subscription") return;
    openSettings("subscription");
    const rest = new URLSearchParams(params);
    rest.delete(SETTINGS_PARAM);
    setParams(rest, { replace: true });
  }, [params, setParams]);
}

/** In the settings' place when their code could not be fetched. */
function SettingsUnavailable() {
  return (
    <Modal title="Settings" onClose={closeSettings} closeButton>
      <p role="alert">Settings could not be loaded. {RELOAD_ADVICE}</p>
    </Modal>
  );
}
