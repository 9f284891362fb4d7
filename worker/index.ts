import { app } from "./app";
import { handleIngestBatch, type IngestMessage } from "./ingest/consumer";

export { ChatSession } from "./chat/ChatSession";
export { Library } from "./library/Library";

export default {
  fetch: app.fetch,
  queue: (batch, env) => handleIngestBatch(batch as MessageBatch<IngestMessage>, env),
} satisfies ExportedHandler<Env>;
