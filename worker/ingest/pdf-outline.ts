// A PDF's own outline (its bookmarks) read with PDFium: the first two levels, in
// order, each with the page its destination (or its go-to action's) opens.
import { OUTLINE_MAX_ENTRIES, OUTLINE_MAX_LEVEL, type OutlineEntry } from "../contract/overview";
import type { Pdfium } from "./pdfium";

/** Bookmarks looked at in all, so a broken outline (a loop of siblings) cannot hold the isolate. */
const MAX_VISITED = 2000;

export function readBookmarks(m: Pdfium, doc: number): OutlineEntry[] {
  const { wasmExports, UTF16ToString } = m.pdfium;
  const entries: OutlineEntry[] = [];
  const seen = new Set<number>();
  const title = (bookmark: number): string => {
    const bytes = m.FPDFBookmark_GetTitle(bookmark, 0, 0);
    if (bytes <= 2) return "";
    const buffer = wasmExports.malloc(bytes);
    if (!buffer) return "";
    try {
      m.FPDFBookmark_GetTitle(bookmark, buffer, bytes);
      return UTF16ToString(buffer, bytes).replace(/\s+/g, " ").trim();
    } finally {
      wasmExports.free(buffer);
    }
  };
  const page = (bookmark: number): number => {
    let dest = m.FPDFBookmark_GetDest(doc, bookmark);
    if (!dest) {
      const action = m.FPDFBookmark_GetAction(bookmark);
      if (action) dest = m.FPDFAction_GetDest(doc, action);
    }
    return dest ? m.FPDFDest_GetDestPageIndex(doc, dest) + 1 : 0;
  };
  const walk = (parent: number, level: number) => {
    for (
      let child = m.FPDFBookmark_GetFirstChild(doc, parent);
      child && !seen.has(child);
      child = m.FPDFBookmark_GetNextSibling(doc, child)
    ) {
      seen.add(child);
      if (seen.size > MAX_VISITED || entries.length >= OUTLINE_MAX_ENTRIES) return;
      const text = title(child);
      const at = page(child);
      if (text && at > 0) entries.push({ title: text.slice(0, 200), page: at, level });
      if (level < OUTLINE_MAX_LEVEL) walk(child, level + 1);
    }
  };
  walk(0, 1);
  return entries;
}
