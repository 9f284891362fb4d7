// The zod schemas the Worker checks the chat's messages and calls with (the
// types and texts are in protocol.ts, which the client imports without zod).
import { z } from "zod";
import { withoutHiddenCharacters } from "./plain-text";
import { CHAT_MESSAGES, CHAT_QUERY_MAX, CHAT_SEARCH_MAX, CHAT_TITLE_MAX, MAX_CHAT_FILES } from "./protocol";

const token = z.string().max(4096).optional();
const sessionId = z.string().min(1).max(400);
const fileIds = z.array(z.string().min(1).max(100)).max(MAX_CHAT_FILES * 5, CHAT_MESSAGES.tooManyFiles);

export const clientMessageSchema = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("chat"),
    // a question of hidden characters alone is empty; none reaches the chat's title
    query: z
      .string()
      .max(CHAT_QUERY_MAX, CHAT_MESSAGES.queryTooLong)
      .transform((q) => withoutHiddenCharacters(q, { lineBreaks: true })),
    session_id: sessionId,
    /** adds the uploaded file with this key to the chat's documents (spec) */
    s3_key: z.string().max(500).optional(),
    /** replaces the chat's documents before this question is answered */
    file_ids: fileIds.optional(),
    token,
  }),
  /** replaces the chat's documents (the chips) without asking anything */
  z.object({ action: z.literal("set_files"), session_id: sessionId, file_ids: fileIds, token }),
  /** scopes the chat to one of the owner's folders: its documents (the 20 most recent) follow the folder */
  z.object({ action: z.literal("set_folder"), session_id: sessionId, folder_id: z.string().min(1).max(100), token }),
  z.object({ action: z.literal("get_full_chat"), session_id: sessionId, token }),
  z.object({ action: z.literal("get_chats"), token }),
  /** the owner stops the answer being written: what was written is kept, marked stopped */
  z.object({ action: z.literal("stop"), session_id: sessionId, token }),
  /** the owner asks for the last answer again: it is replaced by a new one to the same question */
  z.object({ action: z.literal("regenerate"), session_id: sessionId, token }),
  /**
   * My Files is open (watch) or closed: the socket is told of its user's documents' indexing
   * (`file_progress`), first of `file_ids` (those it lists still being indexed) as they are now
   */
  z.object({
    action: z.literal("watch_files"),
    watch: z.boolean(),
    file_ids: z.array(z.string().min(1).max(100)).max(100).optional(),
    token,
  }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

const SAYABLE: ReadonlySet<string> = new Set([CHAT_MESSAGES.queryTooLong, CHAT_MESSAGES.tooManyFiles]);

/** What to tell the sender of a message the schema refused: what to change when we can say it, else that it was not understood. */
export function refusalOf(error: z.ZodError): string {
  return error.issues.find((issue) => SAYABLE.has(issue.message))?.message ?? CHAT_MESSAGES.badMessage;
}

/** PATCH /api/chat/:session_id { title } (owner only; answered with a StatusMessage) */
export const renameChatSchema = z.object({
  title: z
    .string({ error: CHAT_MESSAGES.titleRequired })
    .transform((t) => withoutHiddenCharacters(t).trim())
    .pipe(z.string().min(1, CHAT_MESSAGES.titleRequired).max(CHAT_TITLE_MAX, `A chat title has at most ${CHAT_TITLE_MAX} characters.`)),
});

/** GET /api/chat/search?q= */
export const chatSearchQuery = z.object({
  q: z
    .string({ error: CHAT_MESSAGES.searchRequired })
    .trim()
    .min(1, CHAT_MESSAGES.searchRequired)
    .max(CHAT_SEARCH_MAX, CHAT_MESSAGES.searchTooLong),
});
