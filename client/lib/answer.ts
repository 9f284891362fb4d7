// An answer as text to copy: its markdown as written, then its sources as
// "[n] file, p. N" lines, so a pasted answer still says where it came from.
import type { Source } from "../../worker/contract/protocol";

export function answerAsMarkdown(text: string, sources: readonly Source[] = []): string {
  if (sources.length === 0) return text;
  return `${text}\n\nSources:\n${sources.map((s) => `[${s.n}] ${s.fileName}, p. ${s.page}`).join("\n")}`;
}
