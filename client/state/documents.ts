// My Files (spec sections 3, 4, 8 and 9): the paged list, uploading, deleting
// and viewing documents, and the list the chat's "From My Files" picks from.
// Plain actions: each screen keeps its own paging, selection and progress.
import { deletionKey } from "../lib/files";
import {
  FILE_LIST_PAGE_SIZE,
  type DeleteResponse,
  type FileItem,
  type FileListResponse,
  type IndexResponse,
  type ViewDocumentResponse,
} from "../../worker/contract/documents";
import type { Source } from "../../worker/contract/protocol";
import { api } from "../lib/api";
import { uploadPdf } from "../lib/upload";

/** The "From My Files" list is read in pages of the API's largest size. */
const ATTACHABLE_PAGE_SIZE = 100;

function listPage(pageNumber: number, pageSize: number, search = "", folderId: string | null = null): Promise<FileListResponse> {
  const query = new URLSearchParams({ pageSize: String(pageSize), pageNumber: String(pageNumber) });
  if (search.trim()) query.set("search", search.trim());
  if (folderId) query.set("folderId", folderId);
  return api<FileListResponse>("GET", `/api/documents?${query}`);
}

/** One page of My Files, newest first (only names containing `search`, when given). */
export function loadFilePage(pageNumber: number, search = "", folderId: string | null = null): Promise<FileListResponse> {
  return listPage(pageNumber, FILE_LIST_PAGE_SIZE, search, folderId);
}

/** Files a chat can attach: everything except failed ones and uploads that have not arrived. */
export async function loadAttachableFiles(): Promise<FileItem[]> {
  const files: FileItem[] = [];
  for (let pageNumber = 1; ; pageNumber++) {
    const page = await listPage(pageNumber, ATTACHABLE_PAGE_SIZE);
    files.push(...(page.files ?? []));
    if (pageNumber >= (page.pagination?.totalPages ?? 1)) break;
  }
  return files.filter((f) => f.status !== "failed" && f.status !== "uploading");
}

/** Uploads a PDF with progress (0-100) and starts indexing it; the s3Key can name it in a chat question. */
export function uploadDocument(file: File, onProgress: (percent: number) => void): Promise<IndexResponse & { s3Key: string }> {
  return uploadPdf(file, onProgress);
}

/** DELETE /api/documents { file_hashes, file_ids }: what was deleted and why the rest was not (by deletionKey). */
export function deleteDocuments(files: Pick<FileItem, "fileId" | "fileHash">[]): Promise<DeleteResponse> {
  const fileHashes = [...new Set(files.flatMap((f) => (f.fileHash ? [f.fileHash] : [])))];
  const fileIds = [...new Set(files.flatMap((f) => (!f.fileHash && deletionKey(f) ? [f.fileId] : [])))];
  return api<DeleteResponse>("DELETE", "/api/documents", { file_hashes: fileHashes, ...(fileIds.length ? { file_ids: fileIds } : {}) });
}

/** A short-lived link to the PDF; `forRecognition`: read by text recognition, so not noted as last opened. */
export function documentLink(fileId: string, page?: number, { forRecognition = false } = {}): Promise<ViewDocumentResponse> {
  const query = new URLSearchParams({ file_id: fileId });
  if (page !== undefined) query.set("page", String(page));
  if (forRecognition) query.set("for", "recognition");
  return api<ViewDocumentResponse>("GET", `/api/documents/viewDocument?${query}`);
}

/** Opens a file in a new tab (a failure is only logged). The server notes it as last opened. */
export async function viewDocument(file: Pick<FileItem, "fileId" | "fileName">): Promise<void> {
  try {
    const { url } = await documentLink(file.fileId);
    if (url) window.open(url, "_blank", "noopener");
  } catch (err) {
    console.error(`Opening ${file.fileName} failed`, err);
  }
}

/** Opens the cited file at its page in a new tab (the tab opens first so pop-up blockers allow it). */
export async function openSource(source: Pick<Source, "fileId" | "page" | "fileName">): Promise<void> {
  const tab = window.open("", "_blank");
  try {
    const { url } = await documentLink(source.fileId, source.page);
    if (!url) throw new Error("No document link received.");
    if (tab) {
      tab.opener = null;
      tab.location.href = url;
    } else {
      window.open(url, "_blank", "noopener");
    }
  } catch (err) {
    tab?.close();
    console.error(`Opening ${source.fileName} failed`, err);
  }
}
