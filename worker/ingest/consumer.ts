// The ingest Queue consumer. The documents issue implements PDF indexing; until
// then messages are acknowledged so nothing piles up in the local queue.
export async function handleIngestBatch(batch: MessageBatch<unknown>): Promise<void> {
  batch.ackAll();
}
