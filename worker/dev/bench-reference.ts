// The benchmark's reference in the product's own runtime: a bare unpdf
// `extractText` of the posted PDF, timed in this isolate, so `npm run bench`
// compares indexing with a bare extraction on the same engine (workerd under
// vite dev) and as warm, not with Node's.
import { Hono } from "hono";
import { extractText, getDocumentProxy } from "unpdf";
import { DOCUMENT_MESSAGES } from "../contract/documents";

export const benchReference = new Hono<{ Bindings: Env }>().post("/bare-extraction", async (c) => {
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  const started = performance.now();
  try {
    const { totalPages } = await extractText(await getDocumentProxy(bytes), { mergePages: false });
    return c.json({ pages: totalPages, ms: performance.now() - started });
  } catch {
    return c.json({ status: "error" as const, message: DOCUMENT_MESSAGES.notPdf }, 400);
  }
});
