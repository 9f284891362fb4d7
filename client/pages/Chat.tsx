// The chat screen (spec sections 2, 4 and 5), at "/" and "/app/chat". With no
// messages it shows the landing variant; otherwise the message list. The
// composer stays at the bottom with the attach menu, the memo button and the
// "local mode" label. One realtime connection serves the current session.
import { useSnapshot } from "valtio";
import { AttachMenu } from "../components/chat/AttachMenu";
import "../components/chat/chat.css";
import { Composer } from "../components/chat/Composer";
import { MemoButton } from "../components/chat/MemoButton";
import { MessageList } from "../components/chat/MessageList";
import { Icon } from "../components/Icon";
import { chatState, dismissUploadError, removeAttachment, sendQuestion } from "../state/chat";

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

export default function Chat() {
  const { messages, loading, mode, readOnly, pendingAttachment, uploading, uploadError } = useSnapshot(chatState);
  const hasMessages = messages.length > 0;

  return (
    <main className="page chat-page">
      <h1 className="chat-greeting">Hello, how can I help you?</h1>
      {hasMessages ? <MessageList /> : <Landing />}

      <div className="chat-dock">
        {uploadError && (
          <div className="chat-banner" role="alert">
            <span>{uploadError}</span>
            <button type="button" className="icon-btn" aria-label="Dismiss" onClick={dismissUploadError}>
              <Icon name="close" size={18} />
            </button>
          </div>
        )}
        {(pendingAttachment || uploading) && (
          <div className="chat-attachments">
            {uploading ? (
              <span className="attachment-chip uploading" role="status">
                <Icon name="upload" size={14} />
                <span className="attachment-name">{uploading.name}</span>
                <span>{uploading.percent}%</span>
              </span>
            ) : pendingAttachment ? (
              <span className="attachment-chip">
                <Icon name="files" size={14} />
                <span className="attachment-name">{pendingAttachment.name}</span>
                <button type="button" aria-label={`Remove ${pendingAttachment.name}`} onClick={removeAttachment}>
                  <Icon name="close" size={14} />
                </button>
              </span>
            ) : null}
          </div>
        )}
        <Composer
          onSend={sendQuestion}
          busy={loading || Boolean(uploading)}
          readOnly={readOnly}
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
          <MemoButton visible={hasMessages} />
        </div>
      </div>
    </main>
  );
}
