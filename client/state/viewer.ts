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
  /** the page drawn at this many times the panel's width (a phone's panel is too narrow to read a page) */
  zoom: number;
}>({ sources: [], index: -1, zoom: 1 });

/** The zooms the viewer steps through. */
export const ZOOMS = [1, 1.5, 2, 3] as const;

/** One zoom step in (1) or out (-1), within ZOOMS. */
export function zoomViewer(step: 1 | -1): void {
  const at = ZOOMS.findIndex((z) => z === viewer.zoom);
  viewer.zoom = ZOOMS[Math.min(ZOOMS.length - 1, Math.max(0, at + step))]!;
}

/** Opens the viewer at citation [n] of an answer with these sources (and its text: the sentences it quotes are marked). */
export function openCitation(sources: readonly Source[], n: number, answer = ""): void {
  viewer.sources = sources.map((s) => ({ ...s, quotes: quotesFor(answer, s.n) }));
  viewer.zoom = 1;
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
  viewer.zoom = 1;
}
