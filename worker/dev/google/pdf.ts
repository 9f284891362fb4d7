// A tiny PDF 1.4 writer for the Google emulator's seeded Drive files, so the
// Worker bundle does not need pdf-lib. Pages are lists of text lines drawn in the
// standard Helvetica fonts (no embedding) with WinAnsiEncoding; the first line of
// each page is a bold heading. Every line is its own text object, so pdf.js reads
// one line per text item and keeps phrases that sit on one line together.
//
// Byte offsets matter in a PDF (the xref table points at each object), so the
// file is built as a "binary string" (one char = one byte) and encoded at the end.

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN = 72;
const HEADING_SIZE = 16;
const BODY_SIZE = 11;
const LEADING = 15;

/** Unicode punctuation that WinAnsiEncoding has, mapped to its byte. */
const WIN_ANSI: Record<string, number> = {
  "\u2013": 0x96, // en dash
  "\u2014": 0x97, // em dash
  "\u2018": 0x91,
  "\u2019": 0x92,
  "\u201c": 0x93,
  "\u201d": 0x94,
  "\u2022": 0x95, // bullet
  "\u2026": 0x85, // ellipsis
  "\u20ac": 0x80, // euro
};

/** A PDF literal string: `(`, `)` and `\` escaped, non-ASCII as octal WinAnsi bytes, the rest of Unicode as `?`. */
export function pdfString(text: string): string {
  let out = "(";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === "(" || ch === ")" || ch === "\\") out += `\\${ch}`;
    else if (code >= 0x20 && code < 0x7f) out += ch;
    else if (ch === "\n" || ch === "\r" || ch === "\t") out += " ";
    else {
      const byte = WIN_ANSI[ch] ?? (code >= 0xa0 && code <= 0xff ? code : 0x3f);
      out += byte === 0x3f ? "?" : `\\${byte.toString(8).padStart(3, "0")}`;
    }
  }
  return `${out})`;
}

/** One char per byte; every char code here is below 256 by construction. */
function latin1(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}

const HEADER = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";

/** The xref table, trailer and end marker for objects 1..offsets.length. */
function xrefAndTrailer(offsets: number[], xrefOffset: number, extraTrailer = ""): string {
  let out = `xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R${extraTrailer} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return out;
}

function contentStream(lines: string[]): string {
  const ops: string[] = [];
  let y = PAGE_HEIGHT - MARGIN;
  lines.forEach((line, i) => {
    const heading = i === 0;
    ops.push(`BT /${heading ? "F2" : "F1"} ${heading ? HEADING_SIZE : BODY_SIZE} Tf ${MARGIN} ${y} Td ${pdfString(line)} Tj ET`);
    y -= heading ? LEADING * 2 : LEADING;
  });
  return ops.join("\n");
}

/** A valid PDF 1.4: one page per entry of `pages`, each a list of lines (the first is the page heading). */
export function writePdf(pages: string[][], options: { title?: string } = {}): Uint8Array {
  // Objects: 1 catalog, 2 page tree, 3 Helvetica, 4 Helvetica-Bold, then per page (page, contents), then info.
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 5 + i * 2);
  objects.push("<< /Type /Catalog /Pages 2 0 R >>");
  objects.push(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`);
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>");
  pages.forEach((lines, i) => {
    const contentsId = 6 + i * 2;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
        `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${contentsId} 0 R >>`,
    );
    const stream = contentStream(lines);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  const info: string[] = ["/Producer (docchat Google emulator)"];
  if (options.title) info.push(`/Title ${pdfString(options.title)}`);
  objects.push(`<< ${info.join(" ")} >>`);
  const infoId = objects.length;

  let out = HEADER;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  out += xrefAndTrailer(offsets, out.length, ` /Info ${infoId} 0 R`);
  return latin1(out);
}

const CHUNK_BYTES = 64 * 1024;

/**
 * A valid one-page PDF of exactly `totalBytes` bytes, streamed: a large unused
 * stream object of filler makes up the size, produced chunk by chunk on demand so
 * the whole file is never in memory. The page itself has no text (like a scan).
 */
export function paddedPdfStream(totalBytes: number): ReadableStream<Uint8Array> {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Contents 4 0 R >>`,
    "<< /Length 0 >>\nstream\n\nendstream",
  ];
  let head = HEADER;
  const offsets: number[] = [];
  for (const [i, body] of objects.entries()) {
    offsets.push(head.length);
    head += `${i + 1} 0 obj\n${body}\nendobj\n`;
  }
  const fillerId = objects.length + 1;
  const fillerStart = head.length;
  // The filler length and the offsets written after it change the file's own length;
  // a couple of rounds settle it because the digit counts stop changing.
  let fillerLength = Math.max(0, totalBytes - head.length);
  let prefix = "";
  let suffix = "";
  for (let round = 0; round < 5; round++) {
    prefix = `${fillerId} 0 obj\n<< /Length ${fillerLength} >>\nstream\n`;
    const afterFiller = fillerStart + prefix.length + fillerLength;
    suffix = "\nendstream\nendobj\n";
    suffix += xrefAndTrailer([...offsets, fillerStart], afterFiller + suffix.length);
    const next = totalBytes - head.length - prefix.length - suffix.length;
    if (next === fillerLength) break;
    fillerLength = Math.max(0, next);
  }
  const start = latin1(head + prefix);
  const end = latin1(suffix);
  const pattern = latin1("% filler: this archive is deliberately larger than the 25 MB import limit.\n".padEnd(128, "."));
  let remaining = fillerLength;
  let started = false;

  // Every pull enqueues exactly one chunk, so the stream never stalls.
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(start);
      } else if (remaining > 0) {
        const size = Math.min(CHUNK_BYTES, remaining);
        const chunk = new Uint8Array(size);
        for (let i = 0; i < size; i += pattern.length) chunk.set(pattern.subarray(0, Math.min(pattern.length, size - i)), i);
        controller.enqueue(chunk);
        remaining -= size;
      } else {
        controller.enqueue(end);
        controller.close();
      }
    },
  });
}
