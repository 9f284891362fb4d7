// Google Drive, read-only: the connection (tokens sealed at rest, refreshed when
// expired, dropped when Google says the grant was revoked), listing PDFs, and
// importing chosen files into the same documents pipeline as uploads.
import { eq } from "drizzle-orm";
import { DOCUMENT_MESSAGES as M, MAX_UPLOAD_BYTES } from "../contract/documents";
import type { Db } from "../db/client";
import { documents, driveConnections } from "../db/schema";
import { ApiError } from "../errors";
import type { IngestMessage } from "../ingest/consumer";
import { GoogleError, driveRequest, refreshAccessToken, revokeToken, type DriveFile, type GoogleConfig } from "../providers/google";
import { cleanFileName, createUpload, startIndexing } from "./uploads";
import { GOOGLE_MESSAGES } from "./google-auth";
import { open, seal } from "../lib/secret-box";
import type { DriveImportResult } from "../contract/documents";

const REFRESH_MARGIN_MS = 60_000;
export const MAX_IMPORT_FILES = 20;

export interface DriveDeps {
  db: Db;
  env: Env;
  config: GoogleConfig;
}

/** A usable access token, refreshed if needed; null when not connected or the grant was revoked. */
export async function driveAccessToken({ db, env, config }: DriveDeps, { userId }: { userId: string }): Promise<string | null> {
  const row = await db.select().from(driveConnections).where(eq(driveConnections.userId, userId)).get();
  if (!row) return null;
  if (row.expiresAt - REFRESH_MARGIN_MS > Date.now()) return open(env.ENCRYPTION_KEY, row.accessToken);

  const refreshToken = row.refreshToken && (await open(env.ENCRYPTION_KEY, row.refreshToken));
  if (!refreshToken) {
    await db.delete(driveConnections).where(eq(driveConnections.userId, userId));
    return null;
  }
  try {
    const tokens = await refreshAccessToken(env, config, refreshToken);
    await db
      .update(driveConnections)
      .set({ accessToken: await seal(env.ENCRYPTION_KEY, tokens.access_token), expiresAt: Date.now() + tokens.expires_in * 1000 })
      .where(eq(driveConnections.userId, userId));
    return tokens.access_token;
  } catch (err) {
    if (err instanceof GoogleError && err.code === "invalid_grant") {
      // revoked at Google: the connection is gone
      await db.delete(driveConnections).where(eq(driveConnections.userId, userId));
      return null;
    }
    throw err;
  }
}

async function requireToken(deps: DriveDeps, userId: string): Promise<string> {
  const token = await driveAccessToken(deps, { userId });
  if (!token) throw new ApiError(409, GOOGLE_MESSAGES.notConnected);
  return token;
}

export async function disconnectDrive(deps: DriveDeps, { userId }: { userId: string }): Promise<void> {
  const token = await driveAccessToken(deps, { userId }).catch(() => null);
  if (token) await revokeToken(deps.env, deps.config, token);
  await deps.db.delete(driveConnections).where(eq(driveConnections.userId, userId));
}

export async function listDrivePdfs(deps: DriveDeps, { userId, pageToken }: { userId: string; pageToken?: string }) {
  const token = await requireToken(deps, userId);
  const query = new URLSearchParams({
    q: "mimeType='application/pdf' and trashed=false",
    fields: "nextPageToken,files(id,name,webViewLink)",
    pageSize: "100",
    orderBy: "modifiedTime desc",
    ...(pageToken ? { pageToken } : {}),
  });
  const listed = await driveRequest(deps.env, deps.config, token, `/files?${query}`).catch((err: unknown) => {
    // a page token Google does not know (made up, or from a list long gone) is the caller's to fix
    if (pageToken && err instanceof GoogleError && err.status === 400) throw new ApiError(400, GOOGLE_MESSAGES.pageExpired);
    throw err;
  });
  const json = (await listed.json()) as { files?: DriveFile[]; nextPageToken?: string };
  return {
    files: (json.files ?? []).map((f) => ({
      id: f.id,
      name: f.name,
      webViewLink: f.webViewLink ?? `https://drive.google.com/file/d/${f.id}/view`,
    })),
    ...(json.nextPageToken ? { nextPageToken: json.nextPageToken } : {}),
  };
}

/** Reads at most `limit` bytes; more means the file is too large. */
async function readLimited(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | null> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      return null;
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}

export async function importDriveFiles(
  deps: DriveDeps & { bucket: R2Bucket; queue: Queue<IngestMessage> },
  { userId, fileIds }: { userId: string; fileIds: string[] },
) {
  const token = await requireToken(deps, userId);
  const results: DriveImportResult[] = [];
  const errors: { file_id: string; error: string }[] = [];
  for (const driveId of [...new Set(fileIds)]) {
    try {
      const id = encodeURIComponent(driveId);
      const meta = (await (
        await driveRequest(deps.env, deps.config, token, `/files/${id}?fields=id,name,mimeType,size`)
      ).json()) as DriveFile;
      if (meta.mimeType !== "application/pdf") throw new ApiError(400, M.notPdf);
      if (Number(meta.size ?? 0) > MAX_UPLOAD_BYTES) throw new ApiError(413, M.tooLarge);
      const media = await driveRequest(deps.env, deps.config, token, `/files/${id}?alt=media`);
      const bytes = media.body && (await readLimited(media.body, MAX_UPLOAD_BYTES));
      if (!bytes) throw new ApiError(413, M.tooLarge);

      const name = cleanFileName(meta.name) || `${driveId}.pdf`;
      const { r2Key } = await createUpload(
        { db: deps.db },
        { userId, fileName: /\.pdf$/i.test(name) ? name : `${name}.pdf`, origin: { source: "drive", driveFileId: driveId } },
      );
      await deps.bucket.put(r2Key, bytes, { httpMetadata: { contentType: "application/pdf" } });
      const indexed = await startIndexing(
        { db: deps.db, bucket: deps.bucket, queue: deps.queue, LIBRARY: deps.env.LIBRARY },
        { userId, r2Key },
      );
      // a duplicate points at the document the user already has, and its key
      const key = indexed.duplicate
        ? ((await deps.db.select({ r2Key: documents.r2Key }).from(documents).where(eq(documents.id, indexed.fileId)).get())?.r2Key ?? r2Key)
        : r2Key;
      results.push({
        file_id: driveId,
        status: indexed.status,
        fileId: indexed.fileId,
        s3_key: key,
        ...(indexed.duplicate ? { duplicate: true } : {}),
      });
    } catch (err) {
      if (err instanceof ApiError) errors.push({ file_id: driveId, error: err.message });
      else if (err instanceof GoogleError) errors.push({ file_id: driveId, error: err.status === 404 ? M.fileNotFound : err.message });
      else throw err;
    }
  }
  return { results, errors };
}
