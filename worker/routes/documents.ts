// /api/documents: upload links, the signed upload and view endpoints, index,
// list, status, overview and delete. Signed-in only, except the two signed-link endpoints
// (the browser calls those without the product's Authorization header).
import { Hono } from "hono";
import { z } from "zod";
import { bodyLimit } from "hono/body-limit";
import {
  DOCUMENT_MESSAGES as M,
  FILE_LIST_PAGE_SIZE,
  FILE_SEARCH_MAX,
  MAX_UPLOAD_BYTES,
  OCR_PAGE_MAX_CHARS,
  OCR_PAGES_PER_REQUEST,
} from "../contract/documents";
import { FOLDER_MESSAGES } from "../contract/folders";
import { moveDocumentSchema } from "../contract/folders-schemas";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { requireUser } from "../middleware/auth";
import { valid } from "../middleware/validate";
import { uploadLinkProvider } from "../providers/upload-links";
import { deleteDocuments, getOwnedDocument, indexingStatus, listDocuments, markOpened, recognisePages } from "../services/documents";
import { documentOverview } from "../services/overviews";
import { getOwnedFolder, moveDocument } from "../services/folders";
import { tellFolderChats } from "../services/folder-chats";
import { cleanFileName, createUpload, findUploadingByKey, isPdfUpload, startIndexing, uploadKeyKept } from "../services/uploads";
import { signLink, verifyLink } from "../lib/signed-links";
import { appOrigin } from "../lib/origin";

export const VIEW_LINK_TTL_MS = 5 * 60 * 1000;

const fileKeys = z.array(z.string().min(1).max(200)).max(100).default([]);
const deleteSchema = z
  .object({ file_hashes: fileKeys, file_ids: fileKeys })
  .refine((body) => body.file_hashes.length + body.file_ids.length > 0, { message: M.fileHashesRequired, path: ["file_hashes"] });

const uploadLinkQuery = z.object({
  fileName: z.string({ error: M.fileNameRequired }).transform(cleanFileName).pipe(z.string().min(1, M.fileNameRequired)),
  contentType: z.string().optional().default(""),
});
const listQuery = z.object({
  pageSize: z.coerce.number().int().min(1).max(100).catch(FILE_LIST_PAGE_SIZE),
  pageNumber: z.coerce.number().int().min(1).catch(1),
  /** keeps the files whose name contains this */
  search: z.string().trim().max(FILE_SEARCH_MAX).optional().catch(undefined),
  /** keeps the files in this folder */
  folderId: z.string().min(1).max(100).optional().catch(undefined),
});
const fileIdQuery = z.object({
  file_id: z.string({ error: M.fileIdRequired }).min(1, M.fileIdRequired),
  page: z.coerce.number().int().min(1).optional().catch(undefined),
});
const ocrPagesSchema = z.object({
  pages: z
    .array(
      z.object({
        page: z.number().int().min(1).max(100_000),
        text: z.string().max(OCR_PAGE_MAX_CHARS, M.ocrTooLong),
      }),
    )
    .min(1, "Send at least one page.")
    .max(OCR_PAGES_PER_REQUEST, `Send at most ${OCR_PAGES_PER_REQUEST} pages at once.`)
    .refine((pages) => new Set(pages.map((p) => p.page)).size === pages.length, "Each page may be sent once."),
});
/** Any page's text in UTF-8 with JSON escapes fits, with room; bigger bodies are refused unread. */
const OCR_BODY_MAX_BYTES = OCR_PAGES_PER_REQUEST * OCR_PAGE_MAX_CHARS * 6 + 4096;

/** viewDocument: a link for text recognition reads the file without the user opening it */
const viewQuery = fileIdQuery.extend({ for: z.literal("recognition").optional().catch(undefined) });

const signedQuery = z.object({ expires: z.string().optional(), signature: z.string().optional() });

export const documentRoutes = new Hono<AppEnv>()
  // The browser PUTs the file here with the link's own signature, no bearer token.
  .put("/upload", valid("query", signedQuery.extend({ key: z.string().optional() })), async (c) => {
    const { key, expires, signature } = c.req.valid("query");
    if (!key || !(await verifyLink(c.env.JWT_SECRET, "upload", key, expires, signature))) throw new ApiError(403, M.linkInvalid);
    const length = Number(c.req.header("Content-Length"));
    if (!c.req.header("Content-Length") || !Number.isSafeInteger(length)) throw new ApiError(411, "Content-Length is required.");
    if (length > MAX_UPLOAD_BYTES) throw new ApiError(413, M.tooLarge);
    if (!(await findUploadingByKey({ db: c.var.db }, { r2Key: key }))) throw new ApiError(404, M.fileNotFound);
    const body = c.req.raw.body ?? new Uint8Array();
    await c.env.DOCUMENTS.put(key, body, { httpMetadata: { contentType: "application/pdf" } });
    // the upload (or its account) deleted while the body streamed: nothing of it is kept
    if (!(await uploadKeyKept({ db: c.var.db }, { r2Key: key }))) {
      await c.env.DOCUMENTS.delete(key);
      throw new ApiError(404, M.fileNotFound);
    }
    return c.body(null, 200);
  })
  // The short-lived link behind viewDocument: serves the PDF inline.
  .get("/file/:id", valid("query", signedQuery), async (c) => {
    const id = c.req.param("id");
    const { expires, signature } = c.req.valid("query");
    if (!(await verifyLink(c.env.JWT_SECRET, "view", id, expires, signature))) throw new ApiError(403, M.linkInvalid);
    const row = await c.var.db.query.documents.findFirst({ where: (d, { eq }) => eq(d.id, id) });
    const object = row && (await c.env.DOCUMENTS.get(row.r2Key));
    if (!row || !object) throw new ApiError(404, M.fileNotFound);
    const headers = new Headers({
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${row.id}.pdf"`,
      "Cache-Control": "private, max-age=300",
      // the browser's PDF viewer cannot run under the API's strict policy; this one only limits framing
      "Content-Security-Policy": "frame-ancestors 'self'",
    });
    return new Response(object.body, { headers });
  })
  .use(requireUser)
  .get("/uploadLink", valid("query", uploadLinkQuery), async (c) => {
    const { fileName, contentType } = c.req.valid("query");
    if (!isPdfUpload(fileName, contentType)) throw new ApiError(400, M.notPdfName);
    const { r2Key } = await createUpload({ db: c.var.db }, { userId: c.var.user.id, fileName });
    const presignedUrl = await uploadLinkProvider(c.env, appOrigin(c.env, c.req.url)).presignPut(r2Key, "application/pdf");
    return c.json({ presignedUrl, s3Key: r2Key }, 200);
  })
  .post("/index", valid("json", z.object({ s3_key: z.string({ error: M.s3KeyRequired }).min(1, M.s3KeyRequired) })), async (c) => {
    const result = await startIndexing(
      { db: c.var.db, bucket: c.env.DOCUMENTS, queue: c.env.INGEST_QUEUE, LIBRARY: c.env.LIBRARY },
      { userId: c.var.user.id, r2Key: c.req.valid("json").s3_key },
    );
    return c.json(result, 200);
  })
  .get("/", valid("query", listQuery), async (c) => {
    const { pageNumber, pageSize, search, folderId } = c.req.valid("query");
    if (folderId) await getOwnedFolder({ db: c.var.db }, { userId: c.var.user.id, folderId });
    const input = { userId: c.var.user.id, pageNumber, pageSize, search: search || undefined, folderId };
    return c.json(await listDocuments({ db: c.var.db }, input), 200);
  })
  .patch("/:fileId", valid("json", moveDocumentSchema), async (c) => {
    const input = { userId: c.var.user.id, documentId: c.req.param("fileId"), folderId: c.req.valid("json").folderId };
    const moved = await moveDocument({ db: c.var.db }, input);
    await tellFolderChats(c.env, { userId: c.var.user.id, folderIds: [moved.from, input.folderId] });
    return c.json({ status: "success" as const, message: FOLDER_MESSAGES.moved, fileId: moved.fileId, folderId: input.folderId }, 200);
  })
  .get("/indexingStatus", valid("query", fileIdQuery), async (c) => {
    return c.json(
      await indexingStatus({ db: c.var.db, LIBRARY: c.env.LIBRARY }, { userId: c.var.user.id, documentId: c.req.valid("query").file_id }),
      200,
    );
  })
  .post(
    "/:fileId/ocr-pages",
    bodyLimit({
      maxSize: OCR_BODY_MAX_BYTES,
      onError: () => {
        throw new ApiError(413, M.ocrTooLong);
      },
    }),
    valid("json", ocrPagesSchema),
    async (c) => {
      const deps = { db: c.var.db, LIBRARY: c.env.LIBRARY, AI: c.env.AI, VECTORIZE: c.env.VECTORIZE };
      const input = { userId: c.var.user.id, documentId: c.req.param("fileId"), pages: c.req.valid("json").pages };
      return c.json(await recognisePages(deps, input), 200);
    },
  )
  .get("/:fileId/overview", async (c) => {
    const deps = { db: c.var.db, LIBRARY: c.env.LIBRARY, env: c.env };
    return c.json(await documentOverview(deps, { userId: c.var.user.id, documentId: c.req.param("fileId") }), 200);
  })
  .get("/viewDocument", valid("query", viewQuery), async (c) => {
    const { file_id, page, for: purpose } = c.req.valid("query");
    const doc = await getOwnedDocument({ db: c.var.db }, { userId: c.var.user.id, documentId: file_id });
    if (purpose !== "recognition") await markOpened({ db: c.var.db }, { documentId: doc.id });
    const { expires, signature } = await signLink(c.env.JWT_SECRET, "view", doc.id, VIEW_LINK_TTL_MS);
    const url = new URL(`/api/documents/file/${doc.id}`, appOrigin(c.env, c.req.url));
    url.searchParams.set("expires", expires);
    url.searchParams.set("signature", signature);
    if (page) url.hash = `page=${page}`;
    return c.json({ url: url.toString() }, 200);
  })
  .delete("/", valid("json", deleteSchema), async (c) => {
    const { file_hashes, file_ids } = c.req.valid("json");
    const result = await deleteDocuments(
      { db: c.var.db, bucket: c.env.DOCUMENTS, LIBRARY: c.env.LIBRARY, AI: c.env.AI, VECTORIZE: c.env.VECTORIZE },
      { userId: c.var.user.id, fileHashes: file_hashes, fileIds: file_ids },
    );
    return c.json(result, 200);
  });
