// Uploads: the upload row a signed link points at, the index step that turns an
// arrived file into a pending document (the quota slot, claimed once, then the
// user's Library and the queue; the indexer hashes the content, de-duplicates it
// per user and checks it is a PDF: ingest/upload-content.ts), and the file names
// we keep. Every query is scoped to the caller.
import { and, count, eq, sql } from "drizzle-orm";
import { DOCUMENT_MESSAGES as M, MAX_UPLOAD_BYTES, type IndexResponse } from "../contract/documents";
import type { Db } from "../db/client";
import { CLAIMED_HASH_PREFIX, documents, uploadAliases, type DocumentRow } from "../db/schema";
import { ApiError } from "../errors";
import type { IngestMessage } from "../ingest/consumer";
import { library, type LibraryBinding } from "../library/stub";
import type { DbDeps } from "./deps";
import { maxDocumentsSql, quotaFor, UPGRADE_PATH, type Quota } from "./quotas";
import { withoutHiddenCharacters } from "../contract/plain-text";

/** An upload row whose file never arrived is removed after this long. */
export const STALE_UPLOAD_MS = 60 * 60 * 1000;
/** Upload links a user may hold open at once (they do not count toward the document quota). */
export const MAX_OPEN_UPLOADS = 20;

const uploadKey = (userId: string, documentId: string) => `users/${userId}/${documentId}.pdf`;
/** The shape of the keys createUpload gives this user. */
function isUploadKeyOf(userId: string, r2Key: string): boolean {
  const prefix = `users/${userId}/`;
  return r2Key.startsWith(prefix) && /^[\w-]{1,64}\.pdf$/.test(r2Key.slice(prefix.length));
}

/** The longest file name kept (most file systems allow 255 characters). */
const FILE_NAME_MAX = 255;

export function cleanFileName(name: string): string {
  // the user's name without its path and without hidden characters (plain-text.ts)
  const base = withoutHiddenCharacters(name.split(/[\\/]/).pop() ?? "").trim();
  if (base.length <= FILE_NAME_MAX) return base;
  // a name too long to keep is shortened before its extension: "….pdf" stays a PDF's name
  const extension = /\.[^.]{1,10}$/.exec(base)?.[0] ?? "";
  const kept = base.slice(0, FILE_NAME_MAX - extension.length - 1).replace(/[\ud800-\udbff]$/, ""); // never half an emoji
  return `${kept.trimEnd()}…${extension}`;
}

export function isPdfUpload(fileName: string, contentType: string): boolean {
  return /\.pdf$/i.test(fileName) && (contentType === "" || contentType === "application/pdf");
}

export async function createUpload(
  { db }: DbDeps,
  {
    userId,
    fileName,
    origin = { source: "upload" },
  }: { userId: string; fileName: string; origin?: { source: "upload" | "drive"; driveFileId?: string } },
): Promise<{ id: string; r2Key: string }> {
  const quota = await quotaFor({ db }, { userId });
  const id = crypto.randomUUID();
  const r2Key = uploadKey(userId, id);
  // One statement, so the counts and the insert cannot be split by a concurrent upload
  // (raw SQL: drizzle cannot express an INSERT ... SELECT with no source table).
  // Upload links whose file has not arrived do not count as documents; they have
  // their own small cap, and are swept after STALE_UPLOAD_MS.
  const inserted = await db.$client
    .prepare(
      `INSERT INTO documents (id, user_id, file_name, r2_key, status, source, drive_file_id)
       SELECT ?1, ?2, ?3, ?4, 'uploading', ?5, ?6
       WHERE (SELECT COUNT(*) FROM documents WHERE user_id = ?2 AND status != 'uploading') < ?7
         AND (SELECT COUNT(*) FROM documents WHERE user_id = ?2 AND status = 'uploading') < ?8`,
    )
    .bind(id, userId, fileName, r2Key, origin.source, origin.driveFileId ?? null, quota.maxDocuments, MAX_OPEN_UPLOADS)
    .run();
  if (inserted.meta.changes === 0) {
    const open = await db
      .select({ n: count() })
      .from(documents)
      .where(and(eq(documents.userId, userId), eq(documents.status, "uploading")))
      .get();
    if ((open?.n ?? 0) >= MAX_OPEN_UPLOADS) throw new ApiError(429, M.tooManyOpenUploads);
    throw quotaReached(quota);
  }
  return { id, r2Key };
}

const quotaReached = (quota: Quota) =>
  new ApiError(
    403,
    `You have reached your plan's limit of ${quota.maxDocuments} documents. Delete some files or upgrade your plan (${UPGRADE_PATH}) to upload more.`,
  );

/**
 * The upload's file arrived: it becomes one of the user's documents, pending, if a
 * slot is free (the plan's quota, read in the same statement), in one statement, so
 * exactly one caller claims it: two files arriving at once cannot both take the last
 * slot, and of several index calls for one upload (a double click, a retry) one
 * claims it and the others find it taken. Undefined when this call did not claim it.
 */
function claimUpload(db: Db, { userId, r2Key, sizeBytes }: { userId: string; r2Key: string; sizeBytes: number }) {
  return db
    .update(documents)
    .set({ status: "pending", sizeBytes, error: null, fileHash: sql`${CLAIMED_HASH_PREFIX} || ${documents.id}` })
    .where(
      and(
        eq(documents.userId, userId),
        eq(documents.r2Key, r2Key),
        eq(documents.status, "uploading"),
        sql`(SELECT COUNT(*) FROM ${documents} WHERE ${documents.userId} = ${userId} AND ${documents.status} != 'uploading') < ${maxDocumentsSql(userId)}`,
      ),
    )
    .returning({ id: documents.id, fileName: documents.fileName })
    .get();
}

/** The upload row a signed upload link points at, if it still waits for its file. */
export async function findUploadingByKey({ db }: DbDeps, { r2Key }: { r2Key: string }): Promise<DocumentRow | undefined> {
  return db
    .select()
    .from(documents)
    .where(and(eq(documents.r2Key, r2Key), eq(documents.status, "uploading")))
    .get();
}

/** Whether an upload key still names a document (any status): deleting the upload, or its account, removes the row. */
export async function uploadKeyKept({ db }: DbDeps, { r2Key }: { r2Key: string }): Promise<boolean> {
  return Boolean(await db.select({ id: documents.id }).from(documents).where(eq(documents.r2Key, r2Key)).get());
}

/**
 * The caller's document an upload key names: the upload's own document, or the
 * existing one its content turned out to duplicate.
 */
export async function findByUploadKey(
  { db }: DbDeps,
  { userId, r2Key }: { userId: string; r2Key: string },
): Promise<DocumentRow | undefined> {
  const own = await db
    .select()
    .from(documents)
    .where(and(eq(documents.userId, userId), eq(documents.r2Key, r2Key)))
    .get();
  if (own) return own;
  const alias = await db
    .select({ documentId: uploadAliases.documentId })
    .from(uploadAliases)
    .where(and(eq(uploadAliases.userId, userId), eq(uploadAliases.r2Key, r2Key)))
    .get();
  if (!alias) return undefined;
  return db
    .select()
    .from(documents)
    .where(and(eq(documents.userId, userId), eq(documents.id, alias.documentId)))
    .get();
}

export interface IndexDeps extends LibraryBinding {
  db: Db;
  bucket: R2Bucket;
  queue: Queue<IngestMessage>;
}

/**
 * The index step: one D1 write (the claim) and one queue message. Nothing of the
 * file is read here: its size comes from its metadata, and the indexer reads it
 * anyway, so the indexer hashes it, finds a duplicate of a document the user already
 * has (the upload then names that one: a later call answers it, `duplicate`) and
 * checks that it is a PDF (ingest/upload-content.ts).
 */
export async function startIndexing(deps: IndexDeps, { userId, r2Key }: { userId: string; r2Key: string }): Promise<IndexResponse> {
  // a key this user was never given is not looked up (R2 refuses names over 1,024 bytes with an error)
  if (!isUploadKeyOf(userId, r2Key)) throw new ApiError(404, M.fileNotFound);
  const object = await deps.bucket.head(r2Key);
  const size = object?.size ?? null;
  const claimed = size ? await claimUpload(deps.db, { userId, r2Key, sizeBytes: size }) : undefined;
  if (!size || !claimed) return answerUnclaimed(deps, { userId, r2Key, size });

  // From here the user's Library owns the document's lifecycle (mirrored to this row, which the claim already wrote).
  const userLibrary = library(deps, userId);
  const fail = async (reason: string): Promise<IndexResponse> => {
    await userLibrary.fail(claimed.id, claimed.fileName, reason);
    return { status: "failed", fileId: claimed.id };
  };
  // Only reachable through a real R2 presigned URL; the Worker upload refuses big bodies with a 413.
  if (size > MAX_UPLOAD_BYTES) {
    await deps.bucket.delete(r2Key);
    return fail(M.tooLarge);
  }
  await userLibrary.enqueue(claimed.id, claimed.fileName, r2Key, { catalogued: true });
  try {
    await deps.queue.send({ documentId: claimed.id });
  } catch (err) {
    console.error("could not queue document", claimed.id, err);
    return fail(M.indexingFailed);
  }
  return { status: "pending", fileId: claimed.id };
}

/**
 * An index call that did not claim the upload: the answer for an upload claimed
 * before (by another call, or dropped as a duplicate since), or why it cannot be
 * claimed (its file missing or empty, or no slot left: the upload is removed).
 */
async function answerUnclaimed(
  { db, bucket }: IndexDeps,
  { userId, r2Key, size }: { userId: string; r2Key: string; size: number | null },
): Promise<IndexResponse> {
  const doc = await findByUploadKey({ db }, { userId, r2Key });
  if (!doc) throw new ApiError(404, M.fileNotFound);
  // the indexer dropped it as a duplicate: the existing document
  if (doc.r2Key !== r2Key) return { status: doc.status, fileId: doc.id, duplicate: true };
  if (doc.status !== "uploading") return { status: doc.status, fileId: doc.id };
  if (size === null) throw new ApiError(400, M.uploadMissing);
  // nothing to index or to keep (empty), or no slot left: the upload is removed, the user told why
  await bucket.delete(r2Key);
  await db.delete(documents).where(and(eq(documents.id, doc.id), eq(documents.status, "uploading")));
  if (size === 0) throw new ApiError(400, M.empty);
  throw quotaReached(await quotaFor({ db }, { userId }));
}
