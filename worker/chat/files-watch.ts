// A chat's watches over all of a user's documents, told by that user's Library
// (library/watchers.ts): a socket whose user has My Files open (`watch_files`)
// gets each change as a `file_progress` frame, and a question over all the
// owner's files (none attached) waits while one of them is still being indexed,
// woken by each push.
import type { ClientMessage, FileProgress } from "../contract/protocol";
import { library } from "../library/stub";
import type { DocumentProgress, NamedFile, WatchedFile } from "../library/types";
import type { ChatSockets } from "./chat-sockets";
import type { SocketIdentity } from "./identity";
import { send } from "./socket-access";

const forMyFiles = ({ updatedAt: _at, ...file }: WatchedFile): FileProgress => file;

export class FilesWatch {
  /** turns waiting for a user's documents to be indexed, by user */
  private turnsWaiting = new Map<string, number>();
  /** what wakes them: each push of that user's Library, with the documents still being indexed */
  private readonly wake = new Set<(told: DocumentProgress) => void>();

  constructor(
    private readonly env: Env,
    private readonly sockets: ChatSockets,
  ) {}

  /** `watch_files`: this socket is told (or no longer) of its user's documents' indexing, starting with `file_ids` as they are now. */
  async watchFiles(ws: WebSocket, who: SocketIdentity, message: Extract<ClientMessage, { action: "watch_files" }>): Promise<void> {
    ws.serializeAttachment({ ...who, watchesFiles: message.watch });
    if (!message.watch || !who.userId) return;
    const now = await library(this.env, who.userId).watch(who.sessionId, who.userId, { all: true, current: message.file_ids ?? [] });
    if (now.files.length) send(ws, { type: "file_progress", files: now.files.map(forMyFiles) });
  }

  /**
   * Waits while any of the user's documents is still being indexed (or `timeoutMs`,
   * or a Stop); returns those still being indexed then.
   */
  async untilIndexed(userId: string, timeoutMs: number, stop?: AbortSignal): Promise<NamedFile[]> {
    const deadline = Date.now() + timeoutMs;
    this.turnsWaiting.set(userId, (this.turnsWaiting.get(userId) ?? 0) + 1);
    try {
      const now = await library(this.env, userId).watch(this.sockets.sessionId, userId, { all: true });
      let indexing = now.indexing ?? [];
      while (indexing.length && Date.now() < deadline && !stop?.aborted) {
        indexing = (await this.nextPush(userId, deadline - Date.now(), stop)) ?? indexing;
      }
      return indexing;
    } finally {
      const left = this.turnsWaiting.get(userId)! - 1;
      if (left) this.turnsWaiting.set(userId, left);
      else this.turnsWaiting.delete(userId);
    }
  }

  /**
   * A user's Library told of their documents: sockets of that user with My Files
   * open get the change, waiting turns wake. Returns whether the chat still watches all of them.
   */
  progress(told: DocumentProgress): boolean {
    for (const wake of [...this.wake]) wake(told);
    let watching = false;
    for (const ws of this.sockets.ofUser(told.userId)) {
      if (!(ws.deserializeAttachment() as SocketIdentity).watchesFiles) continue;
      watching = true;
      if (told.files.length) send(ws, { type: "file_progress", files: told.files.map(forMyFiles) });
    }
    return watching || this.turnsWaiting.has(told.userId);
  }

  /** Resolves with the documents still being indexed at the next push of this user's Library, or undefined after `ms` or a Stop. */
  private nextPush(userId: string, ms: number, stop?: AbortSignal): Promise<NamedFile[] | undefined> {
    return new Promise((resolve) => {
      const done = (indexing?: NamedFile[]) => {
        clearTimeout(timer);
        this.wake.delete(onPush);
        stop?.removeEventListener("abort", onStop);
        resolve(indexing);
      };
      const onPush = (told: DocumentProgress) => {
        if (told.userId === userId && told.indexing) done(told.indexing);
      };
      const onStop = () => done();
      const timer = setTimeout(done, ms);
      this.wake.add(onPush);
      stop?.addEventListener("abort", onStop);
    });
  }
}
