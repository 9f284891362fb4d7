import { StrictMode, useEffect } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router-dom";
import { ErrorModal } from "./components/ErrorModal";
import { setNavigator } from "./lib/api";
import { routes } from "./routes";
import { subscribeKey } from "valtio/utils";
import { applyTheme } from "./lib/theme";
import { appInfo } from "./state/app";
import { restoreState } from "./state/persist";
import "./styles.css";

const router = createBrowserRouter(routes);

function App() {
  useEffect(() => setNavigator((path) => void router.navigate(path)), []);
  return (
    <>
      <RouterProvider router={router} />
      {/* outside the layout so it also shows on the login page after a forced logout */}
      <ErrorModal />
    </>
  );
}

// Render once the saved state is back (or its 5 s restore timeout passed).
void restoreState().then(() => {
  applyTheme(appInfo.theme);
  subscribeKey(appInfo, "theme", applyTheme);
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
