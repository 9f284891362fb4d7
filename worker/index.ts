import { app } from "./app";
import { handleIngestBatch, type IngestMessage } from "./ingest/consumer";
import { recoverLostIndexing } from "./ingest/recovery";

export { ChatSession } from "./chat/ChatSession";
export { Library } from "./library/Library";

export default {
  fetch: app.fetch,
  queue: (batch, env) => handleIngestBatch(batch as MessageBatch<IngestMessage>, env),
  scheduled: (_controller, env, ctx) => ctx.waitUntil(recoverLostIndexing(env)),
} satisfies ExportedHandler<Env>;
