// Exporting a chat (#45 item 4): GET /api/chat/:session_id/export?format=md|pdf, shared by the
// route, the service, the PDF layout and the chat's "Export chat" menu; the words both files use.
export const EXPORT_FORMATS = ["md", "pdf"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_MESSAGES = {
  badFormat: 'Choose an export format: "md" (Markdown) or "pdf".',
  failed: "The chat could not be exported. Please try again.",
} as const;

export const exportPath = (sessionId: string, format: ExportFormat) => `/api/chat/${encodeURIComponent(sessionId)}/export?format=${format}`;

export const NO_ANSWER = "No answer was given.";

/** "2026-11-21", the chat's date as every reader's calendar writes it. */
export const exportDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const documentsLine = (documents: readonly string[]) =>
  documents.length ? `Documents in this chat: ${documents.join(", ")}` : "Documents in this chat: all of the owner's files";

/** A question as a heading: one line, whatever its line breaks. */
export const questionLine = (question: string) => question.replace(/\s+/g, " ").trim();
