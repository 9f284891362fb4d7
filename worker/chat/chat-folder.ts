// A chat scoped to a folder of My Files (`set_folder`): the folder's id kept in
// the chat's own SQLite (and in D1 chat_folders, so a move tells the chat), and
// the chat's documents kept equal to the folder's, its MAX_CHAT_FILES most
// recent: read again before each question, when a socket opens the chat, and
// when a document moves in or out (`followFolder`, pushed by PATCH
// /api/documents/:fileId). Setting the documents any other way ends the scope.
import { eq } from "drizzle-orm";
import { FOLDER_MESSAGES } from "../contract/folders";
import { MAX_CHAT_FILES, type ChatFile, type ChatFolder } from "../contract/protocol";
import { getDb } from "../db/client";
import { chatFolders } from "../db/schema";
import { resolveChatFiles } from "../services/chat-files";
import { folderDocuments } from "../services/folders";
import type { DocumentChips } from "./document-chips";

interface Row {
  folder_id: string;
  owner_id: string;
  /** the folder as last shown (JSON ChatFolder), so chips sent before the next read still name it */
  shown: string;
  [key: string]: SqlStorageValue;
}

export type FolderScope = { ok: true } | { ok: false; code: number; message: string };

export class ChatFolderScope {
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly env: Env,
    private readonly chips: DocumentChips,
    private readonly sessionId: () => string,
  ) {
    this.createTable();
    const row = this.row();
    if (row) chips.folder = JSON.parse(row.shown) as ChatFolder;
  }

  /** Scopes the chat to the owner's folder; refused (404) for a folder not theirs. */
  async set(ownerId: string, folderId: string): Promise<FolderScope> {
    const read = await folderDocuments({ db: getDb(this.env) }, { userId: ownerId, folderId, limit: MAX_CHAT_FILES });
    if (!read) return { ok: false, code: 404, message: FOLDER_MESSAGES.notFound };
    if (read.ids.length === 0) return { ok: false, code: 409, message: FOLDER_MESSAGES.emptyForChat };
    const shown = JSON.stringify(read.folder);
    this.storage.sql.exec(
      "INSERT OR REPLACE INTO chat_folder (id, folder_id, owner_id, shown) VALUES (1, ?, ?, ?)",
      folderId,
      ownerId,
      shown,
    );
    await getDb(this.env)
      .insert(chatFolders)
      .values({ sessionId: this.sessionId(), userId: ownerId, folderId })
      .onConflictDoUpdate({ target: chatFolders.sessionId, set: { folderId, userId: ownerId } })
      .run();
    await this.show(ownerId, read, true);
    return { ok: true };
  }

  /** The chat's documents were set another way: it follows no folder any more. */
  clear(): void {
    if (!this.row()) return;
    this.storage.sql.exec("DELETE FROM chat_folder");
    this.chips.folder = null;
    const sessionId = this.sessionId();
    getDb(this.env)
      .delete(chatFolders)
      .where(eq(chatFolders.sessionId, sessionId))
      .run()
      .catch((err: unknown) => console.warn("could not forget the chat's folder", err));
  }

  /** The folder's documents as they are now become the chat's (a folder deleted: the chat keeps its documents, no folder). */
  async sync(): Promise<void> {
    const row = this.row();
    if (!row) return;
    const read = await folderDocuments({ db: getDb(this.env) }, { userId: row.owner_id, folderId: row.folder_id, limit: MAX_CHAT_FILES });
    if (!read) return this.clear();
    await this.show(row.owner_id, read, false);
  }

  /** After the chat's storage was deleted: its table made again, empty. */
  forget(): void {
    this.chips.folder = null;
    this.createTable();
  }

  private createTable(): void {
    this.storage.sql.exec(`CREATE TABLE IF NOT EXISTS chat_folder (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      folder_id TEXT NOT NULL,
      owner_id TEXT NOT NULL,
      shown TEXT NOT NULL
    )`);
  }

  private async show(ownerId: string, read: NonNullable<Awaited<ReturnType<typeof folderDocuments>>>, always: boolean) {
    const before = this.chips.folder;
    this.chips.folder = read.folder;
    this.storage.sql.exec("UPDATE chat_folder SET shown = ? WHERE id = 1", JSON.stringify(read.folder));
    const sameFolder = JSON.stringify(before) === JSON.stringify(read.folder);
    const sameIds = JSON.stringify(this.chips.ids()) === JSON.stringify(read.ids);
    if (!always && sameFolder && sameIds) return;
    // a document whose indexing failed cannot be searched: the chat leaves it out
    const files: ChatFile[] = (await resolveChatFiles({ db: getDb(this.env) }, { ownerId, ids: read.ids })).filter(
      (f) => f.status !== "failed",
    );
    this.chips.store(ownerId, files);
    this.chips.watchWhileShown();
  }

  private row(): Row | undefined {
    return this.storage.sql.exec<Row>("SELECT folder_id, owner_id, shown FROM chat_folder WHERE id = 1").toArray()[0];
  }
}
