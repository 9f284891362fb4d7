// One Durable Object per chat session: it keeps the session's websockets (with
// the Hibernation API; `./chat-sockets.ts`), its messages and its documents (the
// set of the owner's files every question searches; `./document-chips.ts`) in
// its own SQLite, checks each message's token, and queues turns so two questions
// never interleave. What a turn does is `./turn.ts`. An answer keeps being
// written when the asker's socket drops (a reconnect gets the partial text, then
// the rest). Users' Libraries push to it (RPC): their documents' progress
// (`documentProgress`) and their signed-out sessions (`revokeSessions`).
import { DurableObject } from "cloudflare:workers";
import { MESSAGES } from "../contract/messages";
import { CHAT_MESSAGES, CLOSE_UNAUTHORIZED, PING, PONG, type ChatFile, type ClientMessage, type StoredMessage } from "../contract/protocol";
import { clientMessageSchema, refusalOf } from "../contract/protocol-schemas";
import { getDb } from "../db/client";
import { chooseChatProvider } from "../providers/llm";
import { checkAttachable } from "../services/chat-files";
import { listChats } from "../services/chats";
import { ChatFolderScope } from "./chat-folder";
import { ChatSockets } from "./chat-sockets";
import { DocumentChips } from "./document-chips";
import { FilesWatch } from "./files-watch";
import { IDENTITY_HEADER, type SocketIdentity } from "./identity";
import { refusedSocket, send, tokenMatches } from "./socket-access";
import { TICKET_HEADER, UsedTickets, type UsedTicket } from "./used-tickets";
import { MessageStore } from "./message-store";
import { admitQuestion, admitRegenerate } from "./admission";
import type { ChatRoom } from "./turn";
import { TurnQueue } from "./turn-queue";
import type { DocumentProgress, KeepWatching } from "../library/types";

export class ChatSession extends DurableObject<Env> {
  private store: MessageStore;
  /** the socket tickets already taken (a ticket opens one socket) */
  private tickets: UsedTickets;
  private readonly sockets: ChatSockets;
  /** the chat's documents, as every socket shows them */
  private readonly chips: DocumentChips;
  /** the folder the chat's documents follow, if any */
  private readonly folder: ChatFolderScope;
  /** all of a user's documents: My Files on a socket, a question over all files */
  private readonly allFiles: FilesWatch;
  /** what a turn may use of this chat */
  private readonly room: ChatRoom;
  /** its questions, one answer at a time */
  private readonly turns: TurnQueue;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new MessageStore(ctx.storage.sql);
    this.tickets = new UsedTickets(ctx.storage.sql);
    this.sockets = new ChatSockets(ctx, env);
    this.chips = new DocumentChips(ctx.storage, env, this.sockets);
    this.folder = new ChatFolderScope(ctx.storage, env, this.chips, () => this.sockets.sessionId);
    this.allFiles = new FilesWatch(env, this.sockets);
    const chat = this;
    this.room = {
      env,
      get messages() {
        return chat.store;
      },
      documentIds: () => this.chips.ids(),
      files: (read) => this.chips.current(read),
      takeNewFiles: (files) => this.chips.takeNew(files),
      storeFiles: (ownerId, files) => {
        this.folder.clear();
        this.chips.store(ownerId, files);
      },
      untilIndexed: (timeoutMs) => this.chips.untilIndexed(timeoutMs),
      untilLibraryIndexed: (userId, timeoutMs, stop) => this.allFiles.untilIndexed(userId, timeoutMs, stop),
      broadcast: (message, onlyUserId) => this.sockets.broadcast(message, onlyUserId),
    };
    this.turns = new TurnQueue(this.room, this.sockets);
    // Answered by the runtime without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG));
  }

  override async fetch(request: Request): Promise<Response> {
    const identity = JSON.parse(request.headers.get(IDENTITY_HEADER) ?? "null") as SocketIdentity | null;
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket" || !identity) {
      return Response.json({ status: "error", message: "Expected a websocket upgrade." }, { status: 426 });
    }
    // a signed-in socket's ticket (checked by the Worker) opens one socket, once
    if (identity.userId) {
      const ticket = JSON.parse(request.headers.get(TICKET_HEADER) ?? "null") as UsedTicket | null;
      if (!ticket || !this.tickets.take(ticket))
        return refusedSocket(CLOSE_UNAUTHORIZED, { type: "error", code: 401, message: MESSAGES.unauthorized });
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.sockets.accept(server, identity);
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
    const who = ws.deserializeAttachment() as SocketIdentity;
    this.sockets.sessionId = who.sessionId;
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
      case "set_folder":
        return this.setFiles(ws, who, message);
      case "watch_files":
        if (!who.userId) return send(ws, { type: "error", code: 403, message: CHAT_MESSAGES.anonymousFiles });
        return this.allFiles.watchFiles(ws, who, message);
      case "chat":
        // a folder's documents as they are now (a move pushes too; this is the latest it is read)
        return this.turns.ask(ws, who, async (sessions) => (await this.folder.sync(), admitQuestion(this.room, who, message, sessions)), {
          liveNow,
        });
      case "regenerate":
        return this.turns.ask(ws, who, (sessions) => admitRegenerate(this.room, who, message, sessions), { regenerate: true, liveNow });
      case "stop":
        // only the owner writes in the chat, so only the owner stops
        if (message.session_id !== who.sessionId || who.access === "member") {
          return send(ws, { type: "error", code: 403, message: CHAT_MESSAGES.readOnly });
        }
        return this.turns.stopAll();
    }
  }

  /** RPC: the stored messages (memo). */
  async transcript(): Promise<StoredMessage[]> {
    return this.store.all();
  }

  /** RPC: the chat's documents (memo). */
  async documents(): Promise<ChatFile[]> {
    return this.chips.current();
  }

  /** RPC: a user's Library tells of the documents this chat watches; answers what it still watches. */
  async documentProgress(told: DocumentProgress): Promise<KeepWatching> {
    return { ids: this.chips.progress(told), all: this.allFiles.progress(told) };
  }

  /** RPC: a document moved in or out of the folder this chat follows: the chips show the folder as it is now. */
  async followFolder(): Promise<void> {
    await this.folder.sync();
  }

  /** RPC: these signed-in sessions were signed out (or their account deleted): their sockets close (4001). */
  async revokeSessions(sessionIds: string[]): Promise<void> {
    this.sockets.revoke(sessionIds);
  }

  /** RPC: a member whose access was removed loses their open sockets at once. */
  async dropMember(email: string): Promise<void> {
    const removed = (who: SocketIdentity) => who.access === "member" && who.email === email;
    this.sockets.shut({ code: 403, message: CHAT_MESSAGES.accessRemoved }, "access removed", removed);
  }

  /**
   * RPC: the chat is deleted: every open socket is told and closed, and the object's storage goes.
   * With its owner's account (`deletedAccount`), the owner's own sockets are signed out instead (4001: to login).
   */
  async erase(deletedAccount?: string): Promise<void> {
    this.turns.discardAll();
    if (deletedAccount) this.sockets.revokeUser(deletedAccount);
    this.sockets.shut({ code: 404, message: CHAT_MESSAGES.chatDeleted }, "chat deleted", (who) => who.userId !== deletedAccount);
    const taken = this.tickets.unexpired(); // a ticket used before stays used
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    // empty again, should its owner (whose session name it is) start over in it
    this.store = new MessageStore(this.ctx.storage.sql);
    this.tickets = new UsedTickets(this.ctx.storage.sql);
    this.tickets.restore(taken);
    this.chips.forget();
    this.folder.forget();
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

  private async sendFullChat(ws: WebSocket, who: SocketIdentity, sessionId: string): Promise<void> {
    if (sessionId !== who.sessionId) return send(ws, { type: "error", code: 403, message: CHAT_MESSAGES.notYourSession });
    // Documents first: the messages must be read right before sending, or a
    // stream chunk sent while waiting would reach this socket twice.
    await this.folder.sync();
    const files = await this.chips.current();
    this.chips.watchWhileShown();
    send(ws, {
      type: "full_chat",
      session_id: who.sessionId,
      messages: this.store.all(),
      mode: chooseChatProvider(this.env).mode,
      readOnly: who.access === "member",
      files,
      folder: this.chips.folder,
    });
  }

  /** `set_files` (or `set_folder`): the owner replaces the chat's documents; everyone on the chat sees the new chips. */
  private async setFiles(ws: WebSocket, who: SocketIdentity, message: Extract<ClientMessage, { action: "set_files" | "set_folder" }>) {
    const refuse = (code: number, text: string) => send(ws, { type: "error", code, message: text, action: message.action });
    if (message.session_id !== who.sessionId) return refuse(403, CHAT_MESSAGES.notYourSession);
    if (!who.userId) return refuse(403, CHAT_MESSAGES.anonymousFiles);
    if (who.access === "member") return refuse(403, CHAT_MESSAGES.readOnly);
    if (message.action === "set_folder") {
      const scoped = await this.folder.set(who.userId, message.folder_id);
      return scoped.ok ? undefined : refuse(scoped.code, scoped.message);
    }
    const checked = await checkAttachable({ db: getDb(this.env) }, { ownerId: who.userId, ids: message.file_ids });
    if (!checked.ok) return refuse(checked.code, checked.message);
    this.folder.clear();
    this.chips.store(who.userId, checked.files);
    this.chips.watchWhileShown();
  }
}
