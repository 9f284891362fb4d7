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

/** Pages with drawings but no text layer, like a scan. */
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
