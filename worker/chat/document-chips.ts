// The chat's documents as every socket shows them (its chips): the set stored in
// the chat's own SQLite (./chat-documents.ts), read against the catalogue, and
// sent as a `files` frame when the set changes and while any of them is still
// being indexed, so the chips show progress.
import { INDEXING_STATUSES, type ChatFile, type FileInfo } from "../contract/protocol";
import { getDb } from "../db/client";
import { ChatDocuments, type ReadChatFiles } from "./chat-documents";
import type { ChatSockets } from "./chat-sockets";

/** How often indexing progress is read (and sent as a `files` frame when it changed). */
const PROGRESS_POLL_MS = 500;
/** How long chips of files still indexing keep showing progress to a watching socket. */
const WATCH_INDEXING_MS = 15 * 60 * 1000;

const isIndexing = (file: ChatFile) => INDEXING_STATUSES.includes(file.status);

export class DocumentChips {
  /** the chat's documents (the set every question searches) */
  private documentSet: ChatDocuments;
  /** the last `files` frame sent, so unchanged progress is not sent again */
  private lastFilesFrame = "";

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly env: Env,
    private readonly sockets: ChatSockets,
  ) {
    this.documentSet = new ChatDocuments(storage);
  }

  /** the ids of the chat's documents, in the order attached */
  ids(): string[] {
    return this.documentSet.ids();
  }

  /** which of these documents no question has named yet (and marks them named) */
  takeNew(files: ChatFile[]): FileInfo[] {
    return this.documentSet.takeNew(files);
  }

  /** The chat's documents as they are now (a document deleted from My Files has left the set). */
  current(read?: ReadChatFiles): Promise<ChatFile[]> {
    return this.documentSet.current(getDb(this.env), read);
  }

  /** Replaces the chat's documents and tells every socket. */
  store(ownerId: string, files: ChatFile[]): void {
    this.documentSet.replace(ownerId, files);
    this.sendFiles(files, true);
  }

  /** Chips of files still indexing show their progress until they are done (or nobody is watching). */
  async watch(): Promise<void> {
    await this.untilIndexed(WATCH_INDEXING_MS, { evenUnwatched: false });
  }

  /**
   * Waits while any of the chat's documents is still being indexed (a file
   * attached right after its upload), sending each change of progress as a
   * `files` frame; gives up after `timeoutMs`, or (unless a question waits)
   * when nobody is connected any more. Returns the documents as they are then.
   */
  async untilIndexed(timeoutMs: number, { evenUnwatched }: { evenUnwatched: boolean }): Promise<ChatFile[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const files = await this.current();
      this.sendFiles(files);
      const unwatched = !evenUnwatched && !this.sockets.watched();
      if (!files.some(isIndexing) || Date.now() > deadline || unwatched) return files;
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS));
    }
  }

  /** After the chat's storage was deleted: an empty set again. */
  forget(): void {
    this.documentSet = new ChatDocuments(this.storage);
  }

  private sendFiles(files: ChatFile[], always = false): void {
    const frame = JSON.stringify(files);
    if (frame === this.lastFilesFrame && !always) return;
    this.lastFilesFrame = frame;
    this.sockets.broadcast({ type: "files", session_id: this.sockets.sessionId, files });
  }
}
