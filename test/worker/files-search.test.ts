// Proves the My Files search (GET /api/documents?search=): the caller's files
// whose name contains the text (any case), counted and paged as the list is;
// `%` and `_` are letters; another user's files never match; an empty search is
// the whole list.
import { describe, expect, it } from "vitest";
import type { FileListResponse } from "../../worker/contract/documents";
import { call, newUser } from "../helpers/api";
import { uploadAndIndex } from "../helpers/documents";
import { textPdf } from "../helpers/pdfs";

const names = async (token: string, search: string, pageSize = 10) => {
  const res = await call("GET", `/api/documents?pageSize=${pageSize}&pageNumber=1&search=${encodeURIComponent(search)}`, { token });
  expect(res.status).toBe(200);
  const body = res.json as FileListResponse;
  return { names: body.files.map((f) => f.fileName).sort(), total: body.pagination.total };
};

describe("searching My Files by name", () => {
  it("keeps the caller's files whose name contains the text, and nobody else's", async () => {
    const ann = await newUser("files-search-ann");
    const bob = await newUser("files-search-bob");
    for (const name of ["Alpha report.pdf", "beta_notes.pdf", "100% plan.pdf", "ALPHA budget.pdf"]) {
      await uploadAndIndex(ann.token, name, await textPdf([`The ${name} document.`]));
    }
    await uploadAndIndex(bob.token, "alpha secrets.pdf", await textPdf(["Bob's own alpha file."]));

    expect(await names(ann.token, "alpha")).toEqual({ names: ["ALPHA budget.pdf", "Alpha report.pdf"], total: 2 });
    expect(await names(ann.token, "alpha", 1)).toMatchObject({ total: 2 });
    expect((await names(ann.token, "_")).names).toEqual(["beta_notes.pdf"]);
    expect((await names(ann.token, "%")).names).toEqual(["100% plan.pdf"]);
    expect((await names(ann.token, "secrets")).names).toEqual([]);
    expect((await names(ann.token, "")).total).toBe(4);
    expect((await names(bob.token, "alpha")).names).toEqual(["alpha secrets.pdf"]);
  });
});
