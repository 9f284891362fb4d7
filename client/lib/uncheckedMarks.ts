// Marking an answer's unsupported sentences (#43) without letting the answer write HTML: each one
// is fenced in the markdown by private-use characters (a start that names the check, an end), the
// markdown is rendered as usual, and rehypeUncheckedMarks turns each fence whose two ends sit in the
// same element into a <mark data-check="i">. A fence split across elements (a sentence that starts
// inside **bold** and ends outside it) is dropped: the sentence goes unmarked rather than the
// answer's structure being broken. The answer's own private-use characters in this range are
// removed first, so an answer cannot mark (or hide) anything itself. Known limit: a fence counts as
// a letter to markdown, so _underscore emphasis_ that opens or closes a marked sentence shows its
// underscores (*star emphasis* and **bold** are unaffected).
import type { ElementContent, Root, RootContent } from "hast";
import type { SentenceCheck } from "../../worker/contract/checks";

const END = 0xe000;
const START = 0xe100;
/** at most this many checks of one answer can be marked (one start character per check) */
const MAX_MARKS = 0x100;
const FENCES = /[\uE000\uE100-\uE1FF]/g;
const FENCE_SPLIT = /([\uE000\uE100-\uE1FF])/;
/** a fence inside an address, as the URL transform percent-encodes it (an autolink at a sentence's end) */
const ENCODED_FENCES = /%EE%80%80|%EE%8[4-7]%[89AB][0-9A-F]/gi;
/** block syntax a sentence may carry at the start of its line; the fence goes after it */
const BLOCK_MARKS = /^(?: {0,3}(?:#{1,6} +|> ?|[-*+] +|\d{1,9}[.)] +))*/;

interface Range {
  start: number;
  end: number;
  check: number;
}

/** Where each unsupported sentence sits in the text: in order of the checks, each found after the one before when it can be. */
function uncheckedRanges(text: string, checks: readonly SentenceCheck[]): Range[] {
  const ranges: Range[] = [];
  let cursor = 0;
  checks.slice(0, MAX_MARKS).forEach((check, i) => {
    const sentence = check.sentence;
    if (!sentence?.trim()) return;
    let at = text.indexOf(sentence, cursor);
    if (at >= 0) cursor = at + sentence.length;
    else at = text.indexOf(sentence);
    if (at < 0 || check.status !== "unsupported") return;
    const lead = at === 0 || text[at - 1] === "\n" ? (BLOCK_MARKS.exec(sentence)?.[0].length ?? 0) : 0;
    const range = { start: at + lead, end: at + sentence.length, check: i };
    if (range.end <= range.start || ranges.some((r) => r.start < range.end && range.start < r.end)) return;
    ranges.push(range);
  });
  return ranges.sort((a, b) => a.start - b.start);
}

/** The answer's markdown with each unsupported sentence fenced for rehypeUncheckedMarks. */
export function fenceUnchecked(text: string, checks: readonly SentenceCheck[] = []): string {
  const clean = text.replace(FENCES, "");
  let fenced = "";
  let at = 0;
  for (const r of uncheckedRanges(clean, checks)) {
    fenced += clean.slice(at, r.start) + String.fromCharCode(START + r.check) + clean.slice(r.start, r.end) + String.fromCharCode(END);
    at = r.end;
  }
  return fenced + clean.slice(at);
}

/** The check a fence's start character names, or null when the character is no start. */
function startedCheck(part: string): number | null {
  const code = part.length === 1 ? part.charCodeAt(0) : -1;
  return code >= START && code < START + MAX_MARKS ? code - START : null;
}

function markChildren(children: RootContent[]): RootContent[] {
  const out: RootContent[] = [];
  let open: { at: number; check: number } | null = null;
  for (const child of children) {
    if (child.type === "element") {
      // a fence character never reaches an attribute (an autolink's address, an image's alt text)
      for (const [key, value] of Object.entries(child.properties))
        if (typeof value === "string") child.properties[key] = value.replace(FENCES, "").replace(ENCODED_FENCES, "");
      child.children = markChildren(child.children) as ElementContent[];
      out.push(child);
      continue;
    }
    if (child.type !== "text") {
      out.push(child);
      continue;
    }
    for (const part of child.value.split(FENCE_SPLIT)) {
      if (!part) continue;
      const check = startedCheck(part);
      if (check !== null) open = { at: out.length, check };
      else if (part.charCodeAt(0) === END && part.length === 1) {
        if (open && out.length > open.at) {
          const marked = out.splice(open.at) as ElementContent[];
          out.push({ type: "element", tagName: "mark", properties: { dataCheck: String(open.check) }, children: marked });
        }
        open = null;
      } else out.push({ type: "text", value: part });
    }
  }
  return out;
}

/** rehype plugin: fenced sentences become <mark data-check="i">; stray fence characters are dropped. */
export function rehypeUncheckedMarks() {
  return (tree: Root) => {
    tree.children = markChildren(tree.children);
  };
}
