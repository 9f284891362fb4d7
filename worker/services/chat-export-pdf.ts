// The chat export laid out as a PDF (#45 item 4), made in the Worker with pdf-lib and its standard
// Helvetica: the title, date and documents, then each question in bold and its answer, sources and
// check, wrapped to the page width, onto as many US Letter pages as it takes, numbered at the foot.
// Standard fonts encode WinAnsi only: any other character is written as its nearest WinAnsi
// equivalent (an accent dropped, a dash or arrow spelled in ASCII) or "?", never an error.
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { documentsLine, exportDate, NO_ANSWER, questionLine } from "../contract/chat-export";
import type { ExportedChat } from "./chat-export";

const PAGE = { width: 612, height: 792, margin: 56 } as const;
const WIDTH = PAGE.width - 2 * PAGE.margin;
const INK = rgb(0.1, 0.1, 0.1);
const MUTED = rgb(0.4, 0.4, 0.4);

type Style = { font: "regular" | "bold" | "italic"; size: number; color: typeof INK; indent?: number; before?: number };
const STYLES = {
  title: { font: "bold", size: 18, color: INK },
  meta: { font: "regular", size: 10, color: MUTED, before: 4 },
  question: { font: "bold", size: 12, color: INK, before: 18 },
  body: { font: "regular", size: 10.5, color: INK, before: 6 },
  bullet: { font: "regular", size: 10.5, color: INK, indent: 12, before: 3 },
  heading: { font: "bold", size: 10.5, color: INK, before: 8 },
  label: { font: "bold", size: 9.5, color: MUTED, before: 8 },
  source: { font: "regular", size: 9.5, color: MUTED, before: 1 },
  check: { font: "italic", size: 9.5, color: MUTED, before: 3 },
} satisfies Record<string, Style>;

/** Characters WinAnsi lacks, spelled with ones it has. */
const SPELLED: Record<string, string> = {
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2212": "-",
  "\u2032": "'",
  "\u2033": '"',
  "\u2190": "<-",
  "\u2192": "->",
  "\u2194": "<->",
  "\u21d2": "=>",
  "\u2264": "<=",
  "\u2265": ">=",
  "\u2260": "!=",
  "\u2248": "~",
  "\u2713": "v",
  "\u2714": "v",
  "\u2717": "x",
  "\u0141": "L",
  "\u0142": "l",
  "\u0110": "D",
  "\u0111": "d",
  "\u0131": "i",
  "\u00a0": " ",
  "\u2009": " ",
  "\u202f": " ",
  "\u200b": "",
  "\ufeff": "",
  "\t": "    ",
};

/** Text as the font can write it: each character it lacks spelled out, stripped of its accent, or "?" (one per run). */
export function winAnsiText(text: string, supported: ReadonlySet<number>): string {
  let out = "";
  let unknown = false;
  for (const ch of text) {
    let safe: string | null = supported.has(ch.codePointAt(0)!) ? ch : (SPELLED[ch] ?? null);
    if (safe === null) {
      const bare = ch.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
      safe = bare && [...bare].every((c) => supported.has(c.codePointAt(0)!)) ? bare : null;
    }
    if (safe === null) {
      if (!unknown) out += "?";
      unknown = true;
    } else {
      out += safe;
      unknown = false;
    }
  }
  return out;
}

/** A line of an answer's markdown as a style and plain text: "- x" a bullet, "## x" a heading, emphasis marks dropped. */
function answerLine(line: string): [keyof typeof STYLES, string] {
  const plain = (s: string) => s.replace(/\*\*|__|`/g, "").trim();
  const bullet = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
  if (bullet) return ["bullet", `\u2022 ${plain(bullet[1]!)}`];
  const heading = /^\s*#{1,6}\s+(.*)$/.exec(line);
  if (heading) return ["heading", plain(heading[1]!)];
  return ["body", plain(line)];
}

/** The chat's lines, each with its style, in reading order. */
function lines(chat: ExportedChat): [keyof typeof STYLES, string][] {
  const out: [keyof typeof STYLES, string][] = [
    ["title", questionLine(chat.title)],
    ["meta", `Date: ${exportDate(chat.createdAt)}`],
    ["meta", documentsLine(chat.documents)],
  ];
  for (const turn of chat.turns) {
    out.push(["question", questionLine(turn.question)]);
    const answer = turn.answer ? turn.answer.split("\n").filter((l) => l.trim() && !/^\s*(?:-{3,}|\*{3,})\s*$/.test(l)) : [NO_ANSWER];
    out.push(...answer.map(answerLine));
    if (turn.sources.length) out.push(["label", "Sources"], ...turn.sources.map((s): [keyof typeof STYLES, string] => ["source", s]));
    out.push(...turn.checks.map((c): [keyof typeof STYLES, string] => ["check", c]));
  }
  return out;
}

/**
 * A word wider than a line (a pasted string with no spaces) in pieces that each fit, every character
 * measured once: measuring each shorter prefix again took seconds a word, and a chat of a few
 * such questions held the Worker for everyone.
 */
function cutToWidth(word: string, font: PDFFont, size: number, width: number): string[] {
  const pieces: string[] = [];
  let piece = "";
  let used = 0;
  for (const ch of word) {
    // with a little room kept for kerning, which the whole piece's width counts and a character's does not
    const w = font.widthOfTextAtSize(ch, size);
    if (piece && used + w > width * 0.97) {
      pieces.push(piece);
      piece = "";
      used = 0;
    }
    piece += ch;
    used += w;
  }
  return [...pieces, piece];
}

/** Splits text into lines no wider than `width`; a word wider than a line is cut where it must be. */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= width;
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/ +/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) out.push(line);
    const pieces = fits(word) ? [word] : cutToWidth(word, font, size, width);
    out.push(...pieces.slice(0, -1));
    line = pieces.at(-1)!;
  }
  if (line || out.length === 0) out.push(line);
  return out;
}

export async function chatPdf(chat: ExportedChat): Promise<Uint8Array<ArrayBuffer>> {
  const doc = await PDFDocument.create();
  doc.setTitle(chat.title);
  doc.setCreator("DocChat");
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    italic: await doc.embedFont(StandardFonts.HelveticaOblique),
  };
  const supported = new Set(fonts.regular.getCharacterSet());

  let page: PDFPage = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  for (const [name, text] of lines(chat)) {
    const style: Style = STYLES[name];
    const font = fonts[style.font];
    const indent = style.indent ?? 0;
    const height = style.size * 1.35;
    y -= style.before ?? 0;
    const wrapped = wrap(winAnsiText(text, supported), font, style.size, WIDTH - indent);
    wrapped.forEach((part, i) => {
      if (y - height < PAGE.margin) {
        page = doc.addPage([PAGE.width, PAGE.height]);
        y = PAGE.height - PAGE.margin;
      }
      y -= height;
      // a bullet's following lines hang under its text, not its mark
      const x = PAGE.margin + indent + (name === "bullet" && i > 0 ? font.widthOfTextAtSize("\u2022 ", style.size) : 0);
      page.drawText(part, { x, y: y + style.size * 0.3, size: style.size, font, color: style.color });
    });
  }

  const pages = doc.getPages();
  pages.forEach((p, i) => {
    const label = `${i + 1} / ${pages.length}`;
    const size = 8;
    p.drawText(label, {
      x: (PAGE.width - fonts.regular.widthOfTextAtSize(label, size)) / 2,
      y: PAGE.margin / 2,
      size,
      font: fonts.regular,
      color: MUTED,
    });
  });
  return new Uint8Array(await doc.save());
}
