// Uploading a PDF from the device (spec sections 7 and 8): ask for a self-signed
// upload link, PUT the raw file to it with XMLHttpRequest (for progress, and with
// no Authorization header), then ask the API to index it.
import { DOCUMENT_MESSAGES, MAX_UPLOAD_BYTES, type IndexResponse, type UploadLinkResponse } from "../../worker/contract/documents";
import { api } from "./api";

export const PDF_CONTENT_TYPE = "application/pdf";
export const NO_LINK_MESSAGE = "Presigned URL or S3 key not received.";
export const S3_FAILED_MESSAGE = "S3 upload failed.";
/**
 * An upload that has sent nothing and heard nothing for this long is given up, so
 * its row says "S3 upload failed." instead of "Uploading 0%" forever (a dev server
 * restarting its Worker mid-request once left one hanging).
 */
export const UPLOAD_STALL_MS = 60_000;

/** Throws the user-facing message when the chosen file is not something we can upload. */
export function assertUploadablePdf(file: File): void {
  const typeOk = file.type === "" || file.type === PDF_CONTENT_TYPE;
  if (!/\.pdf$/i.test(file.name) || !typeOk) throw new Error(DOCUMENT_MESSAGES.notPdfName);
  // The upload endpoint answers 413 too; checking here saves sending 25 MB for nothing.
  if (file.size > MAX_UPLOAD_BYTES) throw new Error(DOCUMENT_MESSAGES.tooLarge);
}

/** Why a file was not uploaded, named by the file when several were given at once. */
export function uploadFailure(file: File, err: unknown, several: boolean): string {
  const message = err instanceof Error && err.message ? err.message : "Something went wrong. Please try again.";
  return several ? `${file.name}: ${message}` : message;
}

function messageFrom(responseText: string): string | null {
  try {
    const data: unknown = JSON.parse(responseText);
    if (data && typeof data === "object" && "message" in data && typeof data.message === "string" && data.message) {
      return data.message;
    }
  } catch {
    // not JSON (e.g. an XML error from the storage provider)
  }
  return null;
}

/**
 * A PUT the connection or the server dropped (a network error, a 5xx): the link writes the same
 * key again, so it is tried once more. A fresh clone's `npm run dev` drops a request or two while
 * it warms up (docs/decisions.md).
 */
class DroppedUpload extends Error {}

/** PUT the raw file to the self-signed link, reporting 0-100. No product Authorization header. */
export function putFile(url: string, file: Blob, onProgress: (percent: number) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let stall: ReturnType<typeof setTimeout> | undefined;
    const watchStall = () => {
      clearTimeout(stall);
      stall = setTimeout(() => xhr.abort(), UPLOAD_STALL_MS);
    };
    const settle = (outcome: () => void) => () => {
      clearTimeout(stall);
      outcome();
    };
    xhr.open("PUT", url);
    xhr.setRequestHeader("Content-Type", PDF_CONTENT_TYPE);
    xhr.upload.onprogress = (event) => {
      watchStall();
      if (event.lengthComputable && event.total > 0) {
        onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
      }
    };
    xhr.onload = settle(() => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve();
      } else {
        const message = messageFrom(xhr.responseText) ?? S3_FAILED_MESSAGE;
        reject(xhr.status >= 500 ? new DroppedUpload(message) : new Error(message));
      }
    });
    xhr.onerror = settle(() => reject(new DroppedUpload(S3_FAILED_MESSAGE)));
    xhr.onabort = xhr.ontimeout = settle(() => reject(new Error(S3_FAILED_MESSAGE)));
    onProgress(0);
    watchStall();
    xhr.send(file);
  });
}

/** Validate, get the upload link, upload with progress, then start indexing. The s3Key can be attached to a chat question. */
export async function uploadPdf(file: File, onProgress: (percent: number) => void): Promise<IndexResponse & { s3Key: string }> {
  assertUploadablePdf(file);
  const query = new URLSearchParams({ fileName: file.name, contentType: PDF_CONTENT_TYPE });
  const link = await api<Partial<UploadLinkResponse> | null>("GET", `/api/documents/uploadLink?${query}`);
  const url = link?.presignedUrl;
  if (!url || !link.s3Key) throw new Error(NO_LINK_MESSAGE);
  await putFile(url, file, onProgress).catch((err: unknown) => {
    if (!(err instanceof DroppedUpload)) throw err;
    return putFile(url, file, onProgress);
  });
  const indexed = await api<IndexResponse>("POST", "/api/documents/index", { s3_key: link.s3Key });
  return { ...indexed, s3Key: link.s3Key };
}
