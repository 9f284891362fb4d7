// A page whose code could not be loaded (or that broke): said in the page's
// place, with Reload, inside the layout where there is one. In the main bundle,
// since it stands in for pages that did not arrive.
import { useRouteError } from "react-router-dom";
import { RELOAD_ADVICE } from "../components/LoadBoundary";

export function PageError() {
  console.error("a page could not be shown", useRouteError());
  return (
    <main className="page">
      <h1>This page could not be loaded</h1>
      <p role="alert">
        {RELOAD_ADVICE}{" "}
        <button type="button" className="link-btn" onClick={() => window.location.reload()}>
          Reload
        </button>
      </p>
    </main>
  );
}
