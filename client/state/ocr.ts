// Text recognition of scanned documents (status needs_ocr) in this browser:
// one document at a time, page by page, each page's text sent to the server as
// soon as it is read, so a cancelled or reloaded recognition simply continues
// with the pages the server still lists (ocrPages). It starts by itself once
// per document (remembered in localStorage) when My Files shows it or a chat
// takes it, continues by itself after a reload that interrupted it, and
// otherwise starts on demand with "Recognise text".
import { subscribe } from "valtio";
import {
  OCR_PAGE_MAX_CHARS,
  ocrPageNotListed,
  type FileItem,
  type IndexingStatusResponse,
  type OcrPagesRequest,
} from "../../worker/contract/documents";
import { api, ApiRequestError, serverMessage } from "../lib/api";
import { STORAGE_KEYS } from "../lib/constants";
import type { PageReader } from "../lib/ocr/engine";
import { documentLink } from "./documents";
import { ocrState, type Recognition } from "./ocrProgress";
import { userInfo } from "./user";

export { ocrState, recognitionText, type Recognition } from "./ocrProgress";

type FileRef = Pick<FileItem, "fileId" | "fileName">;

/** The documents whose recognition is queued or running. */
export function recognisingIds(documents: Readonly<Record<string, Pick<Recognition, "phase">>>): Set<string> {
  return new Set(Object.keys(documents).filter((id) => documents[id]!.phase !== "done"));
}

export const OCR_MESSAGES = {
  couldNotStart: "Text recognition could not start. Check your connection and try again.",
  pageFailed: (page: number) => `Text recognition stopped at page ${page}. Try again to continue from there.`,
} as const;

const controllers = new Map<string, AbortController>();
// one recognition at a time: each is heavy on the processor and memory
let queue: Promise<void> = Promise.resolve();

/** Starts recognising a document's remaining pages (queued behind one already running); nothing if it is already queued. */
export function recogniseDocument(file: FileRef): void {
  const current = ocrState.documents[file.fileId];
  if (current && current.phase !== "done") return;
  const controller = new AbortController();
  controllers.set(file.fileId, controller);
  ocrState.documents[file.fileId] = {
    fileName: file.fileName,
    phase: "waiting",
    page: null,
    pagesDone: 0,
    pagesTotal: 0,
    pagesSent: [],
    status: "needs_ocr",
    error: null,
  };
  queue = queue.then(() => run(file.fileId, controller.signal));
}

/** Stops a document's recognition: the pages already sent stay recognised, the rest wait for "Recognise text". */
export function cancelRecognition(fileId: string): void {
  controllers.get(fileId)?.abort();
  controllers.delete(fileId);
  delete ocrState.documents[fileId];
  markInterrupted(fileId, false);
}

/** Stops every recognition (signing out does). */
export function stopAllRecognitions(): void {
  for (const fileId of [...controllers.keys()]) cancelRecognition(fileId);
  ocrState.documents = {};
}

// this module loads with My Files or a chat, after the user state, so it listens rather than being called
subscribe(userInfo, () => {
  if (!userInfo.user) stopAllRecognitions();
});

/**
 * My Files listed these files: a finished recognition's outcome is forgotten
 * once the list has caught up with it (its pages no longer listed as waiting),
 * and documents waiting for recognition start it by themselves (once each).
 */
export function filesListed(files: readonly FileItem[]): void {
  for (const file of files) {
    const job = ocrState.documents[file.fileId];
    if (job?.phase !== "done" || job.error) continue;
    const stale = file.status === "needs_ocr" && file.ocrPages?.some((page) => job.pagesSent.includes(page));
    if (!stale) delete ocrState.documents[file.fileId];
  }
  autoRecognise(files);
}

/**
 * Starts the recognition of documents waiting for it (My Files showed them, or
 * a chat took them): once per document ever, and again for one a reload
 * interrupted (not one the user cancelled).
 */
export function autoRecognise(files: readonly (FileRef & Pick<FileItem, "status">)[]): void {
  const waiting = files.filter((f) => f.status === "needs_ocr");
  if (waiting.length === 0) return;
  const started = storedIds(STORAGE_KEYS.ocrAutoStarted);
  const interrupted = storedIds(STORAGE_KEYS.ocrInProgress);
  for (const file of waiting) {
    if (started.includes(file.fileId) && !interrupted.includes(file.fileId)) continue;
    if (!started.includes(file.fileId)) started.push(file.fileId);
    recogniseDocument(file);
  }
  storeIds(STORAGE_KEYS.ocrAutoStarted, started);
}

/** How many document ids each localStorage list keeps (the oldest are forgotten). */
const STORED_IDS_KEPT = 500;

function storedIds(key: string): string[] {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(key) ?? "[]");
    return Array.isArray(saved) ? saved.filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
}

function storeIds(key: string, ids: string[]): void {
  try {
    localStorage.setItem(key, JSON.stringify(ids.slice(-STORED_IDS_KEPT)));
  } catch {
    // storage full or disabled: at worst a recognition starts by itself again, or waits for the button
  }
}

/** A recognition under way is noted, so a reload in the middle of it continues it by itself. */
function markInterrupted(fileId: string, underWay: boolean): void {
  const ids = storedIds(STORAGE_KEYS.ocrInProgress).filter((id) => id !== fileId);
  storeIds(STORAGE_KEYS.ocrInProgress, underWay ? [...ids, fileId] : ids);
}

class Cancelled extends Error {}

/** Resolves like `promise`, or rejects with Cancelled as soon as the signal aborts. */
function unlessCancelled<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Cancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Cancelled());
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

async function run(fileId: string, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  const job = ocrState.documents[fileId];
  if (!job) return;
  job.phase = "running";
  markInterrupted(fileId, true);
  let reader: PageReader | null = null;
  try {
    const status = await unlessCancelled(indexingStatus(fileId), signal);
    job.status = status.status;
    const pages = status.ocrPages ?? [];
    job.pagesTotal = pages.length;
    if (pages.length > 0) {
      const { url } = await unlessCancelled(documentLink(fileId, undefined, { forRecognition: true }), signal);
      const engine = await unlessCancelled(import("../lib/ocr/engine"), signal);
      reader = await unlessCancelled(engine.openPageReader(url), signal);
    }
    for (const page of pages) {
      job.page = page;
      const text = await unlessCancelled(readPage(reader!, page), signal);
      const answer = await unlessCancelled(sendPage(fileId, page, text), signal);
      if (answer) {
        job.status = answer.status;
        job.error = answer.status === "failed" ? answer.error : null;
      }
      job.pagesSent.push(page);
      job.pagesDone += 1;
    }
    job.phase = "done";
    markInterrupted(fileId, false);
    ocrState.finished += 1;
  } catch (err) {
    if (err instanceof Cancelled) return;
    markInterrupted(fileId, false);
    console.error("Text recognition failed", err);
    job.error = serverMessage(err) ?? (job.page === null ? OCR_MESSAGES.couldNotStart : OCR_MESSAGES.pageFailed(job.page));
    job.phase = "done";
    ocrState.finished += 1;
  } finally {
    if (controllers.get(fileId)?.signal === signal) controllers.delete(fileId);
    void reader?.close();
  }
}

function indexingStatus(fileId: string): Promise<IndexingStatusResponse> {
  return api<IndexingStatusResponse>("GET", `/api/documents/indexingStatus?${new URLSearchParams({ file_id: fileId })}`);
}

async function readPage(reader: PageReader, page: number): Promise<string> {
  const text = (await reader.read(page)).trim();
  // a page of more text than the server takes is noise, not prose: keep what fits
  return text.length > OCR_PAGE_MAX_CHARS ? text.slice(0, OCR_PAGE_MAX_CHARS) : text;
}

/** Sends one page's text ("" when nothing was recognised: the page still leaves the list). Null when the page was already done elsewhere. */
async function sendPage(fileId: string, page: number, text: string): Promise<IndexingStatusResponse | null> {
  const body: OcrPagesRequest = { pages: [{ page, text }] };
  try {
    return await api<IndexingStatusResponse>("POST", `/api/documents/${encodeURIComponent(fileId)}/ocr-pages`, body);
  } catch (err) {
    // another tab of this user sent the page first: nothing is lost
    if (err instanceof ApiRequestError && err.status === 400 && err.message === ocrPageNotListed(page)) return null;
    throw err;
  }
}
