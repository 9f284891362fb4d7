// A chat's documents (its retrieval scope): which of the owner's documents the
// ids in a chat's set still name, with their status and indexing progress, and
// the rule for what may be attached. The set itself lives in the ChatSession
// Durable Object; this module reads the documents catalogue in D1.
import { and, eq, inArray, or, sql } from "drizzle-orm";
import { CHAT_MESSAGES, MAX_CHAT_FILES, fileFailedMessage, type ChatFile } from "../contract/protocol";
import { documents, uploadAliases } from "../db/schema";
import type { DbDeps } from "./deps";

const chatFileColumns = {
  fileId: documents.id,
  fileName: documents.fileName,
  status: documents.status,
  pagesDone: documents.indexedPages,
  pagesTotal: documents.pageCount,
  error: documents.error,
};

/** The owner's documents among `ids`, in the order of `ids`; ids of deleted or foreign documents are left out. */
export async function resolveChatFiles(deps: DbDeps, request: { ownerId: string; ids: readonly string[] }): Promise<ChatFile[]> {
  if (request.ids.length === 0) return [];
  return inOrder(await chatFilesQuery(deps, request).all(), request.ids);
}

/** The statement behind resolveChatFiles (ids not empty), for one D1 batch with others; its rows go through inOrder. */
export function chatFilesQuery({ db }: DbDeps, { ownerId, ids }: { ownerId: string; ids: readonly string[] }) {
  return db
    .select(chatFileColumns)
    .from(documents)
    .where(and(eq(documents.userId, ownerId), inArray(documents.id, [...new Set(ids)])));
}

/** `rows` in the order of `ids`, without those no row names. */
export const inOrder = <T extends { fileId: string }>(rows: readonly T[], ids: readonly string[]): T[] => {
  const byId = new Map(rows.map((r) => [r.fileId, r]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
};

export type Attachable = { ok: true; files: ChatFile[] } | { ok: false; code: number; message: string };

/** A requested set: the ids, and the upload key of a file the question adds (its own upload, or the one it duplicated). */
export interface RequestedFiles {
  ownerId: string;
  ids: readonly string[];
  uploadKey?: string | null;
}

/**
 * The owner's documents a request names, in one query (for one D1 batch with
 * other reads): those among `ids` and the one `uploadKey` names, which is the
 * upload's own document or, for a file that duplicated an earlier one, that one.
 * An id of an upload the indexer dropped as a duplicate names the existing
 * document too (`replaces`: the ids among `ids` it stands for).
 */
export const requestedFilesQuery = ({ db }: DbDeps, { ownerId, ids, uploadKey }: RequestedFiles) => {
  const key = uploadKey ?? null;
  const wanted = [...new Set(ids)];
  const aliased = db
    .select({ documentId: uploadAliases.documentId })
    .from(uploadAliases)
    .where(and(eq(uploadAliases.userId, ownerId), sql`${uploadAliases.r2Key} = ${key}`));
  const replacing = db
    .select({ documentId: uploadAliases.documentId })
    .from(uploadAliases)
    .where(and(eq(uploadAliases.userId, ownerId), inArray(uploadAliases.uploadId, wanted)));
  const replaces = sql<string | null>`(SELECT json_group_array(${uploadAliases.uploadId}) FROM ${uploadAliases}
    WHERE ${uploadAliases.documentId} = ${documents.id} AND ${inArray(uploadAliases.uploadId, wanted)})`;
  return db
    .select({ ...chatFileColumns, r2Key: documents.r2Key, aliased: sql<number>`${documents.id} IN ${aliased}`, replaces })
    .from(documents)
    .where(
      and(
        eq(documents.userId, ownerId),
        or(
          inArray(documents.id, wanted),
          sql`${documents.r2Key} = ${key}`,
          sql`${documents.id} IN ${aliased}`,
          sql`${documents.id} IN ${replacing}`,
        ),
      ),
    );
};

/**
 * A document a request names, with what it was uploaded under (`aliased`: a duplicate's upload key names it)
 * and the ids of dropped duplicate uploads it stands for (a JSON array; none when read from a Library).
 */
export type RequestedRow = ChatFile & { r2Key: string; aliased: number; replaces?: string | null };

/** A requestedFilesQuery row as the chat shows it. */
export const chatFile = ({ r2Key: _key, aliased: _aliased, replaces: _replaces, ...file }: RequestedRow): ChatFile => file;

/** The requested id each dropped duplicate upload's id stands for: the existing document's. */
const replacedIn = (rows: readonly RequestedRow[]) =>
  new Map(rows.flatMap((r) => (JSON.parse(r.replaces ?? "[]") as string[]).map((uploadId) => [uploadId, r.fileId] as const)));

/**
 * The documents that uploads dropped as duplicates by the indexer stand for, by
 * the upload's own id (the fileId its index call answered): a chat that attached
 * it before the indexer found the duplicate keeps the existing document instead.
 */
export async function replacedUploads({ db }: DbDeps, { ownerId, ids }: { ownerId: string; ids: readonly string[] }) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await db
    .select({ uploadId: uploadAliases.uploadId, documentId: uploadAliases.documentId })
    .from(uploadAliases)
    .where(and(eq(uploadAliases.userId, ownerId), inArray(uploadAliases.uploadId, [...new Set(ids)])))
    .all();
  return new Map(rows.map((r) => [r.uploadId!, r.documentId]));
}

/**
 * Checks a requested set from requestedFilesQuery's rows: every document must be
 * the owner's, indexed or still indexing, and at most MAX_CHAT_FILES of them.
 */
export function attachable(rows: readonly RequestedRow[], { ids, uploadKey }: RequestedFiles): Attachable {
  const replaced = replacedIn(rows);
  const wanted = ids.map((id) => replaced.get(id) ?? id);
  if (uploadKey) {
    const named = rows.find((r) => r.r2Key === uploadKey) ?? rows.find((r) => r.aliased);
    if (!named) return { ok: false, code: 404, message: CHAT_MESSAGES.fileNotFound };
    wanted.push(named.fileId);
  }
  const unique = [...new Set(wanted)];
  if (unique.length > MAX_CHAT_FILES) return { ok: false, code: 400, message: CHAT_MESSAGES.tooManyFiles };
  const files = inOrder(rows, unique).map(chatFile);
  if (files.length !== unique.length) return { ok: false, code: 404, message: CHAT_MESSAGES.fileNotFound };
  const failed = files.find((f) => f.status === "failed");
  if (failed) return { ok: false, code: 409, message: fileFailedMessage(failed.fileName, failed.error) };
  return { ok: true, files };
}

/** Checks a requested set (set_files): see attachable. */
export async function checkAttachable(deps: DbDeps, request: RequestedFiles): Promise<Attachable> {
  if (new Set(request.ids).size > MAX_CHAT_FILES) return { ok: false, code: 400, message: CHAT_MESSAGES.tooManyFiles };
  return attachable(await requestedFilesQuery(deps, request).all(), request);
}
