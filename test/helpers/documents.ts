// Drives the real upload path: upload link -> PUT to the signed URL -> index.
import { exports } from "cloudflare:workers";
import { vi } from "vitest";
import type { FileListResponse, IndexResponse, IndexingStatusResponse } from "../../worker/contract/documents";
import { call } from "./api";

export async function putToLink(url: string, bytes: Uint8Array, contentType = "application/pdf") {
  return exports.default.fetch(url, { method: "PUT", headers: { "Content-Type": contentType }, body: bytes });
}

export async function uploadAndIndex(token: string, fileName: string, bytes: Uint8Array): Promise<IndexResponse & { s3Key: string }> {
  const link = await call("GET", `/api/documents/uploadLink?fileName=${encodeURIComponent(fileName)}&contentType=application/pdf`, {
    token,
  });
  if (link.status !== 200) throw new Error(`uploadLink ${link.status}: ${JSON.stringify(link.json)}`);
  const put = await putToLink(link.json.presignedUrl, bytes);
  if (put.status !== 200) throw new Error(`PUT ${put.status}: ${await put.text()}`);
  const indexed = await call("POST", "/api/documents/index", { token, body: { s3_key: link.json.s3Key } });
  if (indexed.status !== 200) throw new Error(`index ${indexed.status}: ${JSON.stringify(indexed.json)}`);
  return { ...indexed.json, s3Key: link.json.s3Key };
}

/** Waits for the queue consumer to finish the document (indexed, failed, or waiting for text recognition). */
export async function waitUntilDone(token: string, fileId: string, timeout = 60_000): Promise<IndexingStatusResponse> {
  return vi.waitFor(
    async () => {
      const res = await call("GET", `/api/documents/indexingStatus?file_id=${fileId}`, { token });
      if (!["indexed", "failed", "needs_ocr"].includes(res.json.status)) throw new Error(`still ${res.json.status}`);
      return res.json as IndexingStatusResponse;
    },
    { timeout, interval: 100 },
  );
}

export async function listFiles(token: string, query = ""): Promise<FileListResponse> {
  return (await call("GET", `/api/documents${query}`, { token })).json;
}

/**
 * The index step's answer once the indexer has settled the upload: asked again until it is final
 * (indexed, failed, waiting for recognition) or names the existing document the upload duplicated.
 */
export async function indexAnswerOnceSettled(token: string, s3Key: string, timeout = 60_000): Promise<IndexResponse> {
  return vi.waitFor(
    async () => {
      const res = await call("POST", "/api/documents/index", { token, body: { s3_key: s3Key } });
      if (res.status !== 200) throw new Error(`index ${res.status}: ${JSON.stringify(res.json)}`);
      if (!res.json.duplicate && !["indexed", "failed", "needs_ocr"].includes(res.json.status)) throw new Error(`still ${res.json.status}`);
      return res.json as IndexResponse;
    },
    { timeout, interval: 100 },
  );
}
