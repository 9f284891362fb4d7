// One Durable Object per user, named by the user id: that user's chunks, their
// FTS5 index and which documents are complete, in the object's own SQLite.
// Every question searches only its asker's object, so search cost grows with
// one user's documents, not everyone's, and one user's text can never be
// searched from another user's chat. Callers reach it only through
// `library(env, userId)`, with the user id from a verified token or a stored row.
import { DurableObject } from "cloudflare:workers";
import { LibraryIndex, type ChunkHit, type IndexedChunk, type SqlParam } from "./library-index";

export class Library extends DurableObject<Env> {
  private readonly index: LibraryIndex;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.index = new LibraryIndex({
      rows: <T>(query: string, ...params: SqlParam[]) => ctx.storage.sql.exec(query, ...params).toArray() as T[],
      transaction: (fn) => ctx.storage.transactionSync(fn),
    });
  }

  /** Starts (or restarts) indexing a document; returns the chunk ids an earlier attempt left (for their vectors). */
  async begin(documentId: string, fileName: string): Promise<string[]> {
    return this.index.begin(documentId, fileName);
  }

  async addChunks(documentId: string, chunks: IndexedChunk[]): Promise<void> {
    this.index.addChunks(documentId, chunks);
  }

  async finish(documentId: string): Promise<void> {
    this.index.finish(documentId);
  }

  /** Removes a document; returns its chunk ids (for its vectors). */
  async remove(documentId: string): Promise<string[]> {
    return this.index.remove(documentId);
  }

  async chunkIds(documentId: string): Promise<string[]> {
    return this.index.chunkIds(documentId);
  }

  async search(question: string, documentIds: string[] | null, limit: number): Promise<ChunkHit[]> {
    return this.index.search(question, documentIds, limit);
  }

  async chunks(ids: string[], documentIds: string[] | null): Promise<ChunkHit[]> {
    return this.index.chunks(ids, documentIds);
  }
}
