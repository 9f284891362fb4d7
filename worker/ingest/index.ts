// The ingestion Worker (wrangler.ingest.jsonc): its own deployment, so PDFium and a
// long PDF's reading stay out of the API Worker's bundle and isolates. It consumes
// the ingest Queue and runs the every-minute recovery; the users' Libraries it
// writes to live in the API Worker and are reached over RPC.
import { handleIngestBatch, type IngestMessage } from "./consumer";
import type { IndexerDeps } from "./indexer";
import { recoverLostIndexing } from "./recovery";

export default {
  queue: (batch, env) => handleIngestBatch(batch as MessageBatch<IngestMessage>, env),
  scheduled: (_controller, env, ctx) => ctx.waitUntil(recoverLostIndexing(env)),
} satisfies ExportedHandler<IndexerDeps>;
