// The chat's documents as every socket shows them (its chips): the set stored in
// the chat's own SQLite (./chat-documents.ts), read against the catalogue when a
// socket or a turn's end asks, and sent as a `files` frame when the set changes
// and, while any of them is still being indexed, each time the owner's Library
// pushes their progress (library/watchers.ts): no read in a loop. A turn waiting
// for them to be indexed wakes on those pushes; an open chat hears of one deleted.
import { INDEXING_STATUSES, type ChatFile, type ChatFolder, type FileInfo } from "../contract/protocol";
import { getDb } from "../db/client";
import { library } from "../library/stub";
import type { DocumentProgress, WatchedFile } from "../library/types";
import { ChatDocuments, type ReadChatFiles } from "./chat-documents";
import type { ChatSockets } from "./chat-sockets";

const isIndexing = (file: ChatFile) => INDEXING_STATUSES.includes(file.status);
const asChip = ({ ocrPages: _pages, updatedAt: _at, ...file }: WatchedFile): ChatFile => file;
/** A told document's place in time: its last change, then how far along it is (two changes may share a millisecond). */
const RANK: Record<string, number> = { pending: 0, processing: 1 };
const stamp = (f: WatchedFile) => [f.updatedAt, RANK[f.status] ?? 2, f.pagesDone] as const;
const newer = (a: readonly number[], b: readonly number[]) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;

export class DocumentChips {
  /** the chat's documents (the set every question searches) */
  private documentSet: ChatDocuments;
  /** the folder the chat follows (./chat-folder.ts), shown with the chips; null when none */
  folder: ChatFolder | null = null;
  /** the last `files` frame sent, so unchanged progress is not sent again */
  private lastFilesFrame = "";
  /** the documents as last read or told (null: not known since the object started) */
  private known: ChatFile[] | null = null;
  /** when each document told was last changed: a push and a watch's answer crossing on their way cannot take the chips back */
  private readonly told = new Map<string, readonly number[]>();
  /** turns waiting for the documents to be indexed (the chat keeps watching for them, sockets or none) */
  private turnsWaiting = 0;
  /** what wakes those turns: each push */
  private readonly wake = new Set<() => void>();

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
  async current(read?: ReadChatFiles): Promise<ChatFile[]> {
    const files = await this.documentSet.current(getDb(this.env), read);
    this.known = files;
    this.told.clear();
    return files;
  }

  /** Replaces the chat's documents and tells every socket; those still being indexed are followed from their Library. */
  store(ownerId: string, files: ChatFile[]): void {
    this.documentSet.replace(ownerId, files);
    this.known = files;
    this.told.clear();
    this.sendFiles(files, true);
    if (files.some(isIndexing)) this.follow().catch((err: unknown) => console.warn("could not follow the chat's documents", err));
  }

  /**
   * While a tab shows the chat, the owner's Library tells it when one of its
   * documents is deleted (from My Files, in another tab) or replaced, indexed ones
   * too: the chips change at once. Asked when a socket opens the chat or its set is
   * replaced; each admitted question renews it in its admission call (admission.ts).
   * It ends with the chat's last socket (its answer to a push).
   */
  watchWhileShown(): void {
    const ownerId = this.documentSet.ownerId();
    const ids = this.ids();
    if (!ownerId || ids.length === 0 || !this.sockets.watched()) return;
    library(this.env, ownerId)
      .watch(this.sockets.sessionId, ownerId, { documentIds: ids })
      // the set changed while this was on its way (a watch for the new set may have gone first): watch the set as it is
      .then(() => (ids.join() === this.ids().join() ? undefined : this.watchWhileShown()))
      .catch((err: unknown) => console.warn("could not watch the chat's documents", err));
  }

  /**
   * Waits while any of the chat's documents is still being indexed (a file
   * attached right after its upload), each push of their Library sending their
   * progress as a `files` frame; gives up after `timeoutMs`. Returns the documents as they are then.
   */
  async untilIndexed(timeoutMs: number): Promise<ChatFile[]> {
    const deadline = Date.now() + timeoutMs;
    this.turnsWaiting++;
    try {
      let files = await this.follow();
      while (files.some(isIndexing) && Date.now() < deadline) {
        await this.nextPush(deadline - Date.now());
        files = this.known ?? files;
      }
      // the wait ran out: as their Library has them now, should a push have been lost on its way
      return files.some(isIndexing) ? await this.follow() : files;
    } finally {
      this.turnsWaiting--;
    }
  }

  /**
   * The owner's Library told how the documents it watches for this chat are now:
   * the chips show it, waiting turns wake. Returns whether the chat still watches
   * (someone connected, or a turn waiting).
   */
  progress(told: DocumentProgress): boolean {
    if (told.userId !== this.documentSet.ownerId()) return this.turnsWaiting > 0 || this.sockets.watched();
    // a document deleted leaves the set; a duplicate upload gives its place to the document it repeats
    const swapped = Object.entries(told.replaced ?? {}).filter(([id]) => this.ids().includes(id));
    for (const [id, replacedBy] of swapped) this.documentSet.swap(id, replacedBy);
    const files = this.ids().length === 0 && swapped.length ? [] : this.merge(told.files);
    if (files) {
      this.known = files;
      this.sendFiles(files, swapped.length > 0);
      for (const wake of [...this.wake]) wake();
    }
    return this.turnsWaiting > 0 || this.sockets.watched();
  }

  /** After the chat's storage was deleted: an empty set again. */
  forget(): void {
    this.documentSet = new ChatDocuments(this.storage);
    this.known = null;
    this.told.clear();
  }

  /**
   * Asks the owner's Library to tell this chat of its documents' progress; answers
   * (and shows) them as they are now. A document the Library does not know yet
   * (an upload not handed over) is read from the catalogue.
   */
  private async follow(): Promise<ChatFile[]> {
    const ownerId = this.documentSet.ownerId();
    const ids = this.ids();
    if (!ownerId || ids.length === 0) return [];
    const now = await library(this.env, ownerId).watch(this.sockets.sessionId, ownerId, { documentIds: ids });
    const files = this.merge(now.files) ?? (await this.current());
    this.known = files;
    this.sendFiles(files);
    return files;
  }

  /**
   * The set in its order, each document as told unless what is known of it is newer;
   * null when one is neither told nor known, or none of them was told.
   */
  private merge(told: readonly WatchedFile[]): ChatFile[] | null {
    const ids = this.ids();
    const before = new Map((this.known ?? []).map((f) => [f.fileId, f]));
    const byId = new Map<string, ChatFile>();
    for (const file of told) {
      if (!ids.includes(file.fileId)) continue;
      const seen = this.told.get(file.fileId);
      if (seen && before.has(file.fileId) && newer(stamp(file), seen) < 0) continue;
      this.told.set(file.fileId, stamp(file));
      byId.set(file.fileId, asChip(file));
    }
    if (!told.some((f) => ids.includes(f.fileId))) return null;
    const files = ids.flatMap((id) => byId.get(id) ?? before.get(id) ?? []);
    return files.length === ids.length ? files : null;
  }

  /** Resolves at the next push, or after `ms`. */
  private nextPush(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake.add(done);
    });
  }

  private sendFiles(files: ChatFile[], always = false): void {
    const frame = JSON.stringify([files, this.folder]);
    if (frame === this.lastFilesFrame && !always) return;
    this.lastFilesFrame = frame;
    this.sockets.broadcast({ type: "files", session_id: this.sockets.sessionId, files, folder: this.folder });
  }
}
