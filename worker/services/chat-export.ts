// A chat as a file to take away (#45 item 4): its title, date and documents, then each question
// and its answer with the answer's sources as "[n] file, p. N" lines and its check in words, as
// Copy writes one answer (contract/answer-text.ts). Markdown here; the PDF layout is in
// chat-export-pdf.ts. Access is the memo's: the owner or a member, anyone else the 404 of a missing chat.
import { chatSession } from "../chat/stub";
import { answerBlock, checkLines, sourceLines } from "../contract/answer-text";
import { documentsLine, EXPORT_MESSAGES, exportDate, NO_ANSWER, questionLine, type ExportFormat } from "../contract/chat-export";
import { SHARE_MESSAGES } from "../contract/mail";
import type { ChatFile, StoredMessage } from "../contract/protocol";
import { getDb } from "../db/client";
import { ApiError } from "../errors";
import { findChat, sessionAccess } from "./chats";
import type { EnvDeps } from "./deps";

export const UNTITLED = "Untitled Chat";

/** A chat as the export reads it, before it is written as Markdown or laid out as a PDF. */
export interface ExportedChat {
  title: string;
  /** the chat's first question, ms */
  createdAt: number;
  /** the file names of the chat's documents; none: it searched all of the owner's files */
  documents: string[];
  turns: ExportedTurn[];
}

export interface ExportedTurn {
  question: string;
  /** the answer's markdown as stored (empty when none was given) */
  answer: string;
  /** "[1] p17.pdf, p. 3" */
  sources: string[];
  /** the check's line and one note per unsupported sentence (none for an answer stored before checks) */
  checks: string[];
}

export function exportedChat(
  chat: { title: string; createdAt: number },
  transcript: readonly StoredMessage[],
  files: readonly Pick<ChatFile, "fileName">[],
): ExportedChat {
  const turns: ExportedTurn[] = [];
  for (const m of transcript) {
    if (m.role === "user") turns.push({ question: m.content.trim(), answer: "", sources: [], checks: [] });
    else if (turns.length) {
      const turn = turns[turns.length - 1]!;
      Object.assign(turn, {
        answer: m.content.trim(),
        sources: sourceLines(m.sources),
        checks: checkLines(m.checks, m.sources),
      });
    }
  }
  return { title: chat.title, createdAt: chat.createdAt, documents: files.map((f) => f.fileName), turns };
}

export function chatMarkdown(chat: ExportedChat): string {
  const parts = [`# ${questionLine(chat.title)}`, `Date: ${exportDate(chat.createdAt)}\n\n${documentsLine(chat.documents)}`];
  for (const turn of chat.turns) {
    parts.push("---", `## ${questionLine(turn.question)}`);
    parts.push(turn.answer ? answerBlock(turn.answer, turn.sources, turn.checks) : NO_ANSWER);
  }
  return `${parts.join("\n\n")}\n`;
}

const UNSAFE = /[\u0000-\u001f\u007f<>:"/\\|?*]+/g;

/** The title as a file name: characters no file system allows stripped, at most 100 characters, never empty. */
export function exportFileName(title: string, format: ExportFormat): string {
  const base = title
    .normalize("NFC")
    .replace(UNSAFE, " ")
    .replace(/\s+/g, " ")
    .replace(/^[\s.]+|[\s.]+$/g, "")
    .slice(0, 100)
    .trim();
  return `${base || "chat"}.${format}`;
}

/** `attachment; filename="…"`, ASCII only, with `filename*=UTF-8''…` beside it when the name is not. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]+/g, "_")
    .replace(/[%;]/g, "_");
  const plain = `attachment; filename="${ascii}"`;
  if (ascii === fileName) return plain;
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${plain}; filename*=UTF-8''${encoded}`;
}

export interface ChatExport {
  body: string | Uint8Array<ArrayBuffer>;
  contentType: string;
  fileName: string;
}

/** The export of a chat the caller owns or was shared; any other chat is the same 404 as a missing one. */
export async function exportChat(
  { env }: EnvDeps,
  { caller, sessionId, format }: { caller: { id: string; email: string }; sessionId: string; format: ExportFormat },
): Promise<ChatExport> {
  const db = getDb(env);
  const chat = await findChat({ db }, { sessionId });
  if (!chat || (await sessionAccess({ db }, { sessionId, user: caller })) === "denied") throw new ApiError(404, SHARE_MESSAGES.notFound);

  const title = chat.summary.trim() || UNTITLED;
  let exported: ExportedChat;
  try {
    const session = chatSession(env, sessionId);
    const [transcript, files] = await Promise.all([session.transcript(), session.documents()]);
    exported = exportedChat({ title, createdAt: chat.createdAt }, transcript, files);
  } catch (err) {
    console.error("chat export failed", err);
    throw new ApiError(500, EXPORT_MESSAGES.failed);
  }
  const fileName = exportFileName(title, format);
  if (format === "md") return { body: chatMarkdown(exported), contentType: "text/markdown; charset=utf-8", fileName };
  // pdf-lib (a second of module loading) is loaded by the first PDF export, not with the Worker
  const { chatPdf } = await import("./chat-export-pdf");
  return { body: await chatPdf(exported), contentType: "application/pdf", fileName };
}
