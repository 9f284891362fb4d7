// The viewer beside the chat (a full-screen sheet on phones): the cited page of
// the cited file with the passage marked, previous/next citation of the same
// answer, and Close; zoom out and in (the page scrolls both ways) and "Open in
// new tab" (the browser's own viewer at that page) only for the owner: a shared
// chat's reader sees no page.
// Loaded only when a citation is opened, with pdf.js behind it.
import { useEffect, useRef } from "react";
import { useSnapshot } from "valtio";
import { openSource } from "../../state/documents";
import { sourcePage } from "../../lib/answer";
import { closePdfs } from "../../lib/pdf";
import { chatState } from "../../state/chat";
import { closeViewer, showCitation, viewer, ZOOMS, zoomViewer } from "../../state/viewer";
import { Icon } from "../Icon";
import { PdfPage } from "./PdfPage";
import { forgetLinks, useDocumentLink } from "./useDocumentLink";
import "./viewer.css";

export const OWNER_ONLY = "Only the chat's owner can open its documents.";

export default function DocumentViewer() {
  const { sources, index, zoom } = useSnapshot(viewer);
  const closeRef = useRef<HTMLButtonElement>(null);
  const source = sources[index];
  // a shared chat's reader sees the answer, not the owner's files
  const { readOnly } = useSnapshot(chatState);
  const { url, error } = useDocumentLink(readOnly ? null : (source?.fileId ?? null), source?.fileName ?? "");

  useEffect(() => {
    // the citation that opened it gets the focus back when it closes
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeRef.current?.focus();
    // closing the viewer frees the opened documents and their links
    return () => {
      closePdfs();
      forgetLinks();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented && !document.querySelector("[role=dialog][aria-modal=true]")) closeViewer();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  if (!source) return null;
  return (
    <aside className="doc-viewer" aria-label="Document viewer">
      <header className="doc-viewer-bar">
        <div className="doc-viewer-title">
          <strong title={source.fileName}>
            [{source.n}] {source.fileName}
          </strong>
          <span>{sourcePage(source)}</span>
        </div>
        <div className="doc-viewer-actions">
          <button
            type="button"
            className="btn btn-ghost"
            aria-label="Previous citation"
            disabled={index <= 0}
            onClick={() => showCitation(index - 1)}
          >
            ‹
          </button>
          <span className="doc-viewer-count">
            {index + 1} / {sources.length}
          </span>
          <button
            type="button"
            className="btn btn-ghost"
            aria-label="Next citation"
            disabled={index >= sources.length - 1}
            onClick={() => showCitation(index + 1)}
          >
            ›
          </button>
          {!readOnly && (
            <>
              <button
                type="button"
                className="btn btn-ghost"
                aria-label="Zoom out"
                disabled={zoom <= ZOOMS[0]}
                onClick={() => zoomViewer(-1)}
              >
                −
              </button>
              <button
                type="button"
                className="btn btn-ghost"
                aria-label="Zoom in"
                disabled={zoom >= ZOOMS.at(-1)!}
                onClick={() => zoomViewer(1)}
              >
                +
              </button>
              <button type="button" className="link-btn" onClick={() => void openSource(source)}>
                Open in new tab
              </button>
            </>
          )}
          <button ref={closeRef} type="button" className="btn btn-ghost" aria-label="Close viewer" onClick={closeViewer}>
            <Icon name="close" size={16} />
          </button>
        </div>
      </header>
      <div className="doc-viewer-body">
        {readOnly ? (
          <p className="viewer-status" role="status">
            {OWNER_ONLY}
          </p>
        ) : error ? (
          <p className="viewer-status viewer-error" role="alert">
            {error}
          </p>
        ) : url ? (
          <PdfPage url={url} source={source} zoom={zoom} />
        ) : (
          <p className="viewer-status">Opening {source.fileName}…</p>
        )}
      </div>
    </aside>
  );
}
