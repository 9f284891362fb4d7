// PDFs made by the tests themselves (pdf-lib), so the suite runs anywhere.
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";

/** One page per entry; the text is wrapped to fit the page. */
export async function textPdf(pages: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = pdf.addPage([612, 792]);
    const words = text.split(/\s+/);
    let line = "";
    let y = 740;
    const flush = () => {
      page.drawText(line, { x: 50, y, size: 11, font });
      y -= 15;
      line = "";
    };
    for (const word of words) {
      if (font.widthOfTextAtSize(`${line} ${word}`, 11) > 510) flush();
      line = line ? `${line} ${word}` : word;
    }
    if (line) flush();
  }
  return pdf.save();
}

/** Pages with drawings but no text layer and no picture: nothing to read or recognise. */
export async function imageOnlyPdf(pageCount: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < pageCount; i++) {
    const page = pdf.addPage([612, 792]);
    page.drawRectangle({ x: 50, y: 50, width: 500, height: 680, color: rgb(0.8, 0.8, 0.8) });
    page.drawCircle({ x: 300, y: 400, size: 100, color: rgb(0.2, 0.2, 0.2) });
  }
  return pdf.save();
}

/**
 * A PDF whose standard security handler needs a user password we do not know:
 * the /U entry matches no empty password, so pdf.js raises PasswordException.
 */
export function passwordProtectedPdf(): Uint8Array {
  const hex = (n: number) => Array.from({ length: n }, (_, i) => ((i * 37 + 11) % 256).toString(16).padStart(2, "0")).join("");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
    `<< /Filter /Standard /V 1 /R 2 /Length 40 /P -44 /O <${hex(32)}> /U <${hex(32).split("").reverse().join("")}> >>`,
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Encrypt 4 0 R /ID [<${hex(16)}> <${hex(16)}>] >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

/** Starts like a PDF, then is garbage. */
export function corruptPdf(): Uint8Array {
  return new TextEncoder().encode(`%PDF-1.7\n${"this is not really a pdf body ".repeat(40)}\n%%EOF`);
}

/** A grey-striped greyscale PNG (what a scanner produces, minus the text), built by hand: no canvas in workerd. */
async function stripedPng(width: number, height: number): Promise<Uint8Array> {
  const rows = new Uint8Array((width + 1) * height); // each row: filter byte 0, then one byte per pixel
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rows[y * (width + 1) + 1 + x] = (y >> 2) % 2 ? 40 : 220;
  const compressed = new Uint8Array(
    await new Response(new Blob([rows]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer(),
  );
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const chunk = (type: string, data: Uint8Array) => {
    const body = new Uint8Array([...new TextEncoder().encode(type), ...data]);
    let crc = 0xffffffff;
    for (const byte of body) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
    const out = new DataView(new ArrayBuffer(12 + data.length));
    out.setUint32(0, data.length);
    new Uint8Array(out.buffer).set(body, 4);
    out.setUint32(8 + data.length, (crc ^ 0xffffffff) >>> 0);
    return new Uint8Array(out.buffer);
  };
  const header = new DataView(new ArrayBuffer(13));
  header.setUint32(0, width);
  header.setUint32(4, height);
  header.setUint8(8, 8); // bit depth
  header.setUint8(9, 0); // greyscale
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  return new Uint8Array([
    ...signature,
    ...chunk("IHDR", new Uint8Array(header.buffer)),
    ...chunk("IDAT", compressed),
    ...chunk("IEND", new Uint8Array()),
  ]);
}

/**
 * A PDF whose pages are pictures (a scan): one embedded PNG per page, no text
 * layer. `textPages` adds pages with real text after them (a mixed document);
 * `stamp` puts a few characters of text on each scanned page (a scanner's page mark).
 */
export async function scannedPdf(scannedPages: number, textPages: string[] = [], stamp = ""): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(await stripedPng(120, 160));
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < scannedPages; i++) {
    const page = pdf.addPage([612, 792]);
    page.drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
    if (stamp) page.drawText(stamp, { x: 20, y: 20, size: 8, font });
  }
  for (const text of textPages) pdf.addPage([612, 792]).drawText(text, { x: 50, y: 740, size: 11, font });
  return pdf.save();
}

/** One page per section: its heading on a line of its own in bold, then its body wrapped below it. */
export async function headedPdf(sections: { heading: string; body: string }[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (const { heading, body } of sections) {
    const page = pdf.addPage([612, 792]);
    page.drawText(heading, { x: 50, y: 740, size: 16, font: bold });
    let y = 710;
    let line = "";
    for (const word of body.split(/\s+/)) {
      if (font.widthOfTextAtSize(`${line} ${word}`, 11) > 510) {
        page.drawText(line, { x: 50, y, size: 11, font });
        y -= 15;
        line = "";
      }
      line = line ? `${line} ${word}` : word;
    }
    if (line) page.drawText(line, { x: 50, y, size: 11, font });
  }
  return pdf.save();
}
