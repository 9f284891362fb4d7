// Proves the documents pipeline through the real Worker, R2, D1 and the local
// Queue: upload links and their signatures, the index step (magic bytes, size,
// hash, de-duplication), the consumer (pages, chunks, FTS, failure reasons,
// retries without duplicates, vectors through an in-memory Vectorize double),
// listing, viewing and deleting, and that another user sees none of it.
// PDFs are generated here; the real-world corpus has its own test file.
import { env, exports } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { DOCUMENT_MESSAGES as M } from "../../worker/contract/documents";
import { app } from "../../worker/app";
import { getDb } from "../../worker/db/client";
import { handleIngestMessage, MAX_ATTEMPTS, retryDelaySeconds, type IngestMessage } from "../../worker/ingest/consumer";
import { extractPdfPages } from "../../worker/ingest/extract";
import { indexDocument } from "../../worker/ingest/indexer";
import { library } from "../../worker/library/stub";
import { deleteDocuments } from "../../worker/services/documents";
import { MAX_OPEN_UPLOADS, startIndexing } from "../../worker/services/uploads";
import { signLink } from "../../worker/lib/signed-links";
import { uploadLinkProvider } from "../../worker/providers/upload-links";
import { call, newUser } from "../helpers/api";
import { indexAnswerOnceSettled, listFiles, putToLink, uploadAndIndex, waitUntilDone } from "../helpers/documents";
import { corruptPdf, imageOnlyPdf, passwordProtectedPdf, textPdf } from "../helpers/pdfs";
import { EMBEDDING_MODEL } from "../../worker/services/vectors";
import { ftsPages, libraryFailingOnAddPages, libraryRows } from "../helpers/library";
import { MemoryVectorize, fakeAi } from "../helpers/vectors";

const THREE_PAGES = [
  "Alpha page. The onboarding checklist covers laptops and badges for every new employee.",
  "Bravo page. Zebra crossings and quarterly estimated tax payments are due in April, June, September and January.",
  "Charlie page. The non-compete clause survives termination for twelve months in the state of Delaware.",
];

async function sha256(bytes: Uint8Array) {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

describe("upload and index", () => {
  it("indexes a multi-page PDF into page-bounded chunks that full-text search finds", async () => {
    const { token, user } = await newUser("docs");
    const bytes = await textPdf(THREE_PAGES);
    const result = await uploadAndIndex(token, "Handbook.pdf", bytes);
    expect(result.status).toBe("pending");
    const done = await waitUntilDone(token, result.fileId);
    expect(done).toMatchObject({ status: "indexed", pagesDone: 3, pagesTotal: 3, error: null });

    const chunks = await libraryRows<{ id: string; page: number; ord: number; text: string; char_start: number; char_end: number }>(
      user.id,
      "SELECT id, page, ord, text, char_start, char_end FROM chunks WHERE document_id = ? ORDER BY page",
      result.fileId,
    );
    expect(chunks.map((c) => c.page)).toEqual([1, 2, 3]);
    expect(chunks[1]!.id).toBe(`${result.fileId}:2:0`);
    expect(chunks[1]!.text).toContain("Zebra crossings");
    expect(chunks[1]!.char_start).toBe(0);
    expect(chunks[1]!.char_end).toBe(chunks[1]!.text.length);
    expect(await ftsPages(user.id, "zebra")).toEqual([2]);
    expect(await ftsPages(user.id, "delaware")).toEqual([3]);

    const list = await listFiles(token);
    expect(list.files).toHaveLength(1);
    expect(list.files[0]).toMatchObject({
      fileId: result.fileId,
      fileName: "Handbook.pdf",
      status: "indexed",
      fileHash: await sha256(bytes),
      pageCount: 3,
      uploadedAt: null,
      error: null,
    });
    expect(new Date(list.files[0]!.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(list.pagination).toEqual({ pageNumber: 1, pageSize: 10, total: 1, totalPages: 1 });
  });

  it("returns the existing document when the same content is uploaded again", async () => {
    const { token } = await newUser("dedupe");
    const bytes = await textPdf(["Same content twice, for de-duplication."]);
    const first = await uploadAndIndex(token, "one.pdf", bytes);
    await waitUntilDone(token, first.fileId);
    const second = await uploadAndIndex(token, "two.pdf", bytes);
    // the indexer finds the duplicate, after the index call answered: asked again once it has, the existing document
    expect(await indexAnswerOnceSettled(token, second.s3Key)).toMatchObject({ fileId: first.fileId, status: "indexed", duplicate: true });
    expect((await listFiles(token)).files.map((f) => f.fileName)).toEqual(["one.pdf"]);
    expect(await env.DOCUMENTS.head(second.s3Key)).toBeNull();
  });

  it("lets two users upload the same file, each getting their own document", async () => {
    const bytes = await textPdf(["Shared policy text that two colleagues both upload."]);
    const a = await newUser("samefile-a");
    const b = await newUser("samefile-b");
    const ra = await uploadAndIndex(a.token, "policy.pdf", bytes);
    const rb = await uploadAndIndex(b.token, "policy.pdf", bytes);
    expect(rb.fileId).not.toBe(ra.fileId);
    expect(rb.duplicate).toBeUndefined();
  });

  it.each([
    ["notes.txt", "application/pdf", M.notPdfName],
    ["report.pdf", "text/plain", M.notPdfName],
    ["", "application/pdf", M.fileNameRequired],
  ])("refuses an upload link for %j (%s)", async (fileName, contentType, message) => {
    const { token } = await newUser("badname");
    const res = await call(
      "GET",
      `/api/documents/uploadLink?fileName=${encodeURIComponent(fileName)}&contentType=${encodeURIComponent(contentType)}`,
      {
        token,
      },
    );
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ status: "error", message, ...(res.json.errors ? { errors: res.json.errors } : {}) });
  });

  it("keeps the user's file name but strips paths, control and bidirectional override characters", async () => {
    const { token } = await newUser("bidi");
    // "rtl\u202Eexe.pdf" would display as "rtlfdp.exe"
    const doc = await uploadAndIndex(
      token,
      "C:\\fakepath\\rtl\u202Eexe\u2066.pdf\u0007",
      await textPdf(["Bidirectional names are stripped."]),
    );
    await waitUntilDone(token, doc.fileId);
    const [file] = (await listFiles(token)).files;
    expect(file!.fileName).toBe("rtlexe.pdf");
  });

  it("shortens a file name over 255 characters before its extension, so it is still taken as a PDF", async () => {
    const { token } = await newUser("longname");
    const doc = await uploadAndIndex(token, `${"Quarterly report ".repeat(30)}final.pdf`, await textPdf(["A long name is kept short."]));
    await waitUntilDone(token, doc.fileId);
    const [file] = (await listFiles(token)).files;
    expect(file!.fileName).toHaveLength(255);
    expect(file!.fileName).toMatch(/^Quarterly report Quarterly report .*…\.pdf$/);
  });

  it("refuses uploads beyond the plan's document quota with an upgrade hint", async () => {
    const { token, user } = await newUser("quota");
    const inserts = Array.from({ length: 50 }, (_, i) =>
      env.DB.prepare("INSERT INTO documents (id, user_id, file_name, r2_key, status, file_hash) VALUES (?, ?, ?, ?, 'indexed', ?)").bind(
        `q-${user.id}-${i}`,
        user.id,
        `f${i}.pdf`,
        `k-${user.id}-${i}`,
        `h${i}`,
      ),
    );
    await env.DB.batch(inserts);
    const res = await call("GET", "/api/documents/uploadLink?fileName=one-more.pdf&contentType=application/pdf", { token });
    expect(res.status).toBe(403);
    expect(res.json.message).toContain("limit of 50 documents");
    expect(res.json.message).toContain("/app/payment");
  });
});

describe("quota races", () => {
  async function indexedDocuments(userId: string, n: number) {
    await env.DB.batch(
      Array.from({ length: n }, (_, i) =>
        env.DB.prepare("INSERT INTO documents (id, user_id, file_name, r2_key, status, file_hash) VALUES (?, ?, ?, ?, 'indexed', ?)").bind(
          `r-${userId}-${i}`,
          userId,
          `f${i}.pdf`,
          `k-r-${userId}-${i}`,
          `hr-${userId}-${i}`,
        ),
      ),
    );
  }

  it("lets exactly one of several files arriving at once take the last free slot; the others are refused and removed", async () => {
    const { token, user } = await newUser("quota-race");
    await indexedDocuments(user.id, 49);
    // upload links do not take a slot: all four are given
    const links = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        call("GET", `/api/documents/uploadLink?fileName=race-${i}.pdf&contentType=application/pdf`, { token }),
      ),
    );
    expect(links.map((l) => l.status)).toEqual([200, 200, 200, 200]);
    const pdfs = await Promise.all(links.map((_, i) => textPdf([`Race document number ${i} about parking rules.`])));
    await Promise.all(links.map((l, i) => putToLink(l.json.presignedUrl, pdfs[i]!)));
    const indexed = await Promise.all(links.map((l) => call("POST", "/api/documents/index", { token, body: { s3_key: l.json.s3Key } })));
    expect(indexed.map((r) => r.status).sort()).toEqual([200, 403, 403, 403]);
    expect(indexed.find((r) => r.status === 403)!.json.message).toContain("limit of 50 documents");
    const total = await env.DB.prepare("SELECT COUNT(*) AS n FROM documents WHERE user_id = ?").bind(user.id).first<{ n: number }>();
    expect(total?.n).toBe(50);
    for (const [i, l] of links.entries()) {
      if (indexed[i]!.status === 403) expect(await env.DOCUMENTS.head(l.json.s3Key)).toBeNull();
    }
  });

  it("does not count upload links whose file never arrived, caps them, and lets them be deleted", async () => {
    const { token, user } = await newUser("open-links");
    await indexedDocuments(user.id, 49);
    const link = () => call("GET", "/api/documents/uploadLink?fileName=later.pdf&contentType=application/pdf", { token });
    const open = [];
    for (let i = 0; i < MAX_OPEN_UPLOADS; i++) open.push(await link());
    expect(open.every((l) => l.status === 200)).toBe(true);
    const over = await link();
    expect(over.status).toBe(429);
    expect(over.json.message).toBe(M.tooManyOpenUploads);

    // listed without a hash; deleted by id
    const waiting = (await listFiles(token, "?pageSize=100&pageNumber=1")).files.filter((f) => f.status === "uploading");
    expect(waiting).toHaveLength(MAX_OPEN_UPLOADS);
    expect(waiting[0]!.fileHash).toBeNull();
    const removed = await call("DELETE", "/api/documents", { token, body: { file_hashes: [], file_ids: waiting.map((f) => f.fileId) } });
    expect(removed.json).toEqual({ status: "success", deleted: waiting.map((f) => f.fileId), errors: [] });
    expect((await listFiles(token, "?pageSize=100&pageNumber=1")).files.filter((f) => f.status === "uploading")).toEqual([]);
    expect((await link()).status).toBe(200);
  });

  it("keeps nothing of an upload deleted while its file streams in", async () => {
    const { token } = await newUser("delete-mid-put");
    const link = await call("GET", "/api/documents/uploadLink?fileName=slow.pdf&contentType=application/pdf", { token });
    const bytes = await textPdf(["A page that arrives slowly."]);
    const waiting = (await listFiles(token, "?pageSize=100&pageNumber=1")).files.filter((f) => f.status === "uploading");
    // the body arrives in two parts, the second once the upload is deleted
    const { readable, writable } = new FixedLengthStream(bytes.length);
    const writer = writable.getWriter();
    void writer.write(bytes.slice(0, 10));
    const put = exports.default.fetch(link.json.presignedUrl, {
      method: "PUT",
      headers: { "Content-Type": "application/pdf", "Content-Length": String(bytes.length) },
      body: readable,
    });
    const removed = await call("DELETE", "/api/documents", { token, body: { file_hashes: [], file_ids: waiting.map((f) => f.fileId) } });
    expect(removed.json.deleted).toEqual(waiting.map((f) => f.fileId));
    await writer.write(bytes.slice(10));
    await writer.close();
    expect((await put).status).toBe(404);
    expect(await env.DOCUMENTS.head(link.json.s3Key)).toBeNull();
  });

  it("refuses an empty upload with 400 'The file is empty.' and removes it", async () => {
    const { token } = await newUser("empty");
    const l = await call("GET", "/api/documents/uploadLink?fileName=empty.pdf&contentType=application/pdf", { token });
    expect((await putToLink(l.json.presignedUrl, new Uint8Array(0))).status).toBe(200);
    const res = await call("POST", "/api/documents/index", { token, body: { s3_key: l.json.s3Key } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ status: "error", message: M.empty });
    expect((await listFiles(token)).files).toEqual([]);
    expect(await env.DOCUMENTS.head(l.json.s3Key)).toBeNull();
  });
});

describe("index calls for one upload", () => {
  async function arrivedUpload(prefix: string, pages: string[]) {
    const { token, user } = await newUser(prefix);
    const link = await call("GET", "/api/documents/uploadLink?fileName=twice.pdf&contentType=application/pdf", { token });
    await putToLink(link.json.presignedUrl, await textPdf(pages));
    return { token, user, s3Key: link.json.s3Key as string };
  }

  it("answers a key it never gave this user, however long, with 404", async () => {
    const { token, s3Key } = await arrivedUpload("index-foreign", THREE_PAGES);
    const stranger = await newUser("index-stranger");
    for (const [who, key] of [
      [stranger.token, s3Key],
      [token, `${s3Key}${"k".repeat(1100)}`],
      [token, "k".repeat(1100)],
      [token, s3Key.replace(".pdf", "/../x.pdf")],
    ] as const)
      expect(await call("POST", "/api/documents/index", { token: who, body: { s3_key: key } })).toMatchObject({
        status: 404,
        json: { message: M.fileNotFound },
      });
    // the owner's own call still indexes it
    expect((await call("POST", "/api/documents/index", { token, body: { s3_key: s3Key } })).status).toBe(200);
  });

  it("five at once (a double click, a retry): five 200s, one fileId, one document, its chunks indexed once; a later call answers the same", async () => {
    const { token, user, s3Key } = await arrivedUpload("index-5", THREE_PAGES);
    const index = () => call("POST", "/api/documents/index", { token, body: { s3_key: s3Key } });
    const answers = await Promise.all(Array.from({ length: 5 }, index));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const fileIds = new Set(answers.map((a) => a.json.fileId));
    expect(fileIds.size).toBe(1);
    const [fileId] = [...fileIds] as [string];
    expect(answers.every((a) => a.json.duplicate === undefined)).toBe(true);

    await waitUntilDone(token, fileId);
    const rows = await env.DB.prepare("SELECT id, status, r2_key FROM documents WHERE user_id = ?").bind(user.id).all();
    expect(rows.results).toEqual([{ id: fileId, status: "indexed", r2_key: s3Key }]);
    expect(await libraryRows(user.id, "SELECT id, status FROM documents")).toEqual([{ id: fileId, status: "indexed" }]);
    const chunks = await libraryRows<{ n: number; d: number; pages: number }>(
      user.id,
      "SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS d, COUNT(DISTINCT page) AS pages FROM chunks WHERE document_id = ?",
      fileId,
    );
    expect(chunks).toEqual([{ n: 3, d: 3, pages: 3 }]);
    expect(await ftsPages(user.id, "zebra")).toEqual([2]);
    expect(await env.DOCUMENTS.head(s3Key)).not.toBeNull();

    const later = await index();
    expect(later).toMatchObject({ status: 200, json: { fileId, status: "indexed" } });
  });

  it("claims the upload once: one Library entry and one queue message, whatever the number of calls", async () => {
    const { user, s3Key } = await arrivedUpload("index-claim", ["Claimed once. The badge office opens at nine."]);
    const sent: unknown[] = [];
    const queue = { send: async (message: unknown) => void sent.push(message) } as unknown as Queue<IngestMessage>;
    const enqueued: string[] = [];
    const libraries = {
      idFromName: (name: string) => env.LIBRARY.idFromName(name),
      get: (id: DurableObjectId) => {
        const stub = env.LIBRARY.get(id);
        return new Proxy(stub, {
          get: (target, prop) =>
            prop === "enqueue"
              ? (documentId: string, ...rest: [string, string | null]) => (enqueued.push(documentId), target.enqueue(documentId, ...rest))
              : Reflect.get(target, prop),
        });
      },
    } as unknown as Env["LIBRARY"];
    const deps = { db: getDb(env), bucket: env.DOCUMENTS, queue, LIBRARY: libraries };
    const answers = await Promise.all(Array.from({ length: 5 }, () => startIndexing(deps, { userId: user.id, r2Key: s3Key })));
    const fileId = answers[0]!.fileId;
    expect(answers).toEqual(Array.from({ length: 5 }, () => ({ status: "pending", fileId })));
    expect(enqueued).toEqual([fileId]);
    expect(sent).toEqual([{ documentId: fileId }]);
  });

  it("lists a claimed upload on My Files before its bytes are hashed, by a key it can be deleted by", async () => {
    const { token, user, s3Key } = await arrivedUpload("index-listed", ["Listed at once. The badge office opens at nine."]);
    // a queue that never runs the consumer: the upload stays claimed, not yet hashed
    const queue = { send: async () => {} } as unknown as Queue<IngestMessage>;
    const { fileId } = await startIndexing(
      { db: getDb(env), bucket: env.DOCUMENTS, queue, LIBRARY: env.LIBRARY },
      { userId: user.id, r2Key: s3Key },
    );
    const [row] = (await listFiles(token)).files.filter((f) => f.fileId === fileId);
    // spec: My Files shows a row only with a fileHash (or while uploading or processing)
    expect(row).toMatchObject({ status: "pending", fileHash: `upload:${fileId}` });
    const removed = await call("DELETE", "/api/documents", { token, body: { file_hashes: [row!.fileHash] } });
    expect(removed.json).toEqual({ status: "success", deleted: [row!.fileHash], errors: [] });
  });

  it("two uploads of the same file indexed at once keep one document; the other upload names it", async () => {
    const { token, user } = await newUser("index-same");
    const bytes = await textPdf(["The same file, uploaded twice at once."]);
    const links = await Promise.all(
      [0, 1].map(() => call("GET", "/api/documents/uploadLink?fileName=same.pdf&contentType=application/pdf", { token })),
    );
    await Promise.all(links.map((l) => putToLink(l.json.presignedUrl, bytes)));
    const answers = await Promise.all(links.map((l) => call("POST", "/api/documents/index", { token, body: { s3_key: l.json.s3Key } })));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    // the indexer finds the duplicate, after the index calls answered: asked again once it has, both name one document
    const settled = await Promise.all(links.map((l) => indexAnswerOnceSettled(token, l.json.s3Key)));
    expect(new Set(settled.map((a) => a.fileId)).size).toBe(1);
    expect(settled.filter((a) => a.duplicate === true)).toHaveLength(1);
    const total = await env.DB.prepare("SELECT COUNT(*) AS n FROM documents WHERE user_id = ?").bind(user.id).first<{ n: number }>();
    expect(total?.n).toBe(1);
  });
});

describe("the index call", () => {
  /** Every D1 statement prepared while `run` runs (one binding serves the Worker and every Durable Object of the test run). */
  async function d1Statements<T>(run: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
    const db = env.DB as unknown as { prepare: D1Database["prepare"] };
    const prepare = db.prepare;
    const statements: string[] = [];
    db.prepare = (query: string) => (statements.push(query), prepare.call(env.DB, query));
    try {
      return { result: await run(), statements };
    } finally {
      db.prepare = prepare;
    }
  }

  it("reads no byte of the file: besides the sign-in check one D1 write (its claim), and one queue message; the indexer still finds a duplicate", async () => {
    const { token } = await newUser("index-cost");
    const bytes = await textPdf(["Counted once. The cafeteria closes at three on Fridays."]);
    const first = await uploadAndIndex(token, "first.pdf", bytes);
    await waitUntilDone(token, first.fileId);
    const link = await call("GET", "/api/documents/uploadLink?fileName=again.pdf&contentType=application/pdf", { token });
    await putToLink(link.json.presignedUrl, bytes);

    const r2Calls: string[] = [];
    const bucket = new Proxy(env.DOCUMENTS, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => (r2Calls.push(String(prop)), value.apply(target, args));
      },
    });
    const sent: IngestMessage[] = [];
    const queue = { send: async (message: IngestMessage) => void sent.push(message) } as unknown as Queue<IngestMessage>;
    const request = new Request("http://localhost/api/documents/index", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ s3_key: link.json.s3Key }),
    });
    const { result: res, statements } = await d1Statements(async () =>
      app.fetch(request, { ...env, DOCUMENTS: bucket, INGEST_QUEUE: queue } as Env, createExecutionContext()),
    );
    expect(res.status).toBe(200);
    const answer = await res.json<{ status: string; fileId: string }>();
    expect(answer).toEqual({ status: "pending", fileId: expect.any(String) });
    expect(r2Calls).toEqual(["head"]); // its size, from its metadata; no get of the PDF
    // the Library's own copy of the state is not written again (its D1 statements are counted here too)
    const ownStatements = statements.filter((query) => !/auth_sessions/.test(query));
    expect(ownStatements).toHaveLength(1);
    expect(ownStatements[0]).toMatch(/^update "documents" set .*"status" = \?.* where .*"r2_key" = \?.* returning "id", "file_name"$/s);
    expect(sent).toEqual([{ documentId: answer.fileId }]);

    // the indexer reads it, finds the content the user already has, and the upload names that document
    await env.INGEST_QUEUE.send(sent[0]!);
    expect(await indexAnswerOnceSettled(token, link.json.s3Key)).toEqual({ status: "indexed", fileId: first.fileId, duplicate: true });
    expect((await listFiles(token)).files.map((f) => f.fileName)).toEqual(["first.pdf"]);
    expect(await env.DOCUMENTS.head(link.json.s3Key)).toBeNull();
    // the fileId the index call answered names the existing document (its status; viewing it)
    expect(await waitUntilDone(token, answer.fileId)).toMatchObject({ fileId: first.fileId, status: "indexed" });
    expect((await call("GET", `/api/documents/viewDocument?file_id=${answer.fileId}`, { token })).json.url).toContain(first.fileId);
  });

  it("a new file's hash is recorded by the indexer, which needs no second read of it", async () => {
    const { token, user } = await newUser("index-hash");
    const bytes = await textPdf(["Hashed by the indexer. Visitors sign in at the front desk."]);
    const link = await call("GET", "/api/documents/uploadLink?fileName=hashed.pdf&contentType=application/pdf", { token });
    await putToLink(link.json.presignedUrl, bytes);
    const row = () => env.DB.prepare("SELECT status, file_hash, size_bytes FROM documents WHERE r2_key = ?").bind(link.json.s3Key).first();
    const reads: string[] = [];
    const bucket = new Proxy(env.DOCUMENTS, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => (reads.push(String(prop)), value.apply(target, args));
      },
    });
    const sent: IngestMessage[] = [];
    const queue = { send: async (message: IngestMessage) => void sent.push(message) } as unknown as Queue<IngestMessage>;
    const answer = await startIndexing(
      { db: getDb(env), bucket, queue, LIBRARY: env.LIBRARY },
      { userId: user.id, r2Key: link.json.s3Key },
    );
    // claimed, not yet hashed: its key stands in for the hash until the indexer reads the bytes
    expect(await row()).toEqual({ status: "pending", file_hash: `upload:${answer.fileId}`, size_bytes: bytes.length });
    expect(await indexDocument({ DB: env.DB, DOCUMENTS: bucket, LIBRARY: env.LIBRARY }, answer.fileId)).toBe("indexed");
    expect(reads).toEqual(["head", "get"]); // the index call's head, the indexer's one read
    expect(await row()).toEqual({ status: "indexed", file_hash: await sha256(bytes), size_bytes: bytes.length });
  });
});

describe("signed upload links", () => {
  async function link(token: string) {
    return (await call("GET", "/api/documents/uploadLink?fileName=a.pdf&contentType=application/pdf", { token })).json as {
      presignedUrl: string;
      s3Key: string;
    };
  }

  it("refuses a tampered or re-targeted signature with 403", async () => {
    const { token } = await newUser("tamperlink");
    const { presignedUrl } = await link(token);
    const tampered = new URL(presignedUrl);
    const signature = tampered.searchParams.get("signature")!;
    tampered.searchParams.set("signature", (signature[0] === "A" ? "B" : "A") + signature.slice(1));
    expect((await putToLink(tampered.toString(), await textPdf(["x"]))).status).toBe(403);

    const other = new URL(presignedUrl);
    other.searchParams.set("key", "users/someone-else/doc.pdf");
    expect((await putToLink(other.toString(), await textPdf(["x"]))).status).toBe(403);

    const longer = new URL(presignedUrl);
    longer.searchParams.set("expires", String(Number(longer.searchParams.get("expires")) + 3_600_000));
    expect((await putToLink(longer.toString(), await textPdf(["x"]))).status).toBe(403);
  });

  it("refuses an expired link with 403", async () => {
    const { token } = await newUser("expiredlink");
    const { s3Key } = await link(token);
    const { expires, signature } = await signLink(env.JWT_SECRET, "upload", s3Key, -1000);
    const res = await putToLink(
      `http://localhost/api/documents/upload?key=${encodeURIComponent(s3Key)}&expires=${expires}&signature=${signature}`,
      new Uint8Array(10),
    );
    expect(res.status).toBe(403);
    expect(await res.json<unknown>()).toEqual({ status: "error", message: M.linkInvalid });
  });

  it("refuses a body over 25 MB with 413 and stores nothing", async () => {
    const { token } = await newUser("toolarge");
    const { presignedUrl, s3Key } = await link(token);
    const res = await putToLink(presignedUrl, new Uint8Array(25 * 1024 * 1024 + 1));
    expect(res.status).toBe(413);
    expect((await res.json<{ message: string }>()).message).toBe(M.tooLarge);
    expect(await env.DOCUMENTS.head(s3Key)).toBeNull();
  });

  describe("early refusals answer first", () => {
    const MB = 1024 * 1024;
    /** A body that sends nothing and never ends (a slow client still uploading). */
    const neverSent = () => new ReadableStream<Uint8Array>({ pull: () => new Promise<void>(() => {}) });
    const production = { ...env, ENVIRONMENT: "production" } as Env;
    /** The response, or "never" when none came while the body was still not sent (a bound, not a timing). */
    const arrival = (response: Response | Promise<Response>) =>
      Promise.race([response, new Promise<"never">((resolve) => setTimeout(() => resolve("never"), 10_000))]);
    const request = (url: string, method: string, length: number, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
      new Request(url, { method, headers: { "Content-Length": String(length), ...headers }, body });

    it("in production, a 26 MB upload gets its 413 and a body without a token its 401 before the body is sent", async () => {
      const { token } = await newUser("early-413");
      const { presignedUrl } = await link(token);
      const upload = request(presignedUrl, "PUT", 26 * MB, neverSent(), { "Content-Type": "application/pdf" });
      const tooLarge = await arrival(app.fetch(upload, production, createExecutionContext()));
      expect(tooLarge).not.toBe("never");
      expect((tooLarge as Response).status).toBe(413);
      expect(await (tooLarge as Response).json()).toEqual({ status: "error", message: M.tooLarge });

      const index = request("http://localhost/api/documents/index", "POST", MB, neverSent(), { "Content-Type": "application/json" });
      const unauthorized = await arrival(app.fetch(index, production, createExecutionContext()));
      expect(unauthorized).not.toBe("never");
      expect((unauthorized as Response).status).toBe(401);
    });

    it("in development, the refused body is read before the answer (the dev server's proxy resets the connection otherwise)", async () => {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= MB) return controller.close();
          controller.enqueue(new Uint8Array(64 * 1024));
          sent += 64 * 1024;
        },
      });
      const index = request("http://localhost/api/documents/index", "POST", MB, body, { "Content-Type": "application/json" });
      const res = await app.fetch(index, env, createExecutionContext());
      expect(res.status).toBe(401);
      expect(sent).toBe(MB);
    });
  });

  it("uses a real R2 presigned URL when R2 S3 credentials are configured", async () => {
    const withR2 = { ...env, R2_ACCOUNT_ID: "acct123", R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "secret" } as Env;
    const url = new URL(await uploadLinkProvider(withR2, "http://localhost").presignPut("users/u/d.pdf", "application/pdf"));
    expect(url.host).toBe("acct123.r2.cloudflarestorage.com");
    expect(url.pathname).toBe("/docchat-documents/users/u/d.pdf");
    expect(url.searchParams.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("900");
    expect(url.searchParams.get("X-Amz-Credential")).toMatch(/^AKIDEXAMPLE\/\d{8}\/auto\/s3\/aws4_request$/);
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    // without them: the Worker's own signed URL
    expect(new URL(await uploadLinkProvider(env, "http://localhost").presignPut("k.pdf", "application/pdf")).pathname).toBe(
      "/api/documents/upload",
    );
  });

  it("a view link cannot be used to upload", async () => {
    const { token } = await newUser("crosspurpose");
    const { s3Key } = await link(token);
    const { expires, signature } = await signLink(env.JWT_SECRET, "view", s3Key, 60_000);
    const res = await putToLink(
      `http://localhost/api/documents/upload?key=${encodeURIComponent(s3Key)}&expires=${expires}&signature=${signature}`,
      new Uint8Array(10),
    );
    expect(res.status).toBe(403);
  });
});

describe("failure reasons", () => {
  it("fails a renamed text file as not a PDF, at the indexer's first look", async () => {
    const { token } = await newUser("txt");
    const result = await uploadAndIndex(token, "notes.pdf", new TextEncoder().encode("just some meeting notes, not a pdf"));
    // the indexer checks the bytes, after the index call answered
    expect(await waitUntilDone(token, result.fileId)).toMatchObject({ status: "failed", error: M.notPdf });
    const [file] = (await listFiles(token)).files;
    expect(file).toMatchObject({ status: "failed", error: M.notPdf });
    expect(file!.fileHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ["a corrupt file", corruptPdf, M.notPdf],
    ["a password-protected file", passwordProtectedPdf, M.passwordProtected],
    ["a file of drawings only (no text, no picture to recognise)", () => imageOnlyPdf(3), M.noText],
  ])("fails %s with a plain reason", async (_label, make, reason) => {
    const { token } = await newUser("bad");
    const result = await uploadAndIndex(token, "input.pdf", await make());
    expect(result.status).toBe("pending");
    const done = await waitUntilDone(token, result.fileId);
    expect(done).toMatchObject({ status: "failed", error: reason });
  });

  it("fails a PDF whose pages are mostly empty, with nothing to recognise", async () => {
    const { token } = await newUser("mostlyempty");
    const result = await uploadAndIndex(token, "sparse.pdf", await textPdf(["Real text on the cover page only.", " ", " "]));
    expect(await waitUntilDone(token, result.fileId)).toMatchObject({ status: "failed", error: M.noText });
  });

  it("fails a PDF with more pages than the plan allows", async () => {
    const bytes = await textPdf(["one page of text", "two pages of text", "three pages of text"]);
    await expect(extractPdfPages(bytes, 2)).rejects.toThrow("This PDF has 3 pages; your plan allows up to 2 pages per document.");
  });
});

describe("retries", () => {
  async function pendingDocument(pages: string[]) {
    const { token, user } = await newUser("retry");
    const link = await call("GET", "/api/documents/uploadLink?fileName=r.pdf&contentType=application/pdf", { token });
    await putToLink(link.json.presignedUrl, await textPdf(pages));
    // pending without going through the queue, so the test drives the consumer itself
    const id = link.json.s3Key.split("/").pop().replace(".pdf", "");
    await env.DB.prepare("UPDATE documents SET file_hash = ? WHERE id = ?").bind(`h-${id}`, id).run();
    await library(env, user.id).enqueue(id, "r.pdf");
    return { id, token, user };
  }

  it("a retry after a failure half-way never duplicates chunks", async () => {
    const pages = Array.from({ length: 60 }, (_, i) => `Page ${i + 1} talks about retention policy number ${i + 1}.`);
    const { id, user } = await pendingDocument(pages);
    await expect(indexDocument({ DB: env.DB, DOCUMENTS: env.DOCUMENTS, ...libraryFailingOnAddPages(2) }, id)).rejects.toThrow(
      "Library went away",
    );
    const count = async (query: string) => (await libraryRows<{ n: number; d?: number }>(user.id, query, id))[0];
    const half = await count("SELECT COUNT(*) AS n FROM chunks WHERE document_id = ?");
    expect(half?.n).toBe(25); // the first step of 25 pages went in before the Library went away

    expect(await indexDocument({ DB: env.DB, DOCUMENTS: env.DOCUMENTS, LIBRARY: env.LIBRARY }, id)).toBe("indexed");
    expect(await count("SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS d FROM chunks WHERE document_id = ?")).toEqual({ n: 60, d: 60 });
    expect(await ftsPages(user.id, "retention")).toHaveLength(60);
  });

  function fakeMessage(documentId: string, attempts: number) {
    return {
      id: "m1",
      timestamp: new Date(),
      body: { documentId },
      attempts,
      ack: vi.fn(),
      retry: vi.fn(),
    } as unknown as Message<{ documentId: string }> & { ack: ReturnType<typeof vi.fn>; retry: ReturnType<typeof vi.fn> };
  }

  it("retries transient errors with backoff, then fails the document after the last attempt", async () => {
    const { id, token } = await pendingDocument(["Some text that will not be read this time."]);
    const brokenBucket = { get: async () => Promise.reject(new Error("R2 timeout")) } as unknown as R2Bucket;

    const first = fakeMessage(id, 1);
    await handleIngestMessage({ DB: env.DB, DOCUMENTS: brokenBucket, LIBRARY: env.LIBRARY }, first);
    expect(first.retry).toHaveBeenCalledWith({ delaySeconds: retryDelaySeconds(1) });
    expect(first.ack).not.toHaveBeenCalled();
    expect(retryDelaySeconds(2)).toBeGreaterThan(retryDelaySeconds(1));

    const last = fakeMessage(id, MAX_ATTEMPTS);
    await handleIngestMessage({ DB: env.DB, DOCUMENTS: brokenBucket, LIBRARY: env.LIBRARY }, last);
    expect(last.ack).toHaveBeenCalled();
    const status = await call("GET", `/api/documents/indexingStatus?file_id=${id}`, { token });
    expect(status.json).toMatchObject({ status: "failed", error: M.indexingFailed });
    // the contract's fields, nothing of the Library's own
    expect(Object.keys(status.json).sort()).toEqual(["error", "fileId", "ocrPages", "pagesDone", "pagesTotal", "status"]);
  });

  it("acknowledges a message for a document deleted meanwhile", async () => {
    const message = fakeMessage("no-such-document", 1);
    await handleIngestMessage({ DB: env.DB, DOCUMENTS: env.DOCUMENTS, LIBRARY: env.LIBRARY }, message);
    expect(message.ack).toHaveBeenCalled();
    expect(message.retry).not.toHaveBeenCalled();
  });
});

describe("vectors (in-memory Vectorize double)", () => {
  it("upserts one vector per chunk in the user's namespace, idempotently, and deletes them with the document", async () => {
    const { token, user } = await newUser("vectors");
    const result = await uploadAndIndex(token, "vec.pdf", await textPdf(THREE_PAGES));
    await waitUntilDone(token, result.fileId);
    const vectorize = new MemoryVectorize();
    const ai = fakeAi();
    const deps = {
      DB: env.DB,
      DOCUMENTS: env.DOCUMENTS,
      LIBRARY: env.LIBRARY,
      AI: ai as unknown as Ai,
      VECTORIZE: vectorize as unknown as VectorizeIndex,
    };

    await library(env, user.id).enqueue(result.fileId, "vec.pdf"); // index it again from the start
    await indexDocument(deps, result.fileId);
    await library(env, user.id).enqueue(result.fileId, "vec.pdf"); // index it again from the start
    await indexDocument(deps, result.fileId);

    expect(vectorize.idsInNamespace(user.id).sort()).toEqual([1, 2, 3].map((p) => `${result.fileId}:${p}:0`));
    const stored = vectorize.vectors.get(`${result.fileId}:2:0`)!;
    expect(stored.metadata).toEqual({ documentId: result.fileId, page: 2 });
    const hit = await vectorize.query(
      ((await ai.run(EMBEDDING_MODEL, { text: ["zebra crossings tax payments"] })) as { data: number[][] }).data[0]!,
      {
        namespace: user.id,
        filter: { documentId: result.fileId },
        topK: 1,
        returnMetadata: true,
      },
    );
    expect(hit.matches[0]?.metadata).toEqual({ documentId: result.fileId, page: 2 });

    const [file] = (await listFiles(token)).files;
    const deleted = await deleteDocuments(
      { ...deps, db: getDb(env), bucket: env.DOCUMENTS },
      { userId: user.id, fileHashes: [file!.fileHash!] },
    );
    expect(deleted.deleted).toEqual([file!.fileHash]);
    expect(vectorize.idsInNamespace(user.id)).toEqual([]);
  });
});

describe("view and delete", () => {
  it("gives a short-lived inline link, records last opened, and refuses a tampered link", async () => {
    const { token } = await newUser("view");
    const bytes = await textPdf(THREE_PAGES);
    const { fileId } = await uploadAndIndex(token, "view.pdf", bytes);
    await waitUntilDone(token, fileId);

    const view = await call("GET", `/api/documents/viewDocument?file_id=${fileId}&page=2`, { token });
    expect(view.status).toBe(200);
    const url = new URL(view.json.url);
    expect(url.hash).toBe("#page=2");
    const res = await (await import("cloudflare:workers")).exports.default.fetch(url.toString());
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    expect(res.headers.get("Content-Disposition")).toBe(`inline; filename="${fileId}.pdf"`);
    expect(res.headers.get("Content-Security-Policy")).toBe("frame-ancestors 'self'");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);

    expect((await listFiles(token)).files[0]!.uploadedAt).not.toBeNull();

    const viewSignature = url.searchParams.get("signature")!;
    url.searchParams.set("signature", (viewSignature[0] === "x" ? "y" : "x") + viewSignature.slice(1));
    const bad = await (await import("cloudflare:workers")).exports.default.fetch(url.toString());
    expect(bad.status).toBe(403);
  });

  it("deletes the R2 object, rows and FTS rows, and reports unknown hashes", async () => {
    const { token, user } = await newUser("delete");
    const { fileId, s3Key } = await uploadAndIndex(token, "gone.pdf", await textPdf(THREE_PAGES));
    await waitUntilDone(token, fileId);
    const [file] = (await listFiles(token)).files;
    expect(await ftsPages(user.id, "zebra")).toEqual([2]);

    const res = await call("DELETE", "/api/documents", { token, body: { file_hashes: [file!.fileHash, "nope"] } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "partial", deleted: [file!.fileHash], errors: [{ error: M.fileNotFound, file_hash: "nope" }] });
    expect(await env.DOCUMENTS.head(s3Key)).toBeNull();
    expect(await ftsPages(user.id, "zebra")).toEqual([]);
    expect(await libraryRows(user.id, "SELECT id FROM chunks WHERE document_id = ?", fileId)).toEqual([]);
    // only a tombstone stays, so an indexer still running for it stops
    expect(await libraryRows(user.id, "SELECT status, file_name FROM documents WHERE id = ?", fileId)).toEqual([
      { status: "removed", file_name: "" },
    ]);
    // its status is not found any more, like an id that never was one
    for (const id of [fileId, "never-a-file"]) {
      const status = await call("GET", `/api/documents/indexingStatus?file_id=${id}`, { token });
      expect([status.status, status.json]).toEqual([404, { status: "error", message: M.fileNotFound }]);
    }
    expect((await listFiles(token)).files).toEqual([]);
  });

  it("rejects an empty delete with a message", async () => {
    const { token } = await newUser("emptydelete");
    const res = await call("DELETE", "/api/documents", { token, body: { file_hashes: [] } });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(M.fileHashesRequired);
  });

  it("words a malformed delete for people, not in the validator's terms", async () => {
    const { token } = await newUser("baddelete");
    const notAList = await call("DELETE", "/api/documents", { token, body: { file_hashes: "abc" } });
    expect(notAList.status).toBe(400);
    expect(notAList.json.message).toBe("File hashes must be a list.");
    const notText = await call("DELETE", "/api/documents", { token, body: { file_hashes: ["abc", 1] } });
    expect(notText.status).toBe(400);
    expect(notText.json.message).toBe("Each of file hashes must be text.");
    const tooMany = await call("DELETE", "/api/documents", {
      token,
      body: { file_hashes: Array.from({ length: 101 }, (_, i) => `h${i}`) },
    });
    expect(tooMany.json.message).toBe("File hashes can have at most 100 items.");
  });

  it("paginates newest first, 10 per page", async () => {
    const { token, user } = await newUser("pages");
    await env.DB.batch(
      Array.from({ length: 12 }, (_, i) =>
        env.DB.prepare(
          "INSERT INTO documents (id, user_id, file_name, r2_key, status, file_hash, created_at) VALUES (?, ?, ?, ?, 'indexed', ?, ?)",
        ).bind(
          `p-${user.id}-${i}`,
          user.id,
          `file-${String(i).padStart(2, "0")}.pdf`,
          `k-p-${user.id}-${i}`,
          `hp-${i}`,
          Date.now() - (12 - i) * 1000,
        ),
      ),
    );
    const first = await listFiles(token, "?pageSize=10&pageNumber=1");
    expect(first.files.map((f) => f.fileName).slice(0, 2)).toEqual(["file-11.pdf", "file-10.pdf"]);
    expect(first.pagination).toEqual({ pageNumber: 1, pageSize: 10, total: 12, totalPages: 2 });
    const second = await listFiles(token, "?pageSize=10&pageNumber=2");
    expect(second.files.map((f) => f.fileName)).toEqual(["file-01.pdf", "file-00.pdf"]);
  });
});

describe("another user's documents", () => {
  it("are invisible: list, status, view, index and delete all behave as not found", async () => {
    const owner = await newUser("owner");
    const intruder = await newUser("intruder");
    const { fileId, s3Key } = await uploadAndIndex(owner.token, "private.pdf", await textPdf(THREE_PAGES));
    await waitUntilDone(owner.token, fileId);
    const [file] = (await listFiles(owner.token)).files;

    expect((await listFiles(intruder.token)).files).toEqual([]);
    expect((await call("GET", `/api/documents/indexingStatus?file_id=${fileId}`, { token: intruder.token })).status).toBe(404);
    expect((await call("GET", `/api/documents/viewDocument?file_id=${fileId}`, { token: intruder.token })).status).toBe(404);
    expect((await call("POST", "/api/documents/index", { token: intruder.token, body: { s3_key: s3Key } })).status).toBe(404);
    const del = await call("DELETE", "/api/documents", { token: intruder.token, body: { file_hashes: [file!.fileHash] } });
    expect(del.json).toEqual({ status: "error", deleted: [], errors: [{ error: M.fileNotFound, file_hash: file!.fileHash }] });
    expect((await listFiles(owner.token)).files).toHaveLength(1);
    expect(await ftsPages(intruder.user.id, "zebra")).toEqual([]);
  });

  it("requires sign-in for every documents endpoint except the signed links", async () => {
    for (const [method, path] of [
      ["GET", "/api/documents"],
      ["GET", "/api/documents/uploadLink?fileName=a.pdf"],
      ["POST", "/api/documents/index"],
      ["GET", "/api/documents/indexingStatus?file_id=x"],
      ["GET", "/api/documents/viewDocument?file_id=x"],
      ["DELETE", "/api/documents"],
    ] as const) {
      expect((await call(method, path, method === "GET" ? {} : { body: {} })).status, `${method} ${path}`).toBe(401);
    }
  });
});
