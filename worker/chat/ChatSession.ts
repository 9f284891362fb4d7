// One Durable Object per chat session: it keeps the session's websockets (with
// the Hibernation API), its messages and its documents (the set of the owner's
// files every question searches) in its own SQLite, checks each message's token,
// and queues turns so two questions never interleave. What a turn does is
// `./turn.ts`. An answer keeps being written when the asker's socket drops (a
// reconnect gets the partial text, then the rest).
import { DurableObject } from "cloudflare:workers";
import {
  CHAT_MESSAGES,
  CLOSE_NO_ACCESS,
  INDEXING_STATUSES,
  PING,
  PONG,
  type ChatFile,
  type ClientMessage,
  type ServerMessage,
  type StoredMessage,
} from "../contract/protocol";
import { clientMessageSchema, refusalOf } from "../contract/protocol-schemas";
import { getDb } from "../db/client";
import { chooseChatProvider } from "../providers/llm";
import { checkAttachable } from "../services/chat-files";
import { listChats } from "../services/chats";
import { ChatDocuments, type ReadChatFiles } from "./chat-documents";
import { IDENTITY_HEADER, type SocketIdentity } from "./identity";
import { chatSessions, closeRevoked, closeRevokedSockets, send, tokenMatches, type ChatSessions } from "./socket-access";
import { MessageStore } from "./message-store";
import { admitQuestion, admitRegenerate, type Admitted } from "./admission";
import { runTurn, type ChatRoom } from "./turn";

/** How often indexing progress is read (and sent as a `files` frame when it changed). */
const PROGRESS_POLL_MS = 500;
/** How long chips of files still indexing keep showing progress to a watching socket. */
const WATCH_INDEXING_MS = 15 * 60 * 1000;
/** While frames flow, how often the sockets' signed-in sessions are checked (sign-out, password change). */
const REVOCATION_CHECK_MS = 1000;

const isIndexing = (file: ChatFile) => INDEXING_STATUSES.includes(file.status);

export class ChatSession extends DurableObject<Env> {
  private store: MessageStore;
  /** the chat's documents (the set every question searches) */
  private documentSet: ChatDocuments;
  /** what a turn may use of this chat */
  private readonly room: ChatRoom;
  private turns: Promise<void> = Promise.resolve();
  /** turns queued or running */
  private queuedTurns = 0;
  /** one per question from its arrival to its answer's end: Stop stops them all, even one not yet started */
  private readonly stoppable = new Set<AbortController>();
  /** the last `files` frame sent, so unchanged progress is not sent again */
  private lastFilesFrame = "";
  /** the session this object serves (known from its first socket) */
  private sessionId = "";
  /** when the sockets' signed-in sessions were last checked */
  private revocationCheckedAt = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new MessageStore(ctx.storage.sql);
    this.documentSet = new ChatDocuments(ctx.storage);
    const chat = this;
    this.room = {
      env,
      get messages() {
        return chat.store;
      },
      documentIds: () => this.documentSet.ids(),
      files: (read) => this.files(read),
      takeNewFiles: (files) => this.documentSet.takeNew(files),
      storeFiles: (ownerId, files) => this.storeFiles(ownerId, files),
      untilIndexed: (timeoutMs, options) => this.untilIndexed(timeoutMs, options),
      broadcast: (message, onlyUserId) => this.broadcast(message, onlyUserId),
    };
    // Answered by the runtime without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG));
  }

  override async fetch(request: Request): Promise<Response> {
    const identity = JSON.parse(request.headers.get(IDENTITY_HEADER) ?? "null") as SocketIdentity | null;
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket" || !identity) {
      return Response.json({ status: "error", message: "Expected a websocket upgrade." }, { status: 426 });
    }
    this.sessionId = identity.sessionId;
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [identity.userId ?? "anonymous"]);
    server.serializeAttachment(identity);
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
    const who = ws.deserializeAttachment() as SocketIdentity;
    this.sessionId = who.sessionId;
    let data: unknown;
    try {
      data = JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw));
    } catch {
      return send(ws, { type: "error", code: 400, message: CHAT_MESSAGES.badMessage });
    }
    if ((data as { type?: unknown })?.type === "ping") return void ws.send(PONG);
    const parsed = clientMessageSchema.safeParse(data);
    if (!parsed.success) return send(ws, { type: "error", code: 400, message: refusalOf(parsed.error) });
    const message = parsed.data;

    // a question's admission checks the socket's session in its one database read; a Stop
    // (sent right after a question, before that question's check has finished) reads none, so
    // it never lands after the answer it was meant to stop has started
    const asks = message.action === "chat" || message.action === "regenerate";
    const tokenCheck = await tokenMatches(this.env, ws, who, message.token, { signatureEnough: asks || message.action === "stop" });
    if (!tokenCheck) return;
    // a token read from the database just now: its session needs no second read before this turn
    const liveNow = tokenCheck === "read" ? (who.authSessionId ?? undefined) : undefined;

    switch (message.action) {
      case "get_chats":
        return send(ws, {
          type: "chat_list",
          chats: who.userId ? await listChats({ db: getDb(this.env) }, { user: { id: who.userId, email: who.email! } }) : [],
        });
      case "get_full_chat":
        return this.sendFullChat(ws, who, message.session_id);
      case "set_files":
        return this.setFiles(ws, who, message);
      case "chat":
        return this.ask(ws, who, (sessions) => admitQuestion(this.room, who, message, sessions), { liveNow });
      case "regenerate":
        return this.ask(ws, who, (sessions) => admitRegenerate(this.room, who, message, sessions), { regenerate: true, liveNow });
      case "stop":
        // only the owner writes in the chat, so only the owner stops
        if (message.session_id !== who.sessionId || who.access === "member") {
          return send(ws, { type: "error", code: 403, message: CHAT_MESSAGES.readOnly });
        }
        for (const stop of this.stoppable) stop.abort();
        return;
    }
  }

  /** RPC: the stored messages (memo). */
  async transcript(): Promise<StoredMessage[]> {
    return this.store.all();
  }

  /** RPC: the chat's documents (memo). */
  async documents(): Promise<ChatFile[]> {
    return this.files();
  }

  /** RPC: a member whose access was removed loses their open sockets at once. */
  async dropMember(email: string): Promise<void> {
    for (const ws of this.ctx.getWebSockets()) {
      const who = ws.deserializeAttachment() as SocketIdentity;
      if (who.access === "member" && who.email === email) {
        send(ws, { type: "error", code: 403, message: CHAT_MESSAGES.accessRemoved });
        ws.close(CLOSE_NO_ACCESS, "access removed");
      }
    }
  }

  /** RPC: the chat is deleted: every open socket is told and closed, and the object's storage goes. */
  async erase(): Promise<void> {
    for (const ws of this.ctx.getWebSockets()) {
      send(ws, { type: "error", code: 404, message: CHAT_MESSAGES.chatDeleted });
      ws.close(CLOSE_NO_ACCESS, "chat deleted");
    }
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    // empty again, should its owner (whose session name it is) start over in it
    this.store = new MessageStore(this.ctx.storage.sql);
    this.documentSet = new ChatDocuments(this.ctx.storage);
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason); // 1005/1006 may not be sent back
    } catch {
      // already closed
    }
  }

  override async webSocketError(_ws: WebSocket, error: unknown): Promise<void> {
    console.warn("chat socket error", error);
  }

  /**
   * Admits a question (or regeneration) and runs it once every turn before it
   * has ended. A Stop that arrives while it is being admitted or waiting still stops it.
   */
  private async ask(
    ws: WebSocket,
    who: SocketIdentity,
    admit: (sessions: ChatSessions) => Promise<Admitted>,
    { regenerate, liveNow }: { regenerate?: boolean; liveNow?: string } = {},
  ): Promise<void> {
    const stop = new AbortController();
    this.stoppable.add(stop);
    try {
      // admission checks the sockets' signed-in sessions in its own read
      const sockets = this.ctx.getWebSockets();
      const sessions = chatSessions(sockets, who.userId, liveNow);
      this.revocationCheckedAt = Date.now();
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
      const prepared = this.queuedTurns === 0 ? { files: admitted.files, hits: admitted.hits, indexing: admitted.indexing } : {};
      // Queue behind any turn in progress so answers never interleave.
      this.queuedTurns++;
      const turn = this.turns.then(() => runTurn(this.room, who, admitted.query, stop.signal, { regenerate, ...prepared }));
      this.turns = turn.catch(() => {}).finally(() => this.queuedTurns--);
      await turn.catch((err) => {
        console.error("chat turn failed", err);
        this.broadcast({ type: "error", code: 500, message: CHAT_MESSAGES.sendFailed });
      });
    } finally {
      this.stoppable.delete(stop);
    }
  }

  private async sendFullChat(ws: WebSocket, who: SocketIdentity, sessionId: string): Promise<void> {
    if (sessionId !== who.sessionId) return send(ws, { type: "error", code: 403, message: CHAT_MESSAGES.notYourSession });
    // Documents first: the messages must be read right before sending, or a
    // stream chunk sent while waiting would reach this socket twice.
    const files = await this.files();
    send(ws, {
      type: "full_chat",
      session_id: who.sessionId,
      messages: this.store.all(),
      mode: chooseChatProvider(this.env).mode,
      readOnly: who.access === "member",
      files,
    });
  }

  /** `set_files`: the owner replaces the chat's documents; everyone on the chat sees the new chips. */
  private async setFiles(ws: WebSocket, who: SocketIdentity, message: Extract<ClientMessage, { action: "set_files" }>): Promise<void> {
    const refuse = (code: number, text: string) => send(ws, { type: "error", code, message: text, action: "set_files" });
    if (message.session_id !== who.sessionId) return refuse(403, CHAT_MESSAGES.notYourSession);
    if (!who.userId) return refuse(403, CHAT_MESSAGES.anonymousFiles);
    if (who.access === "member") return refuse(403, CHAT_MESSAGES.readOnly);
    const checked = await checkAttachable({ db: getDb(this.env) }, { ownerId: who.userId, ids: message.file_ids });
    if (!checked.ok) return refuse(checked.code, checked.message);
    this.storeFiles(who.userId, checked.files);
    // Chips of files still indexing show their progress until they are done (or nobody is watching).
    await this.untilIndexed(WATCH_INDEXING_MS, { evenUnwatched: false });
  }

  /**
   * Waits while any of the chat's documents is still being indexed (a file
   * attached right after its upload), sending each change of progress as a
   * `files` frame; gives up after `timeoutMs`, or (unless a question waits)
   * when nobody is connected any more. Returns the documents as they are then.
   */
  private async untilIndexed(timeoutMs: number, { evenUnwatched }: { evenUnwatched: boolean }): Promise<ChatFile[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const files = await this.files();
      this.sendFiles(files);
      const unwatched = !evenUnwatched && this.ctx.getWebSockets().length === 0;
      if (!files.some(isIndexing) || Date.now() > deadline || unwatched) return files;
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS));
    }
  }

  /** The chat's documents as they are now (a document deleted from My Files has left the set). */
  private files(read?: ReadChatFiles): Promise<ChatFile[]> {
    return this.documentSet.current(getDb(this.env), read);
  }

  /** Replaces the chat's documents and tells every socket. */
  private storeFiles(ownerId: string, files: ChatFile[]): void {
    this.documentSet.replace(ownerId, files);
    this.sendFiles(files, true);
  }

  private sendFiles(files: ChatFile[], always = false): void {
    const frame = JSON.stringify(files);
    if (frame === this.lastFilesFrame && !always) return;
    this.lastFilesFrame = frame;
    this.broadcast({ type: "files", session_id: this.sessionId, files });
  }

  /** Closes (4001) the sockets whose signed-in session was revoked since they connected (`liveNow`: read as live just now). */
  private closeRevokedSockets(liveNow?: string): Promise<Set<string>> {
    this.revocationCheckedAt = Date.now();
    return closeRevokedSockets(this.env, this.ctx.getWebSockets(), liveNow);
  }

  /** Sends to every socket of this session (or only to one user's sockets). */
  private broadcast(message: ServerMessage, onlyUserId?: string): void {
    if (Date.now() - this.revocationCheckedAt > REVOCATION_CHECK_MS) {
      this.ctx.waitUntil(this.closeRevokedSockets().catch((err) => console.warn("revocation check failed", err)));
    }
    const json = JSON.stringify(message);
    for (const ws of onlyUserId ? this.ctx.getWebSockets(onlyUserId) : this.ctx.getWebSockets()) {
      try {
        ws.send(json);
      } catch {
        // a socket closing right now; it will get full_chat when it comes back
      }
    }
  }
}
