// The ingest Queue consumer: one message per document. Problems a retry cannot
// fix fail the document at once with their reason; anything else is retried with
// exponential backoff, and the last attempt marks the document failed, so no
// document stays pending or processing forever.
import { DOCUMENT_MESSAGES } from "../contract/documents";
import { IndexingFailure } from "./extract";
import { failDocument, indexDocument, type IndexerDeps } from "./indexer";

export interface IngestMessage {
  documentId: string;
}

/** Must equal the consumer's max_retries + 1 in wrangler.ingest.jsonc. */
export const MAX_ATTEMPTS = 4;

export function retryDelaySeconds(attempt: number): number {
  return Math.min(300, 5 * 2 ** (attempt - 1));
}

export async function handleIngestMessage(deps: IndexerDeps, message: Message<IngestMessage>): Promise<void> {
  const documentId = message.body?.documentId;
  if (typeof documentId !== "string") {
    message.ack(); // malformed: nothing to index, and retrying cannot help
    return;
  }
  try {
    await indexDocument(deps, documentId);
    message.ack();
  } catch (err) {
    if (err instanceof IndexingFailure) {
      await failDocument(deps, documentId, err.message);
      message.ack();
    } else if (message.attempts >= MAX_ATTEMPTS) {
      console.error("indexing failed for good", documentId, err);
      await failDocument(deps, documentId, DOCUMENT_MESSAGES.indexingFailed);
      message.ack();
    } else {
      console.warn("indexing attempt failed; retrying", documentId, message.attempts, err);
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    }
  }
}

export async function handleIngestBatch(batch: MessageBatch<IngestMessage>, env: IndexerDeps): Promise<void> {
  for (const message of batch.messages) await handleIngestMessage(env, message);
}
