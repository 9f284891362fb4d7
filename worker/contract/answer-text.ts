// An answer as text that stands on its own (#43, #45): its markdown as written, then its sources
// as "[n] file, p. N" lines, then its check in words: the line shown under it and, for each
// sentence not found on its cited pages, that sentence and why. Copy (client/lib/answer.ts) and the
// chat export (worker/services/chat-export.ts) both write answers this way.
import { checkSummary, uncheckedNote, type SentenceCheck } from "./checks";
import type { Source } from "./protocol";

/** "p. 3", or "p. 3 (recognised text)" when the passage was read from a scanned page. */
export function sourcePage(source: Pick<Source, "page" | "recognised">): string {
  return source.recognised ? `p. ${source.page} (recognised text)` : `p. ${source.page}`;
}

/** "[1] p17.pdf, p. 3" for each source of an answer. */
export function sourceLines(sources: readonly Source[] = []): string[] {
  return sources.map((s) => `[${s.n}] ${s.fileName}, ${sourcePage(s)}`);
}

/** The check in words: the line under the answer, then one note per unsupported sentence; none for an answer stored before checks. */
export function checkLines(checks: readonly SentenceCheck[] = [], sources: readonly Source[] = []): string[] {
  // checkSummary of no checks would say "checked"
  const summary = checks.length ? checkSummary(checks, sources) : null;
  if (!summary) return [];
  return [summary, ...checks.filter((c) => c.status === "unsupported").map((c) => uncheckedNote(c, sources))];
}

/** An answer's text, its source lines and its check lines as one block of Markdown. */
export function answerBlock(text: string, sources: readonly string[], checks: readonly string[]): string {
  const parts = [text];
  if (sources.length) parts.push(`Sources:\n${sources.join("\n")}`);
  if (checks.length) parts.push(checks.join("\n"));
  return parts.join("\n\n");
}

export function answerAsMarkdown(text: string, sources: readonly Source[] = [], checks: readonly SentenceCheck[] = []): string {
  return answerBlock(text, sourceLines(sources), checkLines(checks, sources));
}
