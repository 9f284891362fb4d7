// Where a cited passage sits in a page's text layer. The server keeps each
// source's span in the page's normalised text (the text items joined, a line
// end after each item that ends a line, whitespace runs folded to one space,
// trimmed: worker/library/chunker.ts), so the viewer rebuilds that text from the
// same pdf.js items and marks the items the span covers. If the page's text
// differs a little (another pdf.js build, hyphenation), the passage's first
// words, compared without spaces or hyphens, find it again near the span. A
// source may cite more passages of its page (`more`): each is found the same way.
// What the answer quotes under a source's number is found the same way too
// (quotesFor, quotedSpans), so the viewer can mark the quoted sentence itself.

/** What the text layer needs of one pdf.js text item. */
export interface TextItem {
  str: string;
  hasEOL?: boolean;
}

export interface PageText {
  /** the page's normalised text, as the server indexed it */
  text: string;
  /** for each item, the position in `text` of each of its characters (whitespace folded into one space) */
  positions: number[][];
}

export interface Span {
  start: number;
  end: number;
}

/** Where one passage was stored: its span in the page's normalised text and its first words. */
export interface StoredPassage {
  charStart?: number;
  charEnd?: number;
  quote?: string;
}

/** A piece of one item to mark: characters [from, to) of items[item].str. */
export interface MarkedRange {
  item: number;
  from: number;
  to: number;
}

export function pageText(items: readonly TextItem[]): PageText {
  let text = "";
  let pendingSpace = false;
  const positions: number[][] = [];
  // offsets are UTF-16 code units, as the server's string offsets are
  const place = (ch: string): number => {
    if (/\s/.test(ch)) {
      if (text.length > 0) pendingSpace = true; // leading whitespace is trimmed
      return text.length; // where the folded space will go
    }
    if (pendingSpace) {
      text += " ";
      pendingSpace = false;
    }
    text += ch;
    return text.length - 1;
  };
  for (const item of items) {
    const at: number[] = [];
    for (let i = 0; i < item.str.length; i++) at.push(place(item.str[i]!));
    positions.push(at);
    if (item.hasEOL) place("\n");
  }
  return { text, positions };
}

/** The text without whitespace and hyphens, and where each of its characters is in `text`. */
function compact(text: string): { chars: string; at: number[] } {
  let chars = "";
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (/[\s\-\u00ad\u2010\u2011]/.test(ch)) continue;
    chars += ch.toLowerCase();
    at.push(i);
  }
  return { chars, at };
}

const MIN_QUOTE = 12;

/**
 * The cited span on this page: the stored span when the page's text there
 * starts with the passage's first words, otherwise those words found again
 * (the occurrence nearest the stored span), otherwise the stored span if it
 * fits the page, otherwise null.
 */
export function citedSpan(text: string, stored: StoredPassage): Span | null {
  const { charStart, charEnd, quote } = stored;
  const hasSpan = charStart !== undefined && charEnd !== undefined && charEnd > charStart;
  const length = hasSpan ? charEnd - charStart : (quote?.length ?? 0);
  const wanted = quote ? compact(quote).chars : "";
  if (wanted.length >= MIN_QUOTE) {
    const page = compact(text);
    if (hasSpan) {
      const here = compact(text.slice(charStart, charStart + quote!.length + 20)).chars;
      if (here.startsWith(wanted)) return { start: charStart, end: Math.min(text.length, charEnd) };
    }
    let best = -1;
    for (let i = page.chars.indexOf(wanted); i !== -1; i = page.chars.indexOf(wanted, i + 1)) {
      const start = page.at[i]!;
      if (best === -1 || Math.abs(start - (charStart ?? 0)) < Math.abs(best - (charStart ?? 0))) best = start;
    }
    if (best !== -1) return { start: best, end: Math.min(text.length, best + length) };
  }
  if (hasSpan && charStart < text.length) return { start: charStart, end: Math.min(text.length, charEnd) };
  return null;
}

/**
 * Every passage of a source found on this page: its own and each of `more`
 * (further passages of the page cited under the same number), overlapping or
 * touching ones merged, those not found left out. The span holding the
 * source's own passage comes first (the one to scroll to), then the others in
 * page order; without its own, all are in page order.
 */
export function citedSpans(text: string, source: StoredPassage & { more?: readonly StoredPassage[] }): Span[] {
  const own = citedSpan(text, source);
  const found = [own, ...(source.more ?? []).map((passage) => citedSpan(text, passage))]
    .filter((span): span is Span => span !== null)
    .sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const span of found) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  const lead = own ? merged.findIndex((span) => span.start <= own.start && own.start < span.end) : -1;
  return lead > 0 ? [merged[lead]!, ...merged.filter((_, i) => i !== lead)] : merged;
}

/** The pieces of items to mark so that exactly the span's characters are marked. */
export function markedRanges(page: PageText, span: Span): MarkedRange[] {
  const ranges: MarkedRange[] = [];
  page.positions.forEach((positions, item) => {
    let from = -1;
    for (let i = 0; i <= positions.length; i++) {
      const inside = i < positions.length && positions[i]! >= span.start && positions[i]! < span.end;
      if (inside && from === -1) from = i;
      if (!inside && from !== -1) {
        ranges.push({ item, from, to: i });
        from = -1;
      }
    }
  });
  return ranges;
}

/** A quote piece shorter than this is too common to mark ("Yes.", a figure alone). */
const MIN_QUOTED = 16;
const ITALIC_NOTE = /^_[^_].*_$/;

/**
 * What an answer quotes from its source [n]: the text before each "[n]" back to the line's start
 * or the citation before it, cut at each "…" (an excerpt), markdown and list bullets left out.
 * The viewer marks these on the page, within the passage it cites.
 */
export function quotesFor(answer: string, n: number): string[] {
  const quotes: string[] = [];
  for (const line of answer.split("\n")) {
    if (ITALIC_NOTE.test(line.trim())) continue;
    let from = 0;
    for (const cite of line.matchAll(/\[(\d{1,2}(?:\s*,\s*\d{1,2})*)\]/g)) {
      const quoted = line
        .slice(from, cite.index)
        .replace(/^\s*(?:[-*•]|\d+[.)])\s+/, "")
        .replace(/\*\*|__|`/g, "");
      from = cite.index + cite[0].length;
      if (!cite[1]!.split(",").some((m) => Number(m.trim()) === n)) continue;
      for (const piece of quoted.split("…")) if (piece.trim().length >= MIN_QUOTED) quotes.push(piece.trim());
    }
  }
  return quotes;
}

/** A quote's end on the page, with the stop that closes it there (a full stop, or a list item's ";"). */
const withStop = (text: string, end: number) => (/[.;:!?]/.test(text[end] ?? "") ? end + 1 : end);

/**
 * Where each quote is on the page: found as its characters are (spacing, hyphens and its closing
 * stop aside), within `within` (the cited passages) when it is there, else anywhere on the page;
 * null when any of them is not found (the viewer then marks the passages, which hold them all).
 */
export function quotedSpans(text: string, quotes: readonly string[], within: readonly Span[]): Span[] | null {
  const page = compact(text);
  const spans: Span[] = [];
  for (const quote of quotes) {
    // a list's item is quoted as a sentence of its own ("…exempt payee." for "…exempt payee; and")
    const wanted = compact(quote.replace(/[.;:,!?]+$/, "")).chars;
    const found: Span[] = [];
    for (let i = page.chars.indexOf(wanted); i !== -1; i = page.chars.indexOf(wanted, i + 1))
      found.push({ start: page.at[i]!, end: withStop(text, page.at[i + wanted.length - 1]! + 1) });
    const inside = found.find((span) => within.some((w) => span.start >= w.start && span.end <= w.end));
    const span = inside ?? found[0];
    if (!span) return null;
    if (!spans.some((s) => s.start === span.start)) spans.push(span);
  }
  return spans;
}
