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
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>> | undefined;
  try {
    pdf = await getDocumentProxy(bytes);
    const { totalPages } = await extractText(pdf, { mergePages: false });
    return c.json({ pages: totalPages, ms: performance.now() - started });
  } catch {
    return c.json({ status: "error" as const, message: DOCUMENT_MESSAGES.notPdf }, 400);
  } finally {
    // after the timing: the parsed document (fonts, objects) is not left for the isolate to carry
    await pdf?.loadingTask.destroy().catch(() => {});
  }
});
