// An upload's content, read once by the indexer (the index call reads none of it):
// its SHA-256 becomes the catalogue row's file_hash, and when the user already has a
// document with that content the upload is dropped as a duplicate of it: its file
// goes, and both its key and its own document id name the existing document from
// then on (upload_aliases), so a chat that attached it, a status question or a later
// index call for it get that one, and My Files lists the file once.
import { and, eq, isNull, like, ne, or } from "drizzle-orm";
import { getDb } from "../db/client";
import { CLAIMED_HASH_PREFIX, documents, uploadAliases } from "../db/schema";
import { library } from "../library/stub";
import type { IndexerDeps } from "./indexer";
import { isUniqueViolation } from "../db/unique";

/** What an upload came to: a new document, a duplicate of one the user has, or deleted meanwhile. */
export type UploadOutcome = "kept" | "duplicate" | "gone";

export interface Upload {
  id: string;
  userId: string;
  r2Key: string;
}

const PDF_MAGIC = "%PDF-";
const MAGIC_SEARCH_BYTES = 1024; // pdf.js accepts a little junk before the header

/** Whether the bytes start like a PDF (within the junk pdf.js accepts before the header). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return new TextDecoder("latin1").decode(bytes.subarray(0, MAGIC_SEARCH_BYTES)).includes(PDF_MAGIC);
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Records the upload's content hash, in one statement: the unique index on (user,
 * hash) decides whether the user already has this content (also when two uploads of
 * one file are indexed at once: the second to record it is the duplicate). Hash the
 * bytes before pdf.js reads them (it detaches the buffer).
 */
export async function settleUpload(deps: IndexerDeps, upload: Upload, bytes: Uint8Array): Promise<UploadOutcome> {
  const db = getDb(deps);
  const fileHash = await sha256Hex(bytes);
  try {
    const recorded = await db
      .update(documents)
      .set({ fileHash })
      .where(and(eq(documents.id, upload.id), or(isNull(documents.fileHash), like(documents.fileHash, `${CLAIMED_HASH_PREFIX}%`))))
      .run();
    if (recorded.meta.changes > 0) return "kept";
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const existing = await db
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.userId, upload.userId), eq(documents.fileHash, fileHash), ne(documents.id, upload.id)))
      .get();
    if (!existing) throw err; // removed meanwhile: the retry records it
    await dropAsDuplicate(deps, upload, existing.id);
    return "duplicate";
  }
  // recorded by another run of this upload, or the upload was deleted meanwhile
  const row = await db.select({ id: documents.id }).from(documents).where(eq(documents.id, upload.id)).get();
  return row ? "kept" : "gone";
}

/**
 * Same content again: the existing document stays, this upload goes (its Library
 * entry first, so a retry after a failure below finds the row and does it all again),
 * and its key and id name the existing document from now on.
 */
async function dropAsDuplicate(deps: IndexerDeps, upload: Upload, existingId: string): Promise<void> {
  const db = getDb(deps);
  await library(deps, upload.userId).remove(upload.id, existingId);
  await db.batch([
    db.delete(documents).where(eq(documents.id, upload.id)),
    db
      .insert(uploadAliases)
      .values({ r2Key: upload.r2Key, userId: upload.userId, documentId: existingId, uploadId: upload.id })
      .onConflictDoNothing(),
  ]);
  await deps.DOCUMENTS.delete(upload.r2Key).catch((err: unknown) => console.error("could not remove a duplicate upload's file", err));
}
