// The messages of the current chat: user bubbles, answers with [n] citations, a
// compact Sources list and the line saying how the answer's figures were checked
// (AnswerCheck.tsx), and the "Please wait a moment..." placeholder. The
// list scrolls to its end 100 ms after the messages change.
import { useEffect, useRef, useState } from "react";
import { useSnapshot, type Snapshot } from "valtio";
import type { SentenceCheck } from "../../../worker/contract/checks";
import { CHAT_MESSAGES, type Source } from "../../../worker/contract/protocol";
import { answerAsMarkdown, sourcePage } from "../../lib/answer";
import { chatState, type ChatItem } from "../../state/chat";
import { regenerableId, regenerateAnswer, retryInterrupted } from "../../state/chatMessages";
import { openCitation } from "../../state/viewer";
import { Icon } from "../Icon";
import { CheckLine } from "./AnswerCheck";
import { RichText } from "./RichText";
import { SuggestionChips } from "./SuggestionChips";

export const SCROLL_DELAY_MS = 100;

function Sources({ sources, answer }: { sources: readonly Source[]; answer: string }) {
  return (
    <div className="chat-sources">
      <span className="chat-sources-title">Sources</span>
      <ol>
        {sources.map((s) => (
          <li key={s.n}>
            <a
              href={`#source-${s.n}`}
              onClick={(event) => {
                event.preventDefault();
                openCitation(sources, s.n, answer);
              }}
            >
              [{s.n}] {s.fileName}, {sourcePage(s)}
            </a>
          </li>
        ))}
      </ol>
    </div>
  );
}

const COPIED_MS = 2000;

/** The answer's checks as the contract's helpers take them (they only read the snapshot). */
const checksOf = (item: Snapshot<ChatItem>) => item.checks as readonly SentenceCheck[] | undefined;

/** Copy: the answer's markdown with its sources and its check as text; "Copied" for two seconds. */
function CopyAnswer({ item }: { item: Snapshot<ChatItem> }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  async function copy() {
    try {
      await navigator.clipboard.writeText(answerAsMarkdown(item.text, item.sources, checksOf(item)));
      setCopied(true);
    } catch (err) {
      console.error("Copy failed", err);
    }
  }
  return (
    <button type="button" className="link-btn chat-copy" onClick={() => void copy()} aria-live="polite">
      {copied ? "Copied" : "Copy"}
    </button>
  );
}

function Message({ item, canRegenerate }: { item: Snapshot<ChatItem>; canRegenerate: boolean }) {
  if (item.type === "loading") {
    return (
      // the status role goes inside: an <li> with another role leaves its list with a child that is no list item (axe "list")
      <li className="chat-message bot chat-waiting">
        <span role="status">
          <span className="typing-dots" aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
          {item.text}
        </span>
      </li>
    );
  }
  if (item.type === "user") {
    return (
      <li className="chat-message user">
        <div className="chat-bubble">
          {item.fileInfo?.length ? (
            <ul className="chat-files" aria-label="Attached files">
              {item.fileInfo.map((f, i) => (
                <li key={`${f.name}-${i}`} className="file-chip">
                  <Icon name="files" size={14} />
                  <span>{f.name}</span>
                </li>
              ))}
            </ul>
          ) : null}
          <p className="chat-user-text">{item.text}</p>
        </div>
      </li>
    );
  }
  const checks = checksOf(item);
  return (
    <li className="chat-message bot">
      <div className="chat-answer">
        {item.text && (
          <RichText
            text={item.text}
            sources={item.sources}
            checks={checks}
            onCite={(s) => openCitation(item.sources ?? [], s.n, item.text)}
          />
        )}
        {item.sources?.length ? <Sources sources={item.sources} answer={item.text} /> : null}
        {checks?.length ? <CheckLine checks={checks} sources={item.sources} announce={item.announceCheck} /> : null}
        {item.interrupted && <Interrupted answerId={item.id} />}
        {item.stopped && <p className="chat-interrupted">{CHAT_MESSAGES.stopped}</p>}
        {(canRegenerate || (item.text && !item.interrupted)) && (
          <div className="chat-answer-actions">
            {item.text && !item.interrupted && <CopyAnswer item={item} />}
            {canRegenerate && (
              <button type="button" className="link-btn chat-copy" onClick={() => regenerateAnswer()}>
                Regenerate
              </button>
            )}
          </div>
        )}
        {canRegenerate && item.suggestions?.length ? <SuggestionChips questions={item.suggestions} label="Suggested questions" /> : null}
      </div>
    </li>
  );
}

/** The notice under an answer cut off by a restart, with Retry (the same question again). */
function Interrupted({ answerId }: { answerId: string }) {
  const { loading, readOnly } = useSnapshot(chatState);
  return (
    <p className="chat-interrupted" role="status">
      {CHAT_MESSAGES.interrupted}{" "}
      {!readOnly && (
        <button type="button" className="link-btn" disabled={loading} onClick={() => retryInterrupted(answerId)}>
          Retry
        </button>
      )}
    </p>
  );
}

export function MessageList() {
  const snapshot = useSnapshot(chatState);
  const { messages } = snapshot;
  const regenerable = regenerableId(snapshot);
  const endRef = useRef<HTMLDivElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // 100 ms after a change, bring the end of the chat (the page's end, so the
  // sticky composer sits below the last message) into view. While an answer
  // streams, a scroll already scheduled is not pushed back by the next chunk.
  useEffect(() => {
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      const end = endRef.current;
      const target = end?.closest<HTMLElement>(".chat-page") ?? end;
      target?.scrollIntoView?.({ behavior: "smooth", block: "end" });
    }, SCROLL_DELAY_MS);
  }, [messages]);
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      timer.current = undefined;
    },
    [],
  );

  return (
    <section className="chat-messages" aria-label="Messages">
      <ol className="chat-message-list">
        {messages.map((item) => (
          <Message key={item.id} item={item} canRegenerate={item.id === regenerable} />
        ))}
      </ol>
      <div ref={endRef} className="chat-end" aria-hidden="true" />
    </section>
  );
}
