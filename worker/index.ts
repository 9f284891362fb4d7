// The API Worker (wrangler.jsonc): the HTTP API and the chat websockets, and the
// Durable Objects they use. Indexing runs in the ingestion Worker (worker/ingest/index.ts).
import { app } from "./app";

export { ChatSession } from "./chat/ChatSession";
export { Library } from "./library/Library";

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
