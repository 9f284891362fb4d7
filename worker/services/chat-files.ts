// A chat's documents (its retrieval scope): which of the owner's documents the
// ids in a chat's set still name, with their status and indexing progress, and
// the rule for what may be attached. The set itself lives in the ChatSession
// Durable Object; this module reads the documents catalogue in D1.
import { and, eq, inArray } from "drizzle-orm";
import { CHAT_MESSAGES, MAX_CHAT_FILES, fileFailedMessage, type ChatFile } from "../contract/protocol";
import { documents } from "../db/schema";
import type { DbDeps } from "./deps";

/** The owner's documents among `ids`, in the order of `ids`; ids of deleted or foreign documents are left out. */
export async function resolveChatFiles({ db }: DbDeps, { ownerId, ids }: { ownerId: string; ids: readonly string[] }): Promise<ChatFile[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      fileId: documents.id,
      fileName: documents.fileName,
      status: documents.status,
      pagesDone: documents.indexedPages,
      pagesTotal: documents.pageCount,
      error: documents.error,
    })
    .from(documents)
    .where(and(eq(documents.userId, ownerId), inArray(documents.id, [...new Set(ids)])))
    .all();
  const byId = new Map(rows.map((r) => [r.fileId, r]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

export type Attachable = { ok: true; files: ChatFile[] } | { ok: false; code: number; message: string };

/**
 * Checks a requested set: every id must be one of the owner's documents that is
 * indexed or still indexing, and at most MAX_CHAT_FILES of them.
 */
export async function checkAttachable({ db }: DbDeps, { ownerId, ids }: { ownerId: string; ids: readonly string[] }): Promise<Attachable> {
  const unique = [...new Set(ids)];
  if (unique.length > MAX_CHAT_FILES) return { ok: false, code: 400, message: CHAT_MESSAGES.tooManyFiles };
  const files = await resolveChatFiles({ db }, { ownerId, ids: unique });
  if (files.length !== unique.length) return { ok: false, code: 404, message: CHAT_MESSAGES.fileNotFound };
  const failed = files.find((f) => f.status === "failed");
  if (failed) return { ok: false, code: 409, message: fileFailedMessage(failed.fileName, failed.error) };
  return { ok: true, files };
}
