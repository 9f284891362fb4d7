// Proves the Library Durable Object, one per user: it owns each document's
// lifecycle and mirrors it to the D1 catalogue row; each indexer run holds a
// lease (a lost run is fenced out, its document queued again by alarm, cron or a
// status question, and failed after too many losses); its full-text index follows inserts, updates, retries and
// removal; only complete documents are searched; an older schema upgrades in
// place; one user's Library never yields another user's chunks; and a Library
// evicted while a long PDF is being indexed still ends with the document indexed.
import { env } from "cloudflare:workers";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { gte } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { DOCUMENT_MESSAGES } from "../../worker/contract/documents";
import { getDb } from "../../worker/db/client";
import { documents } from "../../worker/db/schema";
import { indexingOwnersQuery, RECOVERY_CONCURRENCY, recoverLostIndexing } from "../../worker/ingest/recovery";
import { INDEXING_LEASE_MS, LibraryIndex, MAX_RECOVERIES, type SqlParam } from "../../worker/library/library-index";
import { MIGRATIONS } from "../../worker/library/library-schema";
import { library } from "../../worker/library/stub";
import { call, newUser } from "../helpers/api";
import { listFiles, uploadAndIndex, waitUntilDone } from "../helpers/documents";
import { ftsPages, libraryRows } from "../helpers/library";
import { textPdf } from "../helpers/pdfs";

/** A catalogue row the Library mirrors into, as an upload creates it. */
async function catalogueRow(userId: string, documentId: string) {
  await env.DB.prepare("INSERT INTO documents (id, user_id, file_name, r2_key, status) VALUES (?, ?, 'a.pdf', ?, 'uploading')")
    .bind(documentId, userId, `users/${userId}/${documentId}.pdf`)
    .run();
}

const mirrored = (documentId: string) =>
  env.DB.prepare("SELECT status, indexed_pages, page_count, error FROM documents WHERE id = ?").bind(documentId).first();

describe("the Library", () => {
  it("owns the lifecycle (pending -> processing -> indexed, progress) and mirrors each step to the catalogue row", async () => {
    const { user } = await newUser("lib-life");
    const id = crypto.randomUUID();
    await catalogueRow(user.id, id);
    const userLibrary = library(env, user.id);

    expect(await userLibrary.enqueue(id, "a.pdf")).toMatchObject({ status: "pending", pagesDone: 0 });
    expect(await mirrored(id)).toEqual({ status: "pending", indexed_pages: 0, page_count: null, error: null });
    const run = (await userLibrary.begin(id))!;
    expect(run.staleChunkIds).toEqual([]);
    expect(await userLibrary.setPageCount(id, run.runId, 2)).toBe(true);
    expect(await mirrored(id)).toMatchObject({ status: "processing", page_count: 2 });

    const chunks = await userLibrary.addPages(id, run.runId, 1, ["Depreciation schedules for rental property"]);
    expect(chunks).toEqual([expect.objectContaining({ id: `${id}:1:0`, documentId: id, page: 1 })]);
    expect(await mirrored(id)).toMatchObject({ status: "processing", indexed_pages: 1 });
    expect(await userLibrary.status(id)).toEqual({
      documentId: id,
      status: "processing",
      pagesDone: 1,
      pagesTotal: 2,
      error: null,
      ocrPages: [],
    });
    // "all my files", and a chat that has the document attached, search the pages done so far
    expect((await userLibrary.search("depreciation", null, 10)).map((h) => h.page)).toEqual([1]);
    expect((await userLibrary.search("depreciation", [id], 10)).map((h) => h.page)).toEqual([1]);

    await userLibrary.addPages(id, run.runId, 2, ["Payroll withholding tables"]);
    expect(await userLibrary.finish(id, run.runId)).toBe(true);
    expect(await mirrored(id)).toEqual({ status: "indexed", indexed_pages: 2, page_count: 2, error: null });
    expect(await userLibrary.search("depreciation", null, 10)).toEqual([
      {
        id: `${id}:1:0`,
        document_id: id,
        file_name: "a.pdf",
        page: 1,
        text: "Depreciation schedules for rental property",
        char_start: 0,
        char_end: 42,
        recognised: 0,
        column_heads: null,
      },
    ]);
    expect(await userLibrary.search("depreciation", ["other-doc"], 10)).toEqual([]);
    expect(await userLibrary.begin(id)).toBeNull(); // a late duplicate delivery does nothing
  });

  it("keeps its full-text index in step on update, retry and removal; a removed document or a lost run is fenced out", async () => {
    const userId = `library-${crypto.randomUUID()}`;
    const userLibrary = library(env, userId);
    await userLibrary.enqueue("d1", "a.pdf");
    const first = (await userLibrary.begin("d1"))!;
    await userLibrary.addPages("d1", first.runId, 1, ["Depreciation schedules for rental property"]);
    await runInDurableObject(userLibrary, (_object, state) => {
      state.storage.sql.exec("UPDATE chunks SET text = 'Payroll withholding tables' WHERE id = 'd1:1:0'");
    });
    expect(await ftsPages(userId, "depreciation")).toEqual([]);
    expect(await ftsPages(userId, "payroll")).toEqual([1]);

    // while a run holds the document, a second delivery takes nothing
    expect(await userLibrary.begin("d1")).toBeNull();
    // a passing failure hands it back; the retry starts over (the earlier chunks are handed back for their vectors)
    await userLibrary.release("d1", first.runId);
    const retry = (await userLibrary.begin("d1"))!;
    expect(retry.staleChunkIds).toEqual(["d1:1:0"]);
    expect(await ftsPages(userId, "payroll")).toEqual([]);
    expect(await userLibrary.addPages("d1", first.runId, 1, ["From the lost run"])).toBeNull(); // fenced out
    await userLibrary.addPages("d1", retry.runId, 1, ["Payroll withholding tables"]);

    // removed while indexing: the chunks go, and every later step of that run is refused
    expect(await userLibrary.remove("d1")).toEqual(["d1:1:0"]);
    expect(await ftsPages(userId, "payroll")).toEqual([]);
    expect(await userLibrary.addPages("d1", retry.runId, 2, ["More payroll text"])).toBeNull();
    expect(await userLibrary.finish("d1", retry.runId)).toBe(false);
    expect(await userLibrary.begin("d1")).toBeNull();
    expect(await userLibrary.enqueue("d1", "a.pdf")).toBeNull();
    expect(await userLibrary.status("d1")).toBeNull();
    expect(await userLibrary.search("payroll", null, 10)).toEqual([]);
  });

  /** Moves a document's last progress back in time, as if its indexer had been lost that long ago. */
  const loseRun = (userId: string, documentId: string, ago = INDEXING_LEASE_MS + 60_000) =>
    runInDurableObject(library(env, userId), (_object, state) => {
      state.storage.sql.exec("UPDATE documents SET updated_at = ? WHERE id = ?", Date.now() - ago, documentId);
    });

  it("queues a document again when its indexer was lost (alarm, cron), and it ends indexed", async () => {
    const u = await newUser("lib-recover");
    const doc = await uploadAndIndex(u.token, "Recover.pdf", await textPdf(["Mileage is reimbursed at sixty cents a mile."]));
    await waitUntilDone(u.token, doc.fileId);
    const userLibrary = library(env, u.user.id);

    // the queue message is lost: the Library knows the document is pending, nobody is indexing it
    await userLibrary.enqueue(doc.fileId, "Recover.pdf");
    await runDurableObjectAlarm(userLibrary);
    expect((await userLibrary.status(doc.fileId))?.status).toBe("pending"); // within its lease: left alone
    await loseRun(u.user.id, doc.fileId);
    expect(await runDurableObjectAlarm(userLibrary)).toBe(true);
    expect(await waitUntilDone(u.token, doc.fileId)).toMatchObject({ status: "indexed", pagesDone: 1 });
    expect(await ftsPages(u.user.id, "mileage")).toEqual([1]);

    // the same through the every-minute cron
    await userLibrary.enqueue(doc.fileId, "Recover.pdf");
    await loseRun(u.user.id, doc.fileId);
    expect(await recoverLostIndexing(env)).toBeGreaterThanOrEqual(1);
    expect(await waitUntilDone(u.token, doc.fileId)).toMatchObject({ status: "indexed" });
  });

  it("the cron calls the Libraries a few at a time: one that throws stops no other, and a lost indexing is queued again", async () => {
    const u = await newUser("cron-batches");
    const doc = await uploadAndIndex(u.token, "Permits.pdf", await textPdf(["Parking permits are renewed every March."]));
    await waitUntilDone(u.token, doc.fileId);
    await library(env, u.user.id).enqueue(doc.fileId, "Permits.pdf");
    await loseRun(u.user.id, doc.fileId);
    // 45 other users with a document pending, whose Libraries all throw (before and after this user's, whatever the order)
    const others = Array.from({ length: 45 }, () => crypto.randomUUID());
    await env.DB.batch(
      others.flatMap((id) => [
        env.DB.prepare("INSERT INTO users (id, email, referral_code) VALUES (?, ?, ?)").bind(id, `${id}@example.com`, id),
        env.DB.prepare("INSERT INTO documents (id, user_id, file_name, r2_key, status) VALUES (?, ?, 'p.pdf', ?, 'pending')").bind(
          `doc-${id}`,
          id,
          `users/${id}/doc.pdf`,
        ),
      ]),
    );
    const called: string[] = [];
    let inFlight = 0;
    let most = 0;
    const libraries = {
      idFromName: (userId: string) => userId,
      get: (userId: string) => ({
        recover: async () => {
          called.push(userId);
          most = Math.max(most, ++inFlight);
          try {
            await new Promise((resolve) => setTimeout(resolve, 5));
            if (others.includes(userId)) throw new Error("Library unavailable");
            await library(env, userId).recover();
          } finally {
            inFlight--;
          }
        },
      }),
    } as unknown as Env["LIBRARY"];
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    let failures = 0;
    try {
      expect(await recoverLostIndexing({ DB: env.DB, LIBRARY: libraries })).toBe(called.length);
      failures = logged.mock.calls.length;
    } finally {
      logged.mockRestore();
    }
    expect(called).toEqual(expect.arrayContaining([...others, u.user.id]));
    expect(new Set(called).size).toBe(called.length); // each Library once
    expect(most).toBe(RECOVERY_CONCURRENCY);
    expect(failures).toBe(others.length);
    expect(await waitUntilDone(u.token, doc.fileId)).toMatchObject({ status: "indexed" });
  });

  it("the cron finds the owners of documents being indexed through their partial index, not a scan of every document", async () => {
    for (const range of [undefined, gte(documents.userId, "8")]) {
      const query = indexingOwnersQuery(getDb(env), range, 500).toSQL();
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
        .bind(...query.params)
        .all<{ detail: string }>();
      const details = plan.results.map((r) => r.detail).join("\n");
      expect(details).toMatch(/USING COVERING INDEX documents_indexing_user_idx/);
      expect(details).not.toMatch(/SCAN documents(?! USING)/);
    }
  });

  it("fails a document whose indexer was lost too many times, when asked or by alarm, and mirrors the reason", async () => {
    const { user, token } = await newUser("lib-lost");
    const userLibrary = library(env, user.id);
    const lostTooOften = async () => {
      const id = crypto.randomUUID();
      await catalogueRow(user.id, id);
      await userLibrary.enqueue(id, "stuck.pdf");
      const run = (await userLibrary.begin(id))!;
      await userLibrary.addPages(id, run.runId, 1, ["Some text that was indexed before the indexer was lost."]);
      await runInDurableObject(userLibrary, (_object, state) => {
        state.storage.sql.exec("UPDATE documents SET attempts = ? WHERE id = ?", MAX_RECOVERIES, id);
      });
      await loseRun(user.id, id);
      return id;
    };

    const asked = await lostTooOften();
    const status = await call("GET", `/api/documents/indexingStatus?file_id=${asked}`, { token });
    expect(status.json).toMatchObject({ status: "failed", error: DOCUMENT_MESSAGES.indexingTimedOut });
    expect(await libraryRows(user.id, "SELECT id FROM chunks WHERE document_id = ?", asked)).toEqual([]);

    const unwatched = await lostTooOften();
    await runDurableObjectAlarm(userLibrary);
    expect(await mirrored(unwatched)).toMatchObject({ status: "failed", error: DOCUMENT_MESSAGES.indexingTimedOut });
    const listed = (await listFiles(token)).files.find((f) => f.fileId === unwatched);
    expect(listed).toMatchObject({ status: "failed", error: DOCUMENT_MESSAGES.indexingTimedOut });
  });

  it("upgrades a Library written by schema version 1 in place, keeping its documents searchable", async () => {
    const userId = `library-v1-${crypto.randomUUID()}`;
    const upgraded = await runInDurableObject(library(env, userId), (_object, state) => {
      const sql = state.storage.sql;
      for (const table of ["chunks_fts", "row_labels_fts", "chunks", "documents"]) sql.exec(`DROP TABLE IF EXISTS ${table}`);
      for (const statement of MIGRATIONS[1]!) sql.exec(statement);
      sql.exec("UPDATE schema_version SET version = 1");
      sql.exec("INSERT INTO documents (id, file_name, status) VALUES ('old', 'old.pdf', 'indexed')");
      sql.exec(
        "INSERT INTO chunks (id, document_id, page, ord, text, char_start, char_end) VALUES ('old:3:0', 'old', 3, 0, 'Mileage rates for business travel', 0, 33)",
      );
      const index = new LibraryIndex({
        rows: <T>(query: string, ...params: SqlParam[]) => sql.exec(query, ...params).toArray() as T[],
        transaction: (fn) => state.storage.transactionSync(fn),
      });
      return {
        version: sql.exec("SELECT version FROM schema_version").one().version,
        status: index.status("old"),
        hits: index.search("mileage", null, 5).map((h) => h.page),
        requeued: index.enqueue("old", "old.pdf")?.status,
      };
    });
    expect(upgraded).toEqual({
      version: 7,
      status: { documentId: "old", status: "indexed", pagesDone: 0, pagesTotal: null, error: null, ocrPages: [] },
      hits: [3],
      requeued: "pending",
    });
  });

  it("admits a question in one call: counts the day's message, names signed-out sessions, reads the named documents and searches them", async () => {
    const u = await newUser("lib-admit");
    const pdf = await textPdf(["Parental leave is sixteen weeks at full pay."]);
    const doc = await uploadAndIndex(u.token, "Leave.pdf", pdf);
    await waitUntilDone(u.token, doc.fileId);
    const userLibrary = library(env, u.user.id);
    const ask = (files: { ids: string[]; uploadKey: string | null }, askerSessionId = "s-asker") =>
      userLibrary.admit({
        day: "2026-11-25",
        askerSessionId,
        sessionIds: ["s-other"],
        files,
        search: { question: "parental leave", limit: 5 },
      });

    // by its upload key, in a chat that has no documents yet: the document as the chat will show it,
    // searched in the same call (the first chunk needs no second one)
    const adding = await ask({ ids: [], uploadKey: doc.s3Key });
    expect(adding).toMatchObject({ messages: 1, signedOut: [], files: [{ fileId: doc.fileId, fileName: "Leave.pdf", status: "indexed" }] });
    expect(adding.hits?.map((h) => h.document_id)).toEqual([doc.fileId]);
    // the chat's documents as they are: searched in the same call
    const keeping = await ask({ ids: [doc.fileId], uploadKey: doc.s3Key });
    expect(keeping.messages).toBe(2);
    expect(keeping.hits?.map((h) => h.document_id)).toEqual([doc.fileId]);
    // a document or key it does not know: the catalogue decides (nothing searched)
    expect(await ask({ ids: [doc.fileId, "not-here"], uploadKey: null })).toMatchObject({ messages: 3, files: null, hits: null });
    expect(await ask({ ids: [], uploadKey: `users/${u.user.id}/other.pdf` })).toMatchObject({ files: null, hits: null });
    // a taken-back message leaves the count as it was
    await userLibrary.uncountMessage("2026-11-25");
    expect((await ask({ ids: [], uploadKey: null })).messages).toBe(4);

    // sign-out tells the Library: that session's questions are not counted, and it is named signed out
    await userLibrary.signOut([{ id: "s-asker", expiresAt: Date.now() + 60_000 }]);
    expect(await ask({ ids: [], uploadKey: null })).toMatchObject({ messages: 0, signedOut: ["s-asker"], hits: null });
    expect(await ask({ ids: [], uploadKey: null }, "s-other")).toMatchObject({ messages: 5, signedOut: [] });
    // a removed document is not the Library's to name any more
    await userLibrary.remove(doc.fileId);
    expect((await ask({ ids: [doc.fileId], uploadKey: null }, "s-other")).files).toBeNull();
  });

  it("never yields one user's chunks from another user's Library", async () => {
    const alice = await newUser("lib-alice");
    const bob = await newUser("lib-bob");
    const doc = await uploadAndIndex(alice.token, "secret.pdf", await textPdf(["The merger codename is Bluefin Pelican."]));
    await waitUntilDone(alice.token, doc.fileId);
    expect(await library(env, alice.user.id).search("pelican", null, 10)).toHaveLength(1);
    expect(await library(env, bob.user.id).search("pelican", null, 10)).toEqual([]);
    // even with the exact chunk id or document id
    expect(await library(env, bob.user.id).chunks([`${doc.fileId}:1:0`], null)).toEqual([]);
    expect(await library(env, bob.user.id).search("pelican", [doc.fileId], 10)).toEqual([]);
  });

  it("ends indexed when the Library is evicted while a long PDF is being indexed", async () => {
    const u = await newUser("lib-evict");
    const filler = "General provisions about expenses, approvals and the reimbursement of employees. ".repeat(10);
    const pages = Array.from({ length: 300 }, (_, i) =>
      i === 249 ? "Per diem abroad is forty-five euros." : `Chapter ${i + 1}. ${filler}`,
    );
    const doc = await uploadAndIndex(u.token, "Long.pdf", await textPdf(pages));
    const userLibrary = library(env, u.user.id);
    // evict as soon as the Library holds part of the document
    let held = 0;
    for (let i = 0; i < 1000 && held === 0; i++) {
      held = (await userLibrary.chunkIds(doc.fileId)).length;
      if (held === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await evictDurableObject(userLibrary);
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThan(300); // part of it: the eviction happened mid-indexing
    const done = await waitUntilDone(u.token, doc.fileId, 90_000);
    expect(done).toMatchObject({ status: "indexed", pagesDone: 300 });
    expect(await ftsPages(u.user.id, "diem")).toEqual([250]);
    expect(new Set(await userLibrary.chunkIds(doc.fileId)).size).toBe((await userLibrary.chunkIds(doc.fileId)).length);
  }, 120_000);
});
