import { app } from "./app";
import { handleIngestBatch } from "./ingest/consumer";

export { ChatSession } from "./chat/ChatSession";

export default {
  fetch: app.fetch,
  queue: (batch) => handleIngestBatch(batch),
} satisfies ExportedHandler<Env>;
