// A chat's documents as its Durable Object stores them: the ids of the owner's
// documents in the order attached, and which of them a question has already
// named. Reading resolves them against the documents catalogue and forgets ids
// whose document was deleted from My Files.
import type { ChatFile, FileInfo } from "../contract/protocol";
import type { Db } from "../db/client";
import { replacedUploads, resolveChatFiles } from "../services/chat-files";

/** Reads a chat's documents from the catalogue: resolveChatFiles, or the same inside a caller's D1 batch. */
export type ReadChatFiles = (request: { ownerId: string; ids: readonly string[] }) => Promise<ChatFile[]>;

interface Row {
  document_id: string;
  owner_id: string;
  announced: number;
  [key: string]: SqlStorageValue;
}

export class ChatDocuments {
  constructor(private readonly storage: DurableObjectStorage) {
    // `announced` = already named on a question (the next question names only new ones).
    storage.sql.exec(`CREATE TABLE IF NOT EXISTS chat_files (
      document_id TEXT PRIMARY KEY,
      owner_id TEXT NOT NULL,
      position INTEGER NOT NULL,
      announced INTEGER NOT NULL DEFAULT 0
    )`);
  }

  ids(): string[] {
    return this.rows().map((r) => r.document_id);
  }

  /** Whose documents these are (null while the set is empty). */
  ownerId(): string | null {
    return this.storage.sql.exec<Row>("SELECT owner_id FROM chat_files LIMIT 1").toArray()[0]?.owner_id ?? null;
  }

  /**
   * The documents as they are now; ids of deleted documents leave the set here, and the id
   * of an upload the indexer dropped as a duplicate gives its place to the existing document.
   */
  async current(db: Db, read: ReadChatFiles = (request) => resolveChatFiles({ db }, request)): Promise<ChatFile[]> {
    const rows = this.rows();
    if (rows.length === 0) return [];
    const ownerId = rows[0]!.owner_id;
    const files = await read({ ownerId, ids: rows.map((r) => r.document_id) });
    const kept = new Set(files.map((f) => f.fileId));
    const gone = rows.flatMap((r) => (kept.has(r.document_id) ? [] : [r.document_id]));
    if (gone.length === 0) return files;
    const replaced = await replacedUploads({ db }, { ownerId, ids: gone });
    for (const id of gone) this.swap(id, replaced.get(id) ?? null);
    return replaced.size ? resolveChatFiles({ db }, { ownerId, ids: this.ids() }) : files;
  }

  /** A document left (null) or gave its place to `replacedBy` (a duplicate upload's original). */
  swap(documentId: string, replacedBy: string | null): void {
    if (replacedBy && !this.ids().includes(replacedBy))
      this.storage.sql.exec("UPDATE chat_files SET document_id = ? WHERE document_id = ?", replacedBy, documentId);
    else this.storage.sql.exec("DELETE FROM chat_files WHERE document_id = ?", documentId);
  }

  /** Replaces the set with checked documents; those already in it keep whether they were named. */
  replace(ownerId: string, files: readonly ChatFile[]): void {
    const announced = new Set(this.rows().flatMap((r) => (r.announced ? [r.document_id] : [])));
    this.storage.transactionSync(() => {
      this.storage.sql.exec("DELETE FROM chat_files");
      files.forEach((f, position) =>
        this.storage.sql.exec(
          "INSERT INTO chat_files (document_id, owner_id, position, announced) VALUES (?, ?, ?, ?)",
          f.fileId,
          ownerId,
          position,
          announced.has(f.fileId) ? 1 : 0,
        ),
      );
    });
  }

  /** The documents attached since the last question (for that question's `fileInfo`), now marked as named. */
  takeNew(files: readonly ChatFile[]): FileInfo[] {
    const fresh = new Set(this.rows().flatMap((r) => (r.announced ? [] : [r.document_id])));
    this.storage.sql.exec("UPDATE chat_files SET announced = 1");
    return files.filter((f) => fresh.has(f.fileId)).map((f) => ({ name: f.fileName, fileId: f.fileId }));
  }

  private rows(): Row[] {
    return this.storage.sql.exec<Row>("SELECT document_id, owner_id, announced FROM chat_files ORDER BY position").toArray();
  }
}
