// Exporting a chat (#45 item 4): GET /api/chat/:session_id/export?format=md|pdf, shared by the
// route, the service and the chat's "Export chat" menu.
export const EXPORT_FORMATS = ["md", "pdf"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_MESSAGES = {
  badFormat: 'Choose an export format: "md" (Markdown) or "pdf".',
  failed: "The chat could not be exported. Please try again.",
} as const;

export const exportPath = (sessionId: string, format: ExportFormat) => `/api/chat/${encodeURIComponent(sessionId)}/export?format=${format}`;
