// The "Document overview" card of each document in the chat: its page count, its outline
// (each entry opens the viewer at its page), a three-sentence summary and three suggested
// questions (a click asks one, as the follow-up chips do). One card per document per chat,
// collapsible; fetched once the document is indexed (GET /api/documents/:fileId/overview).
import { useEffect, useState } from "react";
import { useSnapshot } from "valtio";
import type { DocumentOverview as Overview } from "../../../worker/contract/overview";
import { api } from "../../lib/api";
import { chatState } from "../../state/chat";
import { openCitation } from "../../state/viewer";
import "./overview.css";
import { SuggestionChips } from "./SuggestionChips";

/** Overviews fetched in this tab, by file id: a document's does not change once indexed. */
const fetched = new Map<string, Promise<Overview | null>>();
/** Cards the user folded, by chat and file. */
const folded = new Set<string>();

function loadOverview(fileId: string): Promise<Overview | null> {
  let pending = fetched.get(fileId);
  if (!pending) {
    // not the caller's document (a shared chat's) or no overview: no card, and asked again next time
    pending = api<Overview>("GET", `/api/documents/${encodeURIComponent(fileId)}/overview`).catch(() => {
      fetched.delete(fileId);
      return null;
    });
    fetched.set(fileId, pending);
  }
  return pending;
}

function useOverview(fileId: string, ready: boolean): Overview | null {
  const [overview, setOverview] = useState<Overview | null>(null);
  useEffect(() => {
    if (!ready) return;
    let live = true;
    void loadOverview(fileId).then((o) => live && setOverview(o));
    return () => {
      live = false;
    };
  }, [fileId, ready]);
  return overview;
}

export function OverviewCard({ fileId, fileName, ready, chatId }: { fileId: string; fileName: string; ready: boolean; chatId: string }) {
  const overview = useOverview(fileId, ready);
  const key = `${chatId}:${fileId}`;
  const [open, setOpen] = useState(!folded.has(key));
  if (!overview) return null;
  const toggle = () => {
    if (open) folded.add(key);
    else folded.delete(key);
    setOpen(!open);
  };
  const openAt = (page: number) => openCitation([{ n: 1, fileId, fileName, page }], 1);
  return (
    <section className="document-overview" aria-label="Document overview">
      <header>
        <h2>{fileName}</h2>
        <span className="overview-pages">{overview.pages === 1 ? "1 page" : `${overview.pages} pages`}</span>
        <button type="button" className="overview-toggle" aria-expanded={open} onClick={toggle}>
          {open ? "Hide overview" : "Show overview"}
        </button>
      </header>
      {open && (
        <div className="overview-body">
          {overview.summary && <p className="overview-summary">{overview.summary}</p>}
          {overview.outline.length > 0 && (
            <nav aria-label={`Outline of ${fileName}`}>
              <ol className="overview-outline">
                {overview.outline.map((entry, i) => (
                  <li key={`${i}-${entry.page}`} className={`level-${entry.level}`}>
                    <button type="button" onClick={() => openAt(entry.page)}>
                      <span>{entry.title}</span>
                      <span className="overview-page">p. {entry.page}</span>
                    </button>
                  </li>
                ))}
              </ol>
            </nav>
          )}
          {overview.questions.length > 0 && (
            <SuggestionChips questions={overview.questions} label={`Suggested questions about ${fileName}`} />
          )}
        </div>
      )}
    </section>
  );
}

/** A card for each of the chat's documents (each once), shown once it is indexed. */
export function DocumentOverviews() {
  const { files, sessionId } = useSnapshot(chatState);
  if (!sessionId || files.length === 0) return null;
  const seen = new Set<string>();
  const unique = files.filter((f) => !seen.has(f.fileId) && seen.add(f.fileId));
  return (
    <div className="document-overviews">
      {unique.map((file) => (
        <OverviewCard
          key={`${sessionId}:${file.fileId}`}
          fileId={file.fileId}
          fileName={file.fileName}
          ready={file.status === "indexed" || file.status === "needs_ocr"}
          chatId={sessionId}
        />
      ))}
    </div>
  );
}
