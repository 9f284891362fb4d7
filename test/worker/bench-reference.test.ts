// The benchmark's in-runtime reference (a development route): a PDF gets its
// page count and the time a bare extraction took; anything else a clear 400.
import { describe, expect, it } from "vitest";
import { DOCUMENT_MESSAGES } from "../../worker/contract/documents";
import { benchReference } from "../../worker/dev/bench-reference";
import { textPdf } from "../helpers/pdfs";

describe("bench reference extraction (development only)", () => {
  it("extracts a posted PDF and says how many pages and how long", async () => {
    const res = await benchReference.request("/bare-extraction", { method: "POST", body: await textPdf(["One", "Two", "Three"]) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { pages: number; ms: number };
    expect(body.pages).toBe(3);
    expect(body.ms).toBeGreaterThanOrEqual(0);
  });

  it("answers a body that is no PDF with the upload's message, not a 500", async () => {
    const res = await benchReference.request("/bare-extraction", { method: "POST", body: "not a pdf at all" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: "error", message: DOCUMENT_MESSAGES.notPdf });
  });
});
