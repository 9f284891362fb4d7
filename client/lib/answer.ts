// An answer as text to copy: its markdown as written, then its sources as
// "[n] file, p. N" lines, so a pasted answer still says where it came from.
import type { Source } from "../../worker/contract/protocol";

/** "p. 3", or "p. 3 (recognised text)" when the passage was read from a scanned page. */
export function sourcePage(source: Pick<Source, "page" | "recognised">): string {
  return source.recognised ? `p. ${source.page} (recognised text)` : `p. ${source.page}`;
}

export function answerAsMarkdown(text: string, sources: readonly Source[] = []): string {
  if (sources.length === 0) return text;
  return `${text}\n\nSources:\n${sources.map((s) => `[${s.n}] ${s.fileName}, ${sourcePage(s)}`).join("\n")}`;
}
