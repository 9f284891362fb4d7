// Indexes one document: R2 bytes -> (a new upload: its content hash, a duplicate
// of a document the user has, a PDF at all? ./upload-content.ts) -> text per page ->
// the owner's Library, which chunks the pages, indexes them and records the
// progress (its lifecycle is mirrored to the D1 catalogue row); vectors when bound.
// Idempotent: the Library first removes whatever an earlier, interrupted attempt
// wrote, so a retry never duplicates chunks or vectors.
import { eq } from "drizzle-orm";
import { DOCUMENT_MESSAGES } from "../contract/documents";
import { getDb } from "../db/client";
import { documents, hashed } from "../db/schema";
import { library, type LibraryBinding } from "../library/stub";
import { quotaFor } from "../services/quotas";
import { deleteVectors, upsertChunkVectors, vectorsEnabled, type VectorBindings } from "../services/vectors";
import { isEmptyPage } from "../library/chunker";
import { recordOverview } from "../services/overviews";
import { IndexingFailure, hasTooLittleText, openPdfPages } from "./extract";
import { looksLikePdf, settleUpload } from "./upload-content";

export interface IndexerDeps extends VectorBindings, LibraryBinding {
  DB: D1Database;
  DOCUMENTS: R2Bucket;
}

/**
 * Pages handed to the Library together: each step is searchable (and shown as
 * progress) as soon as it is in. The first steps are small, so a long PDF's first
 * pages answer within a second; later ones larger, as each step costs the
 * isolate a fixed ~15-20 ms (the call, the catalogue row) besides its pages.
 */
const stepSize = (pagesRead: number) => (pagesRead < 25 ? 25 : pagesRead < 75 ? 50 : 100);
/** A step also ends after this long, so slow pages still show progress and renew the run's lease (INDEXING_LEASE_MS). */
const STEP_MAX_MS = 2000;

export type IndexOutcome = "indexed" | "skipped";

/** The catalogue facts the indexer needs; undefined when the document was deleted. */
async function catalogueEntry(deps: IndexerDeps, documentId: string) {
  return getDb(deps)
    .select({
      userId: documents.userId,
      fileName: documents.fileName,
      r2Key: documents.r2Key,
      fileHash: documents.fileHash,
      status: documents.status,
    })
    .from(documents)
    .where(eq(documents.id, documentId))
    .get();
}

/** The uploaded file's bytes. */
async function readUpload(deps: IndexerDeps, r2Key: string): Promise<Uint8Array> {
  const object = await deps.DOCUMENTS.get(r2Key);
  if (!object) throw new IndexingFailure(DOCUMENT_MESSAGES.uploadMissing);
  return new Uint8Array(await object.arrayBuffer());
}

/**
 * Throws IndexingFailure for problems a retry cannot fix (the caller fails the
 * document at once) and any other error for transient ones (retried).
 */
export async function indexDocument(deps: IndexerDeps, documentId: string): Promise<IndexOutcome> {
  const doc = await catalogueEntry(deps, documentId);
  if (!doc) return "skipped"; // deleted meanwhile
  let bytes: Uint8Array | undefined;
  if (!hashed(doc.fileHash) && (doc.status === "pending" || doc.status === "processing")) {
    // a new upload: whether it is a new document at all (its content hash, which the index call no longer reads)
    bytes = await readUpload(deps, doc.r2Key);
    if ((await settleUpload(deps, { id: documentId, userId: doc.userId, r2Key: doc.r2Key }, bytes)) !== "kept") return "skipped";
  }
  const userLibrary = library(deps, doc.userId);
  const run = await userLibrary.begin(documentId);
  if (!run) return "skipped"; // finished, failed, removed, or another run holds it
  await deleteVectors(deps, { ids: run.staleChunkIds });
  try {
    return await indexPages(deps, userLibrary, doc, documentId, run.runId, bytes);
  } catch (err) {
    // a passing problem: hand the document back so the queue's retry can take it
    if (!(err instanceof IndexingFailure)) await userLibrary.release(documentId, run.runId).catch(() => {});
    throw err;
  }
}

/**
 * Reads the pages and hands them to the Library 25 at a time, under this run's
 * lease, while the rest is still being read: a long PDF is searchable from its
 * first pages on. Pages that are pictures of text are listed for recognition in
 * the owner's browser (the document waits for it as needs_ocr when it has too
 * little text of its own); a file that is no PDF, or a PDF with too little text
 * and no such page, fails. `read`: its bytes, when a new upload's were read for its hash.
 */
async function indexPages(
  deps: IndexerDeps,
  userLibrary: ReturnType<typeof library>,
  doc: { userId: string; r2Key: string; fileName: string },
  documentId: string,
  runId: string,
  read?: Uint8Array,
): Promise<IndexOutcome> {
  const bytes = read ?? (await readUpload(deps, doc.r2Key));
  if (!looksLikePdf(bytes)) throw new IndexingFailure(DOCUMENT_MESSAGES.notPdf);

  const quota = await quotaFor({ db: getDb(deps) }, { userId: doc.userId });
  const pdf = await openPdfPages(bytes, quota.maxPagesPerDocument);
  const written: string[] = [];
  // Deleted, given up on, or taken over while it was being indexed: leave no vectors behind.
  const stopped = async (): Promise<IndexOutcome> => {
    await deleteVectors(deps, { ids: written });
    return "skipped";
  };
  try {
    if (!(await userLibrary.setPageCount(documentId, runId, pdf.pageCount))) return "skipped";
    let pagesRead = 0;
    let emptyPages = 0;
    const scannedPages: number[] = [];
    const texts: string[] = []; // for the overview, computed once the text is in
    let step: string[] = [];
    let stepStarted = Date.now();
    const addStep = async () => {
      const chunks = await userLibrary.addPages(documentId, runId, pagesRead - step.length + 1, step, vectorsEnabled(deps));
      step = [];
      stepStarted = Date.now();
      if (chunks) {
        written.push(...chunks.map((c) => c.id));
        await upsertChunkVectors(deps, { userId: doc.userId, chunks });
      }
      return chunks !== null;
    };
    for await (const { text, scanned } of pdf.pages()) {
      pagesRead++;
      if (isEmptyPage(text)) emptyPages++;
      if (scanned) scannedPages.push(pagesRead);
      step.push(text);
      texts.push(text);
      const stepDone = step.length === stepSize(pagesRead - step.length) || Date.now() - stepStarted >= STEP_MAX_MS;
      if (stepDone && !(await addStep())) return stopped();
    }
    if (step.length && !(await addStep())) return stopped();
    const textTooFew = hasTooLittleText(pagesRead, emptyPages);
    if (!scannedPages.length && textTooFew) throw new IndexingFailure(DOCUMENT_MESSAGES.noText);
    await recordOverview(deps, { documentId, fileName: doc.fileName, pages: texts, bookmarks: pdf.outline() });
    return (await userLibrary.finish(documentId, runId, scannedPages, textTooFew)) ? "indexed" : stopped();
  } finally {
    await pdf.close();
  }
}

/** Fails the document for `reason`: the Library drops what it holds and the catalogue row shows the reason. */
export async function failDocument(deps: IndexerDeps, documentId: string, reason: string): Promise<void> {
  const doc = await catalogueEntry(deps, documentId);
  if (!doc) return;
  await deleteVectors(deps, { ids: await library(deps, doc.userId).fail(documentId, doc.fileName, reason) });
}
