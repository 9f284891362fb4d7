// An answer as text to copy: its markdown as written, then its sources as
// "[n] file, p. N" lines, so a pasted answer still says where it came from,
// then its check in words: the line shown under it and, for each sentence not
// found on its cited pages, that sentence and why (#43).
import { checkSummary, uncheckedNote, type SentenceCheck } from "../../worker/contract/checks";
import type { Source } from "../../worker/contract/protocol";

/** "p. 3", or "p. 3 (recognised text)" when the passage was read from a scanned page. */
export function sourcePage(source: Pick<Source, "page" | "recognised">): string {
  return source.recognised ? `p. ${source.page} (recognised text)` : `p. ${source.page}`;
}

export function answerAsMarkdown(text: string, sources: readonly Source[] = [], checks: readonly SentenceCheck[] = []): string {
  const parts = [text];
  if (sources.length) parts.push(`Sources:\n${sources.map((s) => `[${s.n}] ${s.fileName}, ${sourcePage(s)}`).join("\n")}`);
  // an answer stored before checks says nothing of them (checkSummary of no checks would say "checked")
  const summary = checks.length ? checkSummary(checks, sources) : null;
  if (summary) {
    const notes = checks.filter((c) => c.status === "unsupported").map((c) => uncheckedNote(c, sources));
    parts.push([summary, ...notes].join("\n"));
  }
  return parts.join("\n\n");
}
