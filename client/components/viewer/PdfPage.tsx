// One page of a PDF, drawn by pdf.js at the panel's width with its text layer,
// the cited passages marked on it (the source's own and any more it cites on
// the page) and the first of them scrolled into view.
import { useEffect, useRef, useState } from "react";
import type { ViewedSource } from "../../state/viewer";
import { citedSpans, markedRanges, pageText, quotedSpans, type MarkedRange, type TextItem } from "../../lib/highlight";
import { loadPdfJs, openPdf } from "../../lib/pdf";
import { RELOAD_ADVICE } from "../LoadBoundary";

interface PdfPageProps {
  url: string;
  source: ViewedSource;
  /** drawn at this many times the panel's width */
  zoom?: number;
}

/**
 * Wraps the marked characters of each text element in <mark>, one list of
 * ranges per passage; returns the first mark of the first passage that got
 * one (the passages come lead first), or null when nothing was marked.
 */
function markPassages(elements: readonly HTMLElement[], passages: readonly (readonly MarkedRange[])[]): HTMLElement | null {
  const firsts: (HTMLElement | undefined)[] = [];
  const byItem = new Map<number, (MarkedRange & { passage: number })[]>();
  passages.forEach((ranges, passage) => {
    for (const range of ranges) byItem.set(range.item, [...(byItem.get(range.item) ?? []), { ...range, passage }]);
  });
  for (const [item, pieces] of byItem) {
    const element = elements[item];
    const text = element?.textContent;
    if (!element || !text) continue;
    const parts: (string | HTMLElement)[] = [];
    let at = 0;
    for (const { from, to, passage } of pieces.sort((a, b) => a.from - b.from)) {
      if (from > at) parts.push(text.slice(at, from));
      const mark = document.createElement("mark");
      mark.className = "cited-passage";
      mark.textContent = text.slice(from, to);
      firsts[passage] ??= mark;
      parts.push(mark);
      at = to;
    }
    if (at < text.length) parts.push(text.slice(at));
    element.replaceChildren(...parts);
  }
  return firsts.find((mark) => mark !== undefined) ?? null;
}

export function PdfPage({ url, source, zoom = 1 }: PdfPageProps) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<{ status: "loading" | "ready" | "error"; note?: string }>({ status: "loading" });

  useEffect(() => {
    const box = host.current;
    if (!box) return;
    let cancelled = false;
    const cleanups: (() => void)[] = [];
    setState({ status: "loading" });
    (async () => {
      const lib = await loadPdfJs();
      const doc = await openPdf(source.fileId, url);
      if (cancelled) return;
      if (source.page > doc.numPages) throw new PageMissing(`${source.fileName} has no page ${source.page}.`);
      const page = await doc.getPage(source.page);
      const scale = Math.max(0.5, (box.clientWidth || 600) / page.getViewport({ scale: 1 }).width);
      const viewport = page.getViewport({ scale });
      const ratio = window.devicePixelRatio || 1;

      const canvas = document.createElement("canvas");
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      canvas.style.width = `${Math.floor(viewport.width)}px`;
      canvas.style.height = `${Math.floor(viewport.height)}px`;
      const render = page.render({ canvas, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
      cleanups.push(() => render.cancel());
      await render.promise;

      const content = await page.getTextContent();
      const layer = document.createElement("div");
      layer.className = "textLayer";
      layer.style.setProperty("--total-scale-factor", String(scale));
      const textLayer = new lib.TextLayer({ textContentSource: content, container: layer, viewport });
      cleanups.push(() => textLayer.cancel());
      await textLayer.render();
      if (cancelled) return;

      const items = content.items.filter((item): item is TextItem & (typeof content.items)[number] => "str" in item);
      const text = pageText(items);
      const spans = citedSpans(text.text, source);
      // the sentences the answer quotes are marked where they are found, in the passage it cites; unless
      // one of them is not the page's own text (a table's row as a labelled line): then the passages
      const quoted = quotedSpans(text.text, source.quotes ?? [], spans);
      box.replaceChildren(canvas, layer);
      const first = markPassages(
        textLayer.textDivs,
        (quoted?.length ? quoted : spans).map((span) => markedRanges(text, span)),
      );
      first?.scrollIntoView?.({ block: "center" });
      setState({ status: "ready", note: first ? undefined : "The cited passage could not be marked on this page." });
    })().catch((err: unknown) => {
      if (cancelled || (err as Error)?.name === "RenderingCancelledException") return;
      console.error("The document viewer failed", err);
      // pdf.js's own errors are for developers ("Invalid `workerSrc` type."): the reader gets a plain one
      setState({
        status: "error",
        note: err instanceof PageMissing ? err.message : `${source.fileName} could not be shown. ${RELOAD_ADVICE}`,
      });
    });
    return () => {
      cancelled = true;
      cleanups.forEach((cleanup) => cleanup());
      box.replaceChildren();
    };
  }, [url, source, zoom]);

  return (
    <div className="pdf-page-wrap" aria-busy={state.status === "loading"}>
      {state.status === "loading" && <p className="viewer-status">Loading page {source.page}…</p>}
      {state.note && (
        <p className={state.status === "error" ? "viewer-status viewer-error" : "viewer-status"} role="status">
          {state.note}
        </p>
      )}
      <div ref={host} className="pdf-page" data-page={source.page} style={{ width: `${zoom * 100}%` }} />
    </div>
  );
}

/** The cited page is past the document's end (a file replaced since). */
class PageMissing extends Error {}
