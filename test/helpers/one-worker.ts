// The test pool runs one Worker in process: the API Worker with the ingestion
// Worker's queue and cron handlers, so an upload is indexed as in `npm run dev`
// (there two Workers share the local queue; test/vitest.config.ts adds the
// ingestion Worker's queue consumer settings from wrangler.ingest.jsonc).
import api from "../../worker/index";
import ingest from "../../worker/ingest/index";

export { ChatSession, Library } from "../../worker/index";

export default { ...api, ...ingest } satisfies ExportedHandler<Env>;
