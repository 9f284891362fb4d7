// The document viewer beside the chat: which answer's sources it steps
// through and which one it shows. Loading the file is the viewer's own work
// (client/components/viewer), so none of it is in the first-visit bundle.
import { proxy } from "valtio";
import type { Source } from "../../worker/contract/protocol";
import { quotesFor } from "../lib/highlight";

/** A source as the viewer shows it: with what the answer quotes from it, marked on its page. */
export type ViewedSource = Source & { quotes?: readonly string[] };

export const viewer = proxy<{
  /** the sources of the answer whose citation was opened, in [n] order */
  sources: ViewedSource[];
  /** which of them is shown; -1 = the viewer is closed */
  index: number;
}>({ sources: [], index: -1 });

/** Opens the viewer at citation [n] of an answer with these sources (and its text: the sentences it quotes are marked). */
export function openCitation(sources: readonly Source[], n: number, answer = ""): void {
  viewer.sources = sources.map((s) => ({ ...s, quotes: quotesFor(answer, s.n) }));
  viewer.index = Math.max(
    0,
    viewer.sources.findIndex((s) => s.n === n),
  );
}

/** Shows source number `index` of the open answer. */
export function showCitation(index: number): void {
  if (index >= 0 && index < viewer.sources.length) viewer.index = index;
}

export function closeViewer(): void {
  viewer.sources = [];
  viewer.index = -1;
}
