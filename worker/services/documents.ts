// Documents (My Files): listing, status, last opened and delete. Uploads and the
// index step are ./uploads.ts. Every query is scoped to the caller: another
// user's document is simply not found (404).
import { and, count, desc, eq, inArray, lt, or } from "drizzle-orm";
import {
  DOCUMENT_MESSAGES as M,
  ocrPageNotListed,
  type DeleteResponse,
  type FileItem,
  type IndexingStatusResponse,
  type OcrPagesRequest,
} from "../contract/documents";
import type { Db } from "../db/client";
import { contains } from "../db/contains";
import { documents, uploadAliases, type DocumentRow } from "../db/schema";
import { ApiError } from "../errors";
import { library, type LibraryBinding } from "../library/stub";
import type { DocumentState } from "../library/types";
import type { DbDeps } from "./deps";
import { STALE_UPLOAD_MS } from "./uploads";
import { deleteVectors, upsertChunkVectors, type VectorBindings } from "./vectors";

/** Removes upload rows whose file never arrived (documents stuck indexing are recovered by their Library). */
async function sweepAbandonedUploads(db: Db, userId: string): Promise<void> {
  await db
    .delete(documents)
    .where(and(eq(documents.userId, userId), eq(documents.status, "uploading"), lt(documents.createdAt, Date.now() - STALE_UPLOAD_MS)));
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function toFileItem(row: DocumentRow): FileItem {
  return {
    fileId: row.id,
    fileName: row.fileName,
    status: row.status,
    createdAt: iso(row.createdAt)!,
    uploadedAt: iso(row.lastOpenedAt),
    fileHash: row.fileHash,
    pageCount: row.pageCount,
    error: row.error,
    ocrPages: row.ocrPages,
    folderId: row.folderId,
  };
}

/** One page of the user's documents, newest first; `search` keeps those whose name contains it, `folderId` those in that folder. */
export async function listDocuments(
  { db }: DbDeps,
  {
    userId,
    pageNumber,
    pageSize,
    search,
    folderId,
  }: { userId: string; pageNumber: number; pageSize: number; search?: string; folderId?: string },
) {
  await sweepAbandonedUploads(db, userId);
  const where = and(
    eq(documents.userId, userId),
    search ? contains(documents.fileName, search) : undefined,
    folderId ? eq(documents.folderId, folderId) : undefined,
  );
  const total = (await db.select({ n: count() }).from(documents).where(where).get())?.n ?? 0;
  const rows = await db
    .select()
    .from(documents)
    .where(where)
    .orderBy(desc(documents.createdAt), desc(documents.id))
    .limit(pageSize)
    .offset((pageNumber - 1) * pageSize)
    .all();
  return {
    files: rows.map(toFileItem),
    pagination: { pageNumber, pageSize, total, totalPages: Math.max(1, Math.ceil(total / pageSize)) },
  };
}

export async function getOwnedDocument(
  { db }: DbDeps,
  { userId, documentId }: { userId: string; documentId: string },
): Promise<DocumentRow> {
  // the id of an upload the indexer dropped as a duplicate names the existing document
  const replacing = db
    .select({ documentId: uploadAliases.documentId })
    .from(uploadAliases)
    .where(and(eq(uploadAliases.userId, userId), eq(uploadAliases.uploadId, documentId)));
  const row = await db
    .select()
    .from(documents)
    .where(and(eq(documents.userId, userId), or(eq(documents.id, documentId), inArray(documents.id, replacing))))
    .get();
  if (!row) throw new ApiError(404, M.fileNotFound);
  return row;
}

/** A document's state in the Library as the API answers it: the contract's fields, nothing of the Library's own. */
const statusResponse = (fileId: string, state: DocumentState): IndexingStatusResponse => ({
  fileId,
  status: state.status,
  pagesDone: state.pagesDone,
  pagesTotal: state.pagesTotal,
  error: state.error,
  ocrPages: state.ocrPages,
});

/**
 * Where the caller's document is: the Library's lifecycle once the upload arrived, the catalogue
 * row before. The caller's own Library is asked first: it holds only their documents, so it
 * answers for one it knows without a catalogue read (My Files asks this every few seconds per
 * document being indexed).
 */
export async function indexingStatus(
  deps: DbDeps & LibraryBinding,
  { userId, documentId }: { userId: string; documentId: string },
): Promise<IndexingStatusResponse> {
  const state = await library(deps, userId).status(documentId);
  if (state) return statusResponse(documentId, state);
  const doc = await getOwnedDocument(deps, { userId, documentId });
  return {
    fileId: doc.id,
    status: doc.status,
    pagesDone: doc.indexedPages,
    pagesTotal: doc.pageCount,
    error: doc.error,
    ocrPages: doc.ocrPages,
  };
}

/**
 * Text recognised in the owner's browser for pages of their needs_ocr document:
 * indexed like extracted text (marked as recognised), the pages taken off the list.
 */
export async function recognisePages(
  deps: DbDeps & LibraryBinding & VectorBindings,
  { userId, documentId, pages }: { userId: string; documentId: string; pages: OcrPagesRequest["pages"] },
): Promise<IndexingStatusResponse> {
  const doc = await getOwnedDocument(deps, { userId, documentId });
  const result = await library(deps, userId).recognise(doc.id, pages);
  if (!result.ok) {
    if (result.reason === "unknown") throw new ApiError(404, M.fileNotFound);
    throw new ApiError(400, result.reason === "page_not_listed" ? ocrPageNotListed(result.page) : M.ocrNotNeeded);
  }
  await deleteVectors(deps, { ids: result.staleChunkIds.filter((id) => !result.chunks.some((c) => c.id === id)) });
  await upsertChunkVectors(deps, { userId, chunks: result.chunks });
  return statusResponse(doc.id, result.state);
}

export async function markOpened({ db }: DbDeps, { documentId }: { documentId: string }): Promise<void> {
  await db.update(documents).set({ lastOpenedAt: Date.now() }).where(eq(documents.id, documentId));
}

export interface DeleteDeps extends VectorBindings, LibraryBinding {
  db: Db;
  bucket: R2Bucket;
}

/**
 * Deletes the caller's documents, named by content hash or (an upload whose file
 * never arrived has none) by id: Library chunks, vectors, R2 object and catalogue
 * row together. Each result names the file the way it was asked for.
 */
export async function deleteDocuments(
  deps: DeleteDeps,
  { userId, ...which }: { userId: string; fileHashes: string[]; fileIds?: string[] },
): Promise<DeleteResponse> {
  const deleted: string[] = [];
  const errors: DeleteResponse["errors"] = [];
  const asked = [
    ...[...new Set(which.fileHashes)].map((key) => ({ key, where: eq(documents.fileHash, key) })),
    ...[...new Set(which.fileIds ?? [])].map((key) => ({ key, where: eq(documents.id, key) })),
  ];
  for (const { key, where } of asked) {
    const doc = await deps.db
      .select()
      .from(documents)
      .where(and(eq(documents.userId, userId), where))
      .get();
    if (!doc) {
      errors.push({ error: M.fileNotFound, file_hash: key });
      continue;
    }
    try {
      await deleteVectors(deps, { ids: await library(deps, userId).remove(doc.id) });
      await deps.bucket.delete(doc.r2Key);
      await deps.db.delete(documents).where(eq(documents.id, doc.id));
      deleted.push(key);
    } catch (err) {
      console.error("delete failed", doc.id, err);
      errors.push({ error: "Could not delete this file. Please try again.", file_hash: key });
    }
  }
  const status = errors.length === 0 ? "success" : deleted.length === 0 ? "error" : "partial";
  return { status, deleted, errors };
}
