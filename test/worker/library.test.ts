// Proves the Library Durable Object, one per user: its full-text index follows
// inserts, updates and deletes; only complete documents are searched; one
// user's Library never yields another user's chunks; and a Library evicted
// while a long PDF is being indexed still ends with the document indexed.
import { env } from "cloudflare:workers";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { library } from "../../worker/library/stub";
import { newUser } from "../helpers/api";
import { uploadAndIndex, waitUntilDone } from "../helpers/documents";
import { ftsPages } from "../helpers/library";
import { textPdf } from "../helpers/pdfs";

const chunk = (documentId: string, page: number, text: string) => ({
  id: `${documentId}:${page}:0`,
  page,
  ord: 0,
  text,
  charStart: 0,
  charEnd: text.length,
});

describe("the Library", () => {
  it("searches complete documents only, and keeps its full-text index in step on update and delete", async () => {
    const userId = `library-${crypto.randomUUID()}`;
    const userLibrary = library(env, userId);
    expect(await userLibrary.begin("d1", "a.pdf")).toEqual([]);
    await userLibrary.addChunks("d1", [chunk("d1", 1, "Depreciation schedules for rental property")]);
    expect(await userLibrary.search("depreciation", null, 10)).toEqual([]); // still indexing
    await userLibrary.finish("d1");
    expect(await userLibrary.search("depreciation", null, 10)).toEqual([
      { id: "d1:1:0", document_id: "d1", file_name: "a.pdf", page: 1, text: "Depreciation schedules for rental property" },
    ]);
    expect(await userLibrary.search("depreciation", ["other-doc"], 10)).toEqual([]);

    await runInDurableObject(userLibrary, (_object, state) => {
      state.storage.sql.exec("UPDATE chunks SET text = 'Payroll withholding tables' WHERE id = 'd1:1:0'");
    });
    expect(await ftsPages(userId, "depreciation")).toEqual([]);
    expect(await ftsPages(userId, "payroll")).toEqual([1]);

    // a retry starts over: the earlier chunks are handed back (for their vectors) and removed
    expect(await userLibrary.begin("d1", "a.pdf")).toEqual(["d1:1:0"]);
    expect(await ftsPages(userId, "payroll")).toEqual([]);
    await userLibrary.addChunks("d1", [chunk("d1", 1, "Payroll withholding tables")]);
    await userLibrary.finish("d1");
    expect(await userLibrary.remove("d1")).toEqual(["d1:1:0"]);
    expect(await ftsPages(userId, "payroll")).toEqual([]);
    expect(await userLibrary.search("payroll", null, 10)).toEqual([]);
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
