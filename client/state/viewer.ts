// The document viewer beside the chat: which answer's sources it steps
// through and which one it shows. Loading the file is the viewer's own work
// (client/components/viewer), so none of it is in the first-visit bundle.
import { proxy } from "valtio";
import type { Source } from "../../worker/contract/protocol";

export const viewer = proxy<{
  /** the sources of the answer whose citation was opened, in [n] order */
  sources: Source[];
  /** which of them is shown; -1 = the viewer is closed */
  index: number;
}>({ sources: [], index: -1 });

/** Opens the viewer at citation [n] of an answer with these sources. */
export function openCitation(sources: readonly Source[], n: number): void {
  viewer.sources = sources.map((s) => ({ ...s }));
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
