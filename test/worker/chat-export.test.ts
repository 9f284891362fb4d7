// Proves the chat export (#45 item 4), through the Worker's fetch: the owner's Markdown holds
// every question, answer and source as "[n] file, p. N" and an answer's unsupported sentence in
// words; a member of a shared chat may export, anyone else (or a missing chat) gets the memo's
// 404; a bad format is a 400; the PDF is one pdf-lib reads back, its pages hold the questions, and
// a title or answer in characters WinAnsi lacks is written, not refused. It does not render the
// PDF or look at its layout.
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { chatSession } from "../../worker/chat/stub";
import { EXPORT_MESSAGES } from "../../worker/contract/chat-export";
import { SHARE_MESSAGES } from "../../worker/contract/mail";
import { winAnsiText, wrap } from "../../worker/services/chat-export-pdf";
import { contentDisposition, exportFileName } from "../../worker/services/chat-export";
import { call, newUser } from "../helpers/api";
import { uploadAndIndex, waitUntilDone } from "../helpers/documents";
import { textPdf } from "../helpers/pdfs";
import { openSocket } from "../helpers/sockets";

const PAGES = [
  "Employee handbook. New employees receive a laptop and a badge on their first day.",
  "Benefits. Dental coverage starts after ninety days of employment.",
];
const QUESTIONS = ["When does dental coverage start?", "What do new employees receive?"];

/** An owner whose chat has two answered questions about Handbook.pdf. */
async function chatWithAnswers(prefix: string) {
  const u = await newUser(prefix);
  const doc = await uploadAndIndex(u.token, "Handbook.pdf", await textPdf(PAGES));
  await waitUntilDone(u.token, doc.fileId);
  const sessionId = `${u.email}-${crypto.randomUUID()}`;
  const socket = await openSocket(sessionId, u.token);
  const answers = [];
  for (const [i, query] of QUESTIONS.entries()) {
    socket.send({ action: "chat", query, session_id: sessionId, token: u.token, file_ids: [doc.fileId] });
    answers.push((await socket.next("end", i)).message);
  }
  socket.ws.close(1000);
  return { ...u, doc, sessionId, answers };
}

/** The export as bytes (the helper's `call` reads bodies as text). */
async function download(sessionId: string, token: string, format: string) {
  const response = await exports.default.fetch(`http://localhost/api/chat/${encodeURIComponent(sessionId)}/export?format=${format}`, {
    headers: { Authorization: `Bearer ${token}`, "CF-Connecting-IP": `10.99.${Math.floor(Math.random() * 250)}.1` },
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { response, bytes, text: new TextDecoder().decode(bytes) };
}

/** The text a PDF draws: its content streams inflated, their <hex> Tj strings decoded (WinAnsi is ASCII for these words). */
async function pdfText(bytes: Uint8Array): Promise<string> {
  // byte for byte (TextDecoder's "latin1" is windows-1252, which moves 0x80-0x9f)
  const raw = Array.from(bytes, (b) => String.fromCharCode(b)).join("");
  const out: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    const data = Uint8Array.from(m[1]!, (c) => c.charCodeAt(0));
    const inflated = await new Response(new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate"))).text().catch(() => "");
    for (const t of inflated.matchAll(/<([0-9A-Fa-f]*)> Tj/g)) out.push(t[1]!.replace(/../g, (h) => String.fromCharCode(parseInt(h, 16))));
  }
  return out.join("\n");
}

describe("exporting a chat", () => {
  it("writes the owner's chat as Markdown with every question, answer and source, named after the title", async () => {
    const u = await chatWithAnswers("export-md");
    const { response, text } = await download(u.sessionId, u.token, "md");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/markdown; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="${QUESTIONS[0]!.replace("?", "")}.md"`);
    expect(text.startsWith(`# ${QUESTIONS[0]}\n`)).toBe(true);
    expect(text).toContain(`Date: ${new Date().toISOString().slice(0, 10)}`);
    expect(text).toContain("Documents in this chat: Handbook.pdf");
    for (const [i, question] of QUESTIONS.entries()) {
      const answer = u.answers[i]!;
      expect(answer.sources!.length).toBeGreaterThan(0);
      expect(text).toContain(`## ${question}\n\n${answer.content}`);
      for (const s of answer.sources!) expect(text).toContain(`[${s.n}] Handbook.pdf, p. ${s.page}`);
    }
    expect(text).toContain("[1] Handbook.pdf, p. 2");
    expect(text).toContain("Figures checked against the cited pages");
  });

  it("lets a member of a shared chat export it; anyone else, or a missing chat, gets the memo's 404; a bad format is a 400", async () => {
    const u = await chatWithAnswers("export-share");
    const member = await newUser("export-member");
    const stranger = await newUser("export-stranger");
    expect(
      (await call("POST", "/api/chat/share", { token: u.token, body: { session_id: u.sessionId, emails: [member.email] } })).status,
    ).toBe(200);

    const shared = await download(u.sessionId, member.token, "md");
    expect(shared.response.status).toBe(200);
    expect(shared.text).toContain(`## ${QUESTIONS[1]}`);

    for (const [sessionId, token] of [
      [u.sessionId, stranger.token],
      [`${stranger.email}-${crypto.randomUUID()}`, stranger.token],
    ] as const) {
      const refused = await call("GET", `/api/chat/${encodeURIComponent(sessionId)}/export?format=pdf`, { token });
      expect(refused.status).toBe(404);
      expect(refused.json).toMatchObject({ status: "error", message: SHARE_MESSAGES.notFound });
    }
    const bad = await call("GET", `/api/chat/${encodeURIComponent(u.sessionId)}/export?format=docx`, { token: u.token });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe(EXPORT_MESSAGES.badFormat);
    expect((await call("GET", `/api/chat/${encodeURIComponent(u.sessionId)}/export?format=md`)).status).toBe(401);
  });

  it("writes an answer's unsupported sentence in words under it, as Copy does", async () => {
    const u = await chatWithAnswers("export-checks");
    const source = { n: 1, fileId: u.doc.fileId, fileName: "Handbook.pdf", page: 2 };
    const sentence = "Dental coverage starts after 30 days [1].";
    await runInDurableObject(chatSession(env, u.sessionId), (_object, state) => {
      const now = Date.now();
      state.storage.sql.exec(
        "INSERT INTO messages (id, role, content, status, created_at) VALUES ('q3', 'user', 'How soon is dental?', 'complete', ?)",
        now,
      );
      state.storage.sql.exec(
        "INSERT INTO messages (id, role, content, sources, status, checks, created_at) VALUES ('a3', 'assistant', ?, ?, 'complete', ?, ?)",
        sentence,
        JSON.stringify([source]),
        JSON.stringify({ checks: [{ sentence, status: "unsupported", missing: ["30"] }], verified: { sentences: 1, unsupported: 1 } }),
        now + 1,
      );
    });
    const { text } = await download(u.sessionId, u.token, "md");
    expect(text).toContain(
      [
        "## How soon is dental?",
        "",
        sentence,
        "",
        "Sources:\n[1] Handbook.pdf, p. 2",
        "",
        "1 figure not found on the cited pages",
        'Not found on the cited pages: "Dental coverage starts after 30 days." (30 is not on p. 2 of Handbook.pdf).',
      ].join("\n"),
    );
  });

  it("makes a real PDF holding the questions; a title and answer WinAnsi cannot encode are written, not refused", async () => {
    const u = await chatWithAnswers("export-pdf");
    const { response, bytes } = await download(u.sessionId, u.token, "pdf");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="${QUESTIONS[0]!.replace("?", "")}.pdf"`);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(1);
    const drawn = await pdfText(bytes);
    for (const q of QUESTIONS) expect(drawn).toContain(q);
    expect(drawn).toContain("[1] Handbook.pdf, p. 2");

    const title = "Résumé “W-9” 税表: a/b?";
    expect((await call("PATCH", `/api/chat/${encodeURIComponent(u.sessionId)}`, { token: u.token, body: { title } })).status).toBe(200);
    await runInDurableObject(chatSession(env, u.sessionId), (_object, state) => {
      const long = `Über “quoted” → 税金 ${"word ".repeat(3000)}`;
      state.storage.sql.exec(
        "INSERT INTO messages (id, role, content, status, created_at) VALUES ('q9', 'user', '¿Qué es 税?', 'complete', ?)",
        Date.now(),
      );
      state.storage.sql.exec(
        "INSERT INTO messages (id, role, content, status, created_at) VALUES ('a9', 'assistant', ?, 'complete', ?)",
        long,
        Date.now() + 1,
      );
    });
    const again = await download(u.sessionId, u.token, "pdf");
    expect(again.response.status).toBe(200);
    expect(again.response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="Resume _W-9_ _ a b.pdf"; filename*=UTF-8''${encodeURIComponent("Résumé “W-9” 税表 a b.pdf")}`,
    );
    const long = await PDFDocument.load(again.bytes);
    expect(long.getPageCount()).toBeGreaterThan(1);
    expect(long.getTitle()).toBe(title);
  });

  it("names files safely and writes what WinAnsi lacks with what it has", async () => {
    expect(exportFileName('  ..a<b>:"c"/d\\e|f?g*\u0007  ', "md")).toBe("a b c d e f g.md");
    expect(exportFileName("///", "pdf")).toBe("chat.pdf");
    expect(exportFileName("x".repeat(300), "md")).toBe(`${"x".repeat(100)}.md`);
    expect(contentDisposition("plain.md")).toBe('attachment; filename="plain.md"');
    expect(contentDisposition("100% sure; ok.md")).toBe(
      "attachment; filename=\"100_ sure_ ok.md\"; filename*=UTF-8''100%25%20sure%3B%20ok.md",
    );

    const font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    const supported = new Set(font.getCharacterSet());
    expect(winAnsiText("“Café” – 5 ≥ 3 → 税金 ok", supported)).toBe("“Café” – 5 >= 3 -> ? ok");
    expect(winAnsiText("Łódź ǅ ı", supported)).toBe("Lódz Dz i");
    expect(winAnsiText("日本語 text", supported)).toBe("? text");
    expect(() => font.encodeText(winAnsiText("Привет 👋 ✓", supported))).not.toThrow();
    const lines = wrap(`${"a".repeat(400)} short`, font, 10, 200);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.every((l) => font.widthOfTextAtSize(l, 10) <= 200)).toBe(true);
    // a pasted word of 50,000 characters is cut in one pass (measuring each shorter prefix again took minutes)
    const long = wrap("AVAWTo".repeat(8_000), font, 10, 200);
    expect(long.join("")).toBe("AVAWTo".repeat(8_000));
    expect(long.every((l) => font.widthOfTextAtSize(l, 10) <= 200)).toBe(true);
  });
});
