// Uploads: the upload row a signed link points at, the index step that turns an
// arrived file into a document (magic bytes, size, content hash, per-user
// de-duplication, the quota slot, then the user's Library and the queue), and the
// file names we keep. Every query is scoped to the caller.
import { and, count, eq, ne, sql } from "drizzle-orm";
import { DOCUMENT_MESSAGES as M, MAX_UPLOAD_BYTES, type IndexResponse } from "../contract/documents";
import type { Db } from "../db/client";
import { documents, uploadAliases, type DocumentRow } from "../db/schema";
import { ApiError } from "../errors";
import type { IngestMessage } from "../ingest/consumer";
import { library, type LibraryBinding } from "../library/stub";
import type { DbDeps } from "./deps";
import { quotaFor, UPGRADE_PATH, type Quota } from "./quotas";
import { withoutHiddenCharacters } from "../contract/plain-text";

/** An upload row whose file never arrived is removed after this long. */
export const STALE_UPLOAD_MS = 60 * 60 * 1000;
/** Upload links a user may hold open at once (they do not count toward the document quota). */
export const MAX_OPEN_UPLOADS = 20;

const PDF_MAGIC = "%PDF-";
const MAGIC_SEARCH_BYTES = 1024; // pdf.js accepts a little junk before the header

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
  const r2Key = `users/${userId}/${id}.pdf`;
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

/** What claiming an arrived upload came to (claimUpload). */
type Claim = "claimed" | "taken" | "duplicate" | "full";

/**
 * The upload's file arrived: it becomes one of the user's documents if a slot is
 * free, in one statement, so exactly one caller claims it: two files arriving at
 * once cannot both take the last slot, and of several index calls for one upload
 * (a double click, a retry) one claims it and the others find it "taken". A file
 * whose content another upload of the user's just claimed is a "duplicate"
 * (the unique index on user and hash decides).
 */
async function claimUpload(db: Db, doc: DocumentRow, quota: Quota, file: { fileHash: string; sizeBytes: number }): Promise<Claim> {
  try {
    const claimed = await db
      .update(documents)
      .set({ status: "pending", fileHash: file.fileHash, sizeBytes: file.sizeBytes, error: null })
      .where(
        and(
          eq(documents.id, doc.id),
          eq(documents.status, "uploading"),
          sql`(SELECT COUNT(*) FROM ${documents} WHERE ${documents.userId} = ${doc.userId} AND ${documents.status} != 'uploading') < ${quota.maxDocuments}`,
        ),
      )
      .run();
    if (claimed.meta.changes > 0) return "claimed";
  } catch (err) {
    if (isUniqueViolation(err)) return "duplicate";
    throw err;
  }
  const now = await db.select({ status: documents.status }).from(documents).where(eq(documents.id, doc.id)).get();
  return now && now.status !== "uploading" ? "taken" : "full";
}

function isUniqueViolation(err: unknown): boolean {
  const text = `${(err as Error)?.message ?? ""} ${String((err as { cause?: unknown })?.cause ?? "")}`;
  return /UNIQUE constraint failed/i.test(text);
}

/** The upload row a signed upload link points at, if it still waits for its file. */
export async function findUploadingByKey({ db }: DbDeps, { r2Key }: { r2Key: string }): Promise<DocumentRow | undefined> {
  return db
    .select()
    .from(documents)
    .where(and(eq(documents.r2Key, r2Key), eq(documents.status, "uploading")))
    .get();
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

async function sha256Hex(stream: ReadableStream<Uint8Array>): Promise<string> {
  const digest = new crypto.DigestStream("SHA-256");
  await stream.pipeTo(digest);
  return [...new Uint8Array(await digest.digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function hasPdfMagic(bucket: R2Bucket, key: string): Promise<boolean> {
  const head = await bucket.get(key, { range: { offset: 0, length: MAGIC_SEARCH_BYTES } });
  if (!head) return false;
  const text = new TextDecoder("latin1").decode(await head.arrayBuffer());
  return text.includes(PDF_MAGIC);
}

/**
 * Same content again: keep the existing document, drop this upload, and let its
 * key keep naming the existing document (a chat may attach it by s3_key).
 */
async function dropAsDuplicate(
  { db, bucket }: IndexDeps,
  {
    userId,
    r2Key,
    uploadId,
    existing,
  }: { userId: string; r2Key: string; uploadId: string; existing: { id: string; status: DocumentRow["status"] } },
): Promise<IndexResponse> {
  await db.batch([
    db.delete(documents).where(eq(documents.id, uploadId)),
    db.insert(uploadAliases).values({ r2Key, userId, documentId: existing.id }).onConflictDoNothing(),
  ]);
  await bucket.delete(r2Key);
  return { status: existing.status, fileId: existing.id, duplicate: true };
}

/** Another index call for this upload claimed it meanwhile: the answer that call gives, as a later call would get it. */
async function answerAgain(db: Db, { userId, r2Key }: { userId: string; r2Key: string }): Promise<IndexResponse> {
  const doc = await findByUploadKey({ db }, { userId, r2Key });
  if (!doc) throw new ApiError(404, M.fileNotFound);
  return { status: doc.status, fileId: doc.id, ...(doc.r2Key !== r2Key ? { duplicate: true } : {}) };
}

export interface IndexDeps extends LibraryBinding {
  db: Db;
  bucket: R2Bucket;
  queue: Queue<IngestMessage>;
}

/** The index step: validate the uploaded object, de-duplicate by content, queue it. */
export async function startIndexing(deps: IndexDeps, { userId, r2Key }: { userId: string; r2Key: string }): Promise<IndexResponse> {
  const { db, bucket } = deps;
  const doc = await findByUploadKey({ db }, { userId, r2Key });
  if (!doc) throw new ApiError(404, M.fileNotFound);
  // Asked again for an upload that was dropped as a duplicate: answer as the first time.
  if (doc.r2Key !== r2Key) return { status: doc.status, fileId: doc.id, duplicate: true };
  if (doc.status !== "uploading") return { status: doc.status, fileId: doc.id };

  const object = await bucket.head(r2Key);
  if (!object) throw new ApiError(400, M.uploadMissing);
  if (object.size === 0) {
    // nothing to index or to keep: the upload is removed, the user told why
    await bucket.delete(r2Key);
    await db.delete(documents).where(eq(documents.id, doc.id));
    throw new ApiError(400, M.empty);
  }

  const userLibrary = library(deps, userId);
  const fail = async (reason: string): Promise<IndexResponse> => {
    await userLibrary.fail(doc.id, doc.fileName, reason);
    return { status: "failed", fileId: doc.id };
  };
  const body = await bucket.get(r2Key);
  if (!body) throw new ApiError(400, M.uploadMissing);
  const fileHash = await sha256Hex(body.body);

  // the same content already in My Files (never this upload itself: a concurrent call may have claimed it)
  const sameContent = () =>
    db
      .select({ id: documents.id, status: documents.status })
      .from(documents)
      .where(and(eq(documents.userId, userId), eq(documents.fileHash, fileHash), ne(documents.id, doc.id)))
      .get();
  const existing = await sameContent();
  if (existing) return dropAsDuplicate(deps, { userId, r2Key, uploadId: doc.id, existing });

  const quota = await quotaFor({ db }, { userId });
  const claim = await claimUpload(db, doc, quota, { fileHash, sizeBytes: object.size });
  if (claim === "taken") return answerAgain(db, { userId, r2Key });
  if (claim === "duplicate") {
    const other = await sameContent();
    if (other) return dropAsDuplicate(deps, { userId, r2Key, uploadId: doc.id, existing: other });
    return answerAgain(db, { userId, r2Key });
  }
  if (claim === "full") {
    await bucket.delete(r2Key);
    await db.delete(documents).where(and(eq(documents.id, doc.id), eq(documents.status, "uploading")));
    throw quotaReached(quota);
  }
  // Only reachable through a real R2 presigned URL; the Worker upload refuses big bodies with a 413.
  if (object.size > MAX_UPLOAD_BYTES) {
    await bucket.delete(r2Key);
    return fail(M.tooLarge);
  }
  if (!(await hasPdfMagic(bucket, r2Key))) return fail(M.notPdf);

  // From here the user's Library owns the document's lifecycle (mirrored to this row).
  await userLibrary.enqueue(doc.id, doc.fileName, r2Key);
  try {
    await deps.queue.send({ documentId: doc.id });
  } catch (err) {
    console.error("could not queue document", doc.id, err);
    return fail(M.indexingFailed);
  }
  return { status: "pending", fileId: doc.id };
}
