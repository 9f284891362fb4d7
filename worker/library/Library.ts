// One Durable Object per user, named by the user id: the lifecycle of that
// user's documents, their chunks and the FTS5 index, in the object's own SQLite.
// Every question searches only its asker's object, so search cost grows with one
// user's documents, not everyone's, and one user's text can never be searched
// from another user's chat. Each lifecycle change is mirrored to the D1
// `documents` catalogue row (My Files and the quotas read it). Each indexer run
// holds a lease that its progress renews; an alarm (and the cron, and any status
// question) queues a document again when its run was lost, so a restart mid-
// indexing still ends indexed. It tells the chats that watch its documents of
// their progress, and those holding sockets of a session signed out here, at once
// (./watchers.ts). Callers reach it only through `library(env, userId)`, with the
// user id from a verified token or a stored row.
import { DurableObject } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { chatSession } from "../chat/stub";
import { INDEXING_STATUSES } from "../contract/protocol";
import { getDb } from "../db/client";
import { documents } from "../db/schema";
import { yieldToOtherWork } from "../lib/yield";
import { deleteVectors } from "../services/vectors";
import {
  chunkPages,
  LibraryIndex,
  type ChunkHit,
  type DocumentState,
  type IndexedChunk,
  type RecognitionResult,
  type SqlParam,
} from "./library-index";
import { admissionFacts, QuestionLedger } from "./question-ledger";
import type { AdmissionFacts, AdmissionRequest, DocumentProgress, NamedFile, WatchRequest } from "./types";
import { Watchers } from "./watchers";

export class Library extends DurableObject<Env> {
  private index!: LibraryIndex;
  private ledger!: QuestionLedger;
  private watchers!: Watchers;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.open();
  }

  private open(): void {
    const sql = {
      rows: <T>(query: string, ...params: SqlParam[]) => this.ctx.storage.sql.exec(query, ...params).toArray() as T[],
      transaction: (fn: () => void) => this.ctx.storage.transactionSync(fn),
    };
    this.index = new LibraryIndex(sql); // migrates the schema both use
    this.ledger = new QuestionLedger(sql);
    this.watchers = new Watchers(sql, (chatId, progress) => chatSession(this.env, chatId).documentProgress(progress));
  }

  /** Copies a lifecycle change to the catalogue row and keeps the lease alarm set. */
  private async mirror(state: DocumentState | null): Promise<DocumentState | null> {
    if (!state) return null;
    await getDb(this.env)
      .update(documents)
      .set({
        status: state.status,
        indexedPages: state.pagesDone,
        pageCount: state.pagesTotal,
        error: state.error,
        ocrPages: state.ocrPages,
      })
      .where(eq(documents.id, state.documentId));
    this.watchers.changed(state.documentId, !INDEXING_STATUSES.includes(state.status));
    await this.scheduleLeaseCheck();
    return state;
  }

  /** When the alarm set by this instance fires (null: none set since it started, or it fired). */
  private alarmAt: number | null = null;

  private async scheduleLeaseCheck(): Promise<void> {
    const deadline = this.index.nextLeaseDeadline();
    if (deadline === null) return;
    // progress moves the deadline later every step: an alarm already due before it stays
    // (it finds nothing lost and sets the next one), one storage write fewer per step
    if (this.alarmAt !== null && this.alarmAt > Date.now() && this.alarmAt <= deadline + 1000) return;
    this.alarmAt = deadline + 1000;
    await this.ctx.storage.setAlarm(this.alarmAt);
  }

  /**
   * Documents whose indexer was lost (a restart, a lost queue message) are queued
   * again, or failed after MAX_RECOVERIES (no caller here, so their vectors go here).
   * Runs by alarm, when a status is asked, and from the every-minute cron.
   */
  async recover(): Promise<void> {
    const { requeued, failed } = this.index.recoverLost();
    for (const state of requeued) {
      await this.env.INGEST_QUEUE.send({ documentId: state.documentId });
      await this.mirror(state);
    }
    for (const { state, staleChunkIds } of failed) {
      await deleteVectors(this.env, { ids: staleChunkIds });
      await this.mirror(state);
    }
  }

  override async alarm(): Promise<void> {
    this.alarmAt = null;
    await this.recover();
    await this.scheduleLeaseCheck();
  }

  /**
   * A validated upload (stored under `uploadKey`) waits for the indexer. Null for a removed document.
   * `catalogued`: the catalogue row says so already (the upload's claim wrote it), so it is not written again.
   */
  async enqueue(
    documentId: string,
    fileName: string,
    uploadKey: string | null = null,
    { catalogued = false }: { catalogued?: boolean } = {},
  ): Promise<DocumentState | null> {
    const state = this.index.enqueue(documentId, fileName, uploadKey);
    if (!catalogued || !state) return this.mirror(state);
    this.watchers.changed(state.documentId, false);
    await this.scheduleLeaseCheck();
    return state;
  }

  /**
   * An indexer run takes the document, removing what an earlier run wrote. Returns
   * the run's id and the chunk ids it removed (the caller removes their vectors);
   * null when there is nothing to take (finished, failed, removed, or held by another run).
   */
  async begin(documentId: string): Promise<{ runId: string; staleChunkIds: string[] } | null> {
    const started = this.index.begin(documentId);
    if (!started) return null;
    await this.mirror(started.state);
    return { runId: started.runId, staleChunkIds: started.staleChunkIds };
  }

  /** A run that hit a passing problem hands the document back for the retry. */
  async release(documentId: string, runId: string): Promise<void> {
    await this.mirror(this.index.release(documentId, runId));
  }

  async setPageCount(documentId: string, runId: string, pagesTotal: number): Promise<boolean> {
    return (await this.mirror(this.index.setPageCount(documentId, runId, pagesTotal))) !== null;
  }

  /**
   * Indexes the next pages; returns their chunks when `forVectors` (an indexer with
   * vectors to write), else none: handing 1,200 chunks back over RPC costs the
   * indexer more than the step itself. Null when this run no longer holds the document.
   */
  async addPages(documentId: string, runId: string, firstPage: number, texts: string[], forVectors = true): Promise<IndexedChunk[] | null> {
    // chunking and storing a step of 100 pages is ~25 ms of the isolate's one thread: as two turns,
    // a request that arrives meanwhile (a health check, a question) runs between them
    const chunks = chunkPages(documentId, firstPage, texts);
    await yieldToOtherWork();
    const added = this.index.addPageChunks(documentId, runId, firstPage, texts.length, chunks);
    if (!added) return null;
    await this.mirror(added.state);
    return forVectors ? added.chunks : [];
  }

  /**
   * The text layer is read and searched from now on; `ocrPages` (pictures of text)
   * wait for recognition in the owner's browser (as needs_ocr when `textTooFew`).
   * False when this run no longer holds it.
   */
  async finish(documentId: string, runId: string, ocrPages: number[] = [], textTooFew = false): Promise<boolean> {
    return (await this.mirror(this.index.finish(documentId, runId, ocrPages, textTooFew))) !== null;
  }

  /** Text recognised in the owner's browser for listed pages of a needs_ocr document. */
  async recognise(documentId: string, pages: { page: number; text: string }[]): Promise<RecognitionResult> {
    const result = this.index.recognise(documentId, pages);
    if (result.ok) await this.mirror(result.state);
    return result;
  }

  /** The document cannot be indexed, for `reason`: its chunks go; returns their ids (the caller removes their vectors). */
  async fail(documentId: string, fileName: string, reason: string): Promise<string[]> {
    const failed = this.index.fail(documentId, fileName, reason);
    if (!failed) return [];
    await this.mirror(failed.state);
    return failed.staleChunkIds;
  }

  /** Where the document is in its life (after recovering lost runs); null when unknown here. */
  async status(documentId: string): Promise<DocumentState | null> {
    await this.recover();
    return this.index.status(documentId);
  }

  /**
   * Removes a document's chunks (an indexer still running for it stops) and returns
   * their ids: the caller removes their vectors, and the catalogue row. `replacedBy`:
   * the document that stands for it from now on (a duplicate upload's original).
   */
  async remove(documentId: string, replacedBy: string | null = null): Promise<string[]> {
    const chunkIds = this.index.remove(documentId);
    this.watchers.removed(documentId, replacedBy); // a chat showing it shows its replacement, or the rest
    return chunkIds;
  }

  /**
   * Removes everything this user's Library holds (account deletion); returns every chunk id (for the
   * vectors) and the chats that held the user's sockets (one still answering its first question has
   * no chats row to be found by).
   */
  async erase(): Promise<{ chunkIds: string[]; chats: string[] }> {
    const chunkIds = this.index.allChunkIds();
    const held = this.watchers.release(null);
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.open(); // an empty Library, should anything still call it
    await this.revoke(held); // the user's sockets on chats of others close too
    return { chunkIds, chats: [...held.keys()] };
  }

  async chunkIds(documentId: string): Promise<string[]> {
    return this.index.chunkIds(documentId);
  }

  /**
   * A question's admission in one call (chat/admission.ts decides): counts the
   * message unless the asker was signed out, says which sessions were, reads the
   * documents the question names and, when they are complete, searches them.
   */
  async admit(request: AdmissionRequest): Promise<AdmissionFacts> {
    const facts = admissionFacts(this.index, this.ledger, request);
    // the chat shows these documents from now on: it watches them in the same call, no call more per question
    if (request.watch && facts.files?.length)
      this.watchers.watch(request.watch.chatId, request.watch.userId, { documentIds: facts.files.map((f) => f.fileId) });
    return facts;
  }

  /** Takes back a message admit counted that was then refused for another reason. */
  async uncountMessage(day: string): Promise<void> {
    this.ledger.uncountMessage(day);
  }

  /** These signed-in sessions of the user were signed out: their sockets ask nothing more. */
  async signOut(sessions: { id: string; expiresAt: number }[]): Promise<void> {
    this.ledger.signOut(sessions);
    await this.revoke(this.watchers.release(sessions.map((s) => s.id)));
  }

  /** A chat holds a socket of this signed-in session; false when the session was signed out already (the chat closes it). */
  async holdSession(chatId: string, session: { id: string; expiresAt: number }): Promise<boolean> {
    if (this.ledger.signedOut([session.id]).length > 0) return false;
    this.watchers.hold(chatId, session);
    return true;
  }

  /** A chat watches some of this user's documents (`userId`, as it named this Library), or all of them; answers them as they are now. */
  async watch(chatId: string, userId: string, request: WatchRequest): Promise<DocumentProgress> {
    return this.watchers.watch(chatId, userId, request);
  }

  /** Tells each chat holding sockets of these sessions to close them (a chat that cannot be told finds out at its next question). */
  private async revoke(held: Map<string, string[]>): Promise<void> {
    await Promise.all(
      [...held].map(([chatId, sessionIds]) =>
        chatSession(this.env, chatId)
          .revokeSessions(sessionIds)
          .catch((err: unknown) => console.warn("could not close a signed-out session's sockets", err)),
      ),
    );
  }

  /** The documents still being indexed. */
  async indexingFiles(): Promise<NamedFile[]> {
    return this.index.indexingFiles();
  }

  async search(question: string, documentIds: string[] | null, limit: number): Promise<ChunkHit[]> {
    return this.index.search(question, documentIds, limit);
  }

  async chunks(ids: string[], documentIds: string[] | null): Promise<ChunkHit[]> {
    return this.index.chunks(ids, documentIds);
  }
}
