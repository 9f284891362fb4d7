import { StrictMode, useEffect } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router-dom";
import { ErrorModal } from "./components/ErrorModal";
import { setNavigator } from "./lib/api";
import { routes } from "./routes";
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
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
