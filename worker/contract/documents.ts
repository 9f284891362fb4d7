// The documents API contract (DESIGN.md section 5, spec sections 3, 8 and 9),
// shared by the Worker routes and the client.

export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
export const FILE_LIST_PAGE_SIZE = 10;
/** The longest My Files search (GET /api/documents?search=). */
export const FILE_SEARCH_MAX = 200;

/** `needs_ocr`: some pages are pictures of text, waiting for text recognition in the owner's browser (ocrPages). */
export type DocumentStatus = "uploading" | "pending" | "processing" | "needs_ocr" | "indexed" | "failed";

/** Pages sent together to POST /api/documents/:fileId/ocr-pages. */
export const OCR_PAGES_PER_REQUEST = 5;
/** The longest recognised text one page may have (a dense page holds about 6,000 characters). */
export const OCR_PAGE_MAX_CHARS = 20_000;

/** GET /api/documents/uploadLink?fileName&contentType */
export interface UploadLinkResponse {
  presignedUrl: string;
  s3Key: string;
}

/** POST /api/documents/index { s3_key } */
export interface IndexResponse {
  status: DocumentStatus;
  fileId: string;
  /** true when the same content was already uploaded: fileId is the existing document */
  duplicate?: boolean;
}

export interface FileItem {
  fileId: string;
  fileName: string;
  status: DocumentStatus;
  /** upload time, ISO 8601 (shown as Uploaded Date) */
  createdAt: string;
  /** last opened, ISO 8601 or null (shown as Last opened) */
  uploadedAt: string | null;
  /** SHA-256 of the content; null until the upload is indexed */
  fileHash: string | null;
  pageCount: number | null;
  error: string | null;
  /** pages (1-based) that are pictures of text, still waiting for text recognition; [] when none */
  ocrPages: number[];
  /** the folder it is in (contract/folders.ts); null at the top level */
  folderId?: string | null;
}

/** GET /api/documents?pageSize=10&pageNumber=1 (newest first) */
export interface FileListResponse {
  files: FileItem[];
  pagination: { pageNumber: number; pageSize: number; total: number; totalPages: number };
}

/** GET /api/documents/indexingStatus?file_id */
export interface IndexingStatusResponse {
  fileId: string;
  status: DocumentStatus;
  pagesDone: number;
  pagesTotal: number | null;
  error: string | null;
  /** pages (1-based) still waiting for text recognition; [] when none */
  ocrPages: number[];
}

/**
 * POST /api/documents/:fileId/ocr-pages (owner only): text recognised in the
 * browser for pages listed in ocrPages (at most OCR_PAGES_PER_REQUEST, each at
 * most OCR_PAGE_MAX_CHARS). Answers the document's IndexingStatusResponse.
 */
export interface OcrPagesRequest {
  pages: { page: number; text: string }[];
}

/** GET /api/documents/viewDocument?file_id[&page] -> a short-lived link serving the PDF inline */
export interface ViewDocumentResponse {
  url: string;
}

/**
 * DELETE /api/documents { file_hashes, file_ids? }: by content hash (the spec), or
 * by id for an upload whose file never arrived (it has no hash). `deleted` and
 * `errors[].file_hash` name each file the way it was asked for.
 */
export interface DeleteResponse {
  status: "success" | "partial" | "error";
  deleted: string[];
  errors: { error: string; file_hash: string }[];
}

/** GET /api/auth/google/connectionStatus */
export interface DriveConnectionResponse {
  status: "connected" | "not_connected" | "unavailable";
  message?: string;
}

/** One PDF in the user's Google Drive. */
export interface DriveFile {
  id: string;
  name: string;
  webViewLink: string;
}

/** GET /api/drive/files[?pageToken] (PDFs only) */
export interface DriveFileList {
  files: DriveFile[];
  nextPageToken?: string;
}

/** One imported drive file (file_id) and the document it became (fileId). */
export interface DriveImportResult {
  file_id: string;
  status: DocumentStatus;
  fileId: string;
  s3_key: string;
  duplicate?: boolean;
}

/** POST /api/drive/import { file_ids } (DELETE /api/drive/connection answers a StatusMessage) */
export interface DriveImportResponse {
  status: "success" | "partial" | "error";
  message: string;
  results: DriveImportResult[];
  errors: { file_id: string; error: string }[];
}

/** Plain sentences a user understands, for failed documents and rejected requests. */
export const DOCUMENT_MESSAGES = {
  notPdfName: "Only PDF files can be uploaded.",
  fileNameRequired: "File name is required.",
  tooLarge: "Larger than 25 MB: this file is too large to upload.",
  notPdf: "Not a PDF: this file is damaged or is not a PDF document.",
  passwordProtected: "This PDF is password-protected. Remove the password and upload it again.",
  noText: "No text found: this PDF has no text and no scanned pages to recognise.",
  nothingRecognised: "No text recognised on these pages, so there is no text to search.",
  ocrTooLong: `The recognised text of a page is longer than ${OCR_PAGE_MAX_CHARS.toLocaleString("en-US")} characters.`,
  ocrNotNeeded: "This file has no pages waiting for text recognition.",
  uploadMissing: "The upload did not finish. Please upload the file again.",
  indexingFailed: "We could not index this file. Please try uploading it again.",
  indexingTimedOut: "Indexing took too long and was stopped. Please upload the file again.",
  fileNotFound: "File not found.",
  linkInvalid: "This link is invalid or has expired.",
  fileHashesRequired: "Select at least one file to delete.",
  empty: "The file is empty.",
  tooManyOpenUploads: "Too many uploads are still in progress. Wait for them to finish, then try again.",
  s3KeyRequired: "s3_key is required.",
  fileIdRequired: "file_id is required.",
} as const;

/** A page the client sent that is not waiting for recognition. */
export const ocrPageNotListed = (page: number) => `Page ${page} does not need text recognition.`;
