// The chat screen (spec sections 2, 4 and 5), at "/" and "/app/chat". With no
// messages it shows the landing variant; otherwise the message list. The
// composer stays at the bottom with the attach menu, the share, memo and export
// buttons and the "local mode" label. One realtime connection serves the current session.
// Signed-in users get the memo and (as the owner) the share dialogs. A shared
// link, /app/chat?session=<id>, opens that chat for a signed-in user (read-only
// unless they own it) and then drops the parameter; signed-out visitors are sent
// to the login page.
import { lazy, Suspense, useEffect, useState } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router-dom";
import { useSnapshot } from "valtio";
import { AttachMenu } from "../components/chat/AttachMenu";
import "../components/chat/chat.css";
import { ChatFiles } from "../components/chat/ChatFiles";
import { DocumentOverviews } from "../components/chat/DocumentOverview";
import { ExportMenu } from "../components/chat/ExportMenu";
import { RichText } from "../components/chat/RichText";
import { Composer } from "../components/chat/Composer";
import { MemoButton } from "../components/chat/MemoButton";
import { MemoModal } from "../components/chat/MemoModal";
import { MessageList } from "../components/chat/MessageList";
import { ShareButton } from "../components/chat/ShareButton";
import { chatState, clearDraft, dismissUploadError } from "../state/chat";
import { openSharedSession } from "../state/chatConnection";
import { sendQuestion, stopAnswer } from "../state/chatMessages";
import { startNewChat } from "../state/app";
import { userInfo } from "../state/user";
import { closeViewer, viewer } from "../state/viewer";
import { ErrorBanner } from "../components/ErrorBanner";
import { LoadBoundary, RELOAD_ADVICE } from "../components/LoadBoundary";
import { DropZone } from "../components/DropZone";
import { attachDroppedFiles } from "../state/chatDocuments";

// pdf.js and the viewer load with the first opened citation, not with the page
const DocumentViewer = lazy(() => import("../components/viewer/DocumentViewer"));
// the share dialog loads when it is first opened
const ShareModal = lazy(() => import("../components/chat/ShareModal").then((m) => ({ default: m.ShareModal })));

/** In the viewer's place when its code could not be fetched. */
function ViewerUnavailable() {
  return (
    <aside className="doc-viewer" aria-label="Document viewer">
      <p className="viewer-status viewer-error" role="alert">
        The document viewer could not be loaded. {RELOAD_ADVICE}{" "}
        <button type="button" className="link-btn" onClick={closeViewer}>
          Close
        </button>
      </p>
    </aside>
  );
}

/** The query parameter of a shared chat link. */
export const SHARED_SESSION_PARAM = "session";
/** Shown while the chat's connection is being opened again; an answer being written goes on once it is back. */
export const CONNECTION_LOST = "Connection lost. Reconnecting...";

/** Opens the chat of a shared link (`?session=<id>`), then removes the parameter from the address. */
function useSharedLink(): void {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const { user } = useSnapshot(userInfo);
  const shared = params.get(SHARED_SESSION_PARAM);
  const signedIn = Boolean(user);

  useEffect(() => {
    if (!shared) return;
    if (!signedIn) {
      navigate("/app/auth/login", { replace: true, state: { from: `${location.pathname}${location.search}` } });
      return;
    }
    openSharedSession(shared);
    const rest = new URLSearchParams(location.search);
    rest.delete(SHARED_SESSION_PARAM);
    const search = rest.toString();
    navigate({ pathname: location.pathname, search: search ? `?${search}` : "", hash: location.hash }, { replace: true });
  }, [shared, signedIn, navigate, location.pathname, location.search, location.hash]);
}

function Landing() {
  return (
    <section className="landing">
      <h2>Your AI assistant for business documents</h2>
      <h3>Overview</h3>
      <p>
        Ask questions about HR, tax, legal, business development and strategy. Give the assistant context by uploading your PDFs, and every
        answer tells you the file and page it came from.
      </p>
      <h3>Key Features</h3>
      <ul className="feature-list">
        <li>
          <strong>Centralized file management</strong>: keep documents from your device, Google Drive and other cloud storage in one place.
        </li>
        <li>
          <strong>Contextual AI support</strong>: answers grounded in your own documents, with page citations.
        </li>
        <li>
          <strong>Rapid memo and sharing</strong>: e-mail a summary memo of a chat or share it with colleagues.
        </li>
        <li>
          <strong>Minimalistic UI</strong>: nothing between you and your answers.
        </li>
      </ul>
    </section>
  );
}

/** A chat this user may not open: why, and the way back to their own chats. */
function NoAccess({ reason }: { reason: string }) {
  const { user } = useSnapshot(userInfo);
  const navigate = useNavigate();
  return (
    <main className="page chat-page">
      <section className="no-access" role="alert">
        <h1>{reason}</h1>
        <p>You are still signed in. Your own chats are in the history on the left.</p>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            startNewChat(user?.email);
            navigate("/app/chat");
          }}
        >
          Back to your chats
        </button>
      </section>
    </main>
  );
}

export default function Chat() {
  const { messages, loading, mode, readOnly, uploads, uploadError, draft, noAccess, sessionId, reconnecting } = useSnapshot(chatState);
  const { user } = useSnapshot(userInfo);
  const { index: viewing } = useSnapshot(viewer);
  const hasMessages = messages.length > 0;
  const [dialog, setDialog] = useState<"memo" | "share" | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  useSharedLink();

  // Signing out (or a forced logout) closes the dialogs with it.
  useEffect(() => {
    if (!user) setDialog(null);
  }, [user]);
  // Another chat (or leaving the chat) closes the viewer and forgets a failed export.
  useEffect(() => closeViewer, [sessionId]);
  useEffect(() => setExportError(null), [sessionId]);

  if (noAccess) return <NoAccess reason={noAccess} />;
  return (
    <main className={viewing >= 0 ? "page chat-page with-viewer" : "page chat-page"}>
      <h1 className="chat-greeting">Hello, how can I help you?</h1>
      {user && <DocumentOverviews />}
      {hasMessages ? <MessageList /> : <Landing />}

      <DropZone className="chat-dock" hint="Drop PDFs to add them to this chat" onFiles={attachDroppedFiles}>
        {uploadError && (
          // markdown: a plan-limit refusal carries its upgrade link
          <ErrorBanner message={<RichText text={uploadError} />} onDismiss={dismissUploadError} />
        )}
        {exportError && <ErrorBanner message={exportError} onDismiss={() => setExportError(null)} />}
        {reconnecting && (
          <p className="connection-notice" role="status">
            {CONNECTION_LOST}
          </p>
        )}
        <ChatFiles signedIn={Boolean(user)} />
        <Composer
          onSend={sendQuestion}
          onStop={loading ? stopAnswer : undefined}
          busy={loading || uploads.length > 0}
          readOnly={readOnly}
          draft={draft}
          onDraftTaken={clearDraft}
          leading={<AttachMenu disabled={readOnly} />}
        />
        <div className="chat-meta">
          {mode === "local" ? (
            <span className="mode-label" title="Answered by the built-in extractive responder (no AI model configured).">
              local mode
            </span>
          ) : (
            <span />
          )}
          <div className="chat-actions">
            <ShareButton onClick={() => setDialog("share")} />
            <MemoButton visible={hasMessages} onClick={user ? () => setDialog("memo") : undefined} />
            <ExportMenu onError={setExportError} />
          </div>
        </div>
      </DropZone>
      {dialog === "memo" && user && <MemoModal onClose={() => setDialog(null)} />}
      {dialog === "share" && user && (
        <LoadBoundary
          fallback={<ErrorBanner message={`The share dialog could not be loaded. ${RELOAD_ADVICE}`} onDismiss={() => setDialog(null)} />}
        >
          <Suspense fallback={null}>
            <ShareModal onClose={() => setDialog(null)} />
          </Suspense>
        </LoadBoundary>
      )}
      {viewing >= 0 && (
        <LoadBoundary fallback={<ViewerUnavailable />}>
          <Suspense fallback={null}>
            <DocumentViewer />
          </Suspense>
        </LoadBoundary>
      )}
    </main>
  );
}
