// A chat's questions in turn: each is admitted as it arrives (./admission.ts),
// then runs once every turn before it has ended (./turn.ts), so two answers never
// interleave; Stop stops every question from its arrival to its answer's end.
import { CHAT_MESSAGES } from "../contract/protocol";
import type { Admitted } from "./admission";
import type { ChatSockets } from "./chat-sockets";
import type { SocketIdentity } from "./identity";
import { closeRevoked, send, type ChatSessions } from "./socket-access";
import { CHAT_ERASED, runTurn, type ChatRoom } from "./turn";

export class TurnQueue {
  private turns: Promise<void> = Promise.resolve();
  /** turns queued or running */
  private queued = 0;
  /** one per question from its arrival to its answer's end: Stop stops them all, even one not yet started */
  private readonly stoppable = new Set<AbortController>();

  constructor(
    private readonly room: ChatRoom,
    private readonly sockets: ChatSockets,
  ) {}

  /** Stops every question asked so far (what was written is kept). */
  stopAll(): void {
    for (const stop of this.stoppable) stop.abort();
  }

  /** The chat was deleted: every question asked so far ends, and none of it is kept (CHAT_ERASED). */
  discardAll(): void {
    for (const stop of this.stoppable) stop.abort(CHAT_ERASED);
  }

  /**
   * Admits a question (or regeneration) and runs it once every turn before it
   * has ended. A Stop that arrives while it is being admitted or waiting still stops it.
   */
  async ask(
    ws: WebSocket,
    who: SocketIdentity,
    admit: (sessions: ChatSessions) => Promise<Admitted>,
    { regenerate, liveNow }: { regenerate?: boolean; liveNow?: string } = {},
  ): Promise<void> {
    const stop = new AbortController();
    this.stoppable.add(stop);
    try {
      // admission checks the sockets' signed-in sessions in its own read
      const { sockets, sessions } = this.sockets.forAdmission(who.userId, liveNow);
      const admission = await admit(sessions).catch((err: unknown) => {
        // the question is never left waiting: an admission that fails (its Library or D1 down) says so
        console.error("chat admission failed", err);
        send(ws, { type: "error", code: 500, message: CHAT_MESSAGES.sendFailed });
        return null;
      });
      if (!admission) return;
      const { admission: admitted, liveSessions } = admission;
      const revoked = closeRevoked(sockets, [...sessions.own, ...sessions.others], liveSessions);
      if (who.authSessionId && revoked.has(who.authSessionId)) return; // signed out meanwhile: the socket is closed
      if (!admitted.ok) {
        // the asker's own session signed out: the socket is told and closed
        if (admitted.code === 401) return void closeRevoked([ws], [who.authSessionId!], new Set());
        return send(ws, { type: "error", code: admitted.code, message: admitted.message });
      }
      // The documents admission just read (and the search over them) are still current unless this turn waits behind another.
      const prepared = this.queued === 0 ? { files: admitted.files, hits: admitted.hits, indexing: admitted.indexing } : {};
      // Queue behind any turn in progress so answers never interleave.
      this.queued++;
      const turn = this.turns.then(() => runTurn(this.room, who, admitted.query, stop.signal, { regenerate, ...prepared }));
      this.turns = turn.catch(() => {}).finally(() => this.queued--);
      await turn.catch((err) => {
        console.error("chat turn failed", err);
        this.sockets.broadcast({ type: "error", code: 500, message: CHAT_MESSAGES.sendFailed });
      });
    } finally {
      this.stoppable.delete(stop);
    }
  }
}
