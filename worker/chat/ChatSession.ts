// One Durable Object per chat session: holds the session's websockets with the
// Hibernation API, its messages and its documents (the set of the owner's files
// every question searches) in its own SQLite. A turn: persist the question ->
// wait for the chat's documents to finish indexing -> retrieve from them (or from
// all of the owner's files when none is attached) -> stream the answer to every
// socket -> persist it with its sources -> update the chats row -> `end` +
// `chat_list_update`. Turns are
// queued so two questions never interleave, and an answer keeps being written
// when the asker's socket drops (a reconnect gets the partial text, then the rest).
import { DurableObject } from "cloudflare:workers";
import {
  CHAT_MESSAGES,
  CLOSE_POLICY,
  CLOSE_UNAUTHORIZED,
  INDEXING_STATUSES,
  PING,
  PONG,
  clientMessageSchema,
  type AnswerMode,
  type ChatFile,
  type ClientMessage,
  type FileInfo,
  type ServerMessage,
  type Source,
  type StoredMessage,
} from "../contract/protocol";
import { MESSAGES } from "../contract/messages";
import { getDb } from "../db/client";
import { chooseChatProvider } from "../providers/llm";
import { chatTitle } from "../providers/llm/prompt";
import { authenticate } from "../services/accounts";
import { checkAttachable } from "../services/chat-files";
import { listChats, recordTurn } from "../services/chats";
import { findByUploadKey } from "../services/documents";
import { STALE_INDEXING_MS } from "../library/library-index";
import { consumeDailyMessage, quotaFor } from "../services/quotas";
import { retrievePassages } from "../services/retrieval";
import { ChatDocuments } from "./chat-documents";
import { citedSources } from "./citations";

/** Who a socket belongs to; set by the Worker after it checked the token, kept across hibernation. */
export interface SocketIdentity {
  sessionId: string;
  access: "owner" | "member" | "anonymous";
  userId: string | null;
  email: string | null;
  ip: string;
}

export const IDENTITY_HEADER = "X-Chat-Identity";

const PARTIAL_SAVE_MS = 500;
/** A question about a file that is still being indexed waits this long for it. */
const ATTACHMENT_WAIT_MS = 60_000;
/** How often indexing progress is read (and sent as a `files` frame when it changed). */
const PROGRESS_POLL_MS = 500;
const HISTORY_MESSAGES = 12;

interface MessageRow {
  id: string;
  role: "user" | "assistant";
  content: string;
  file_info: string | null;
  sources: string | null;
  status: "complete" | "streaming";
  created_at: number;
  [key: string]: SqlStorageValue;
}

const isIndexing = (file: ChatFile) => INDEXING_STATUSES.includes(file.status);

export class ChatSession extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** the chat's documents (the set every question searches) */
  private readonly documentSet: ChatDocuments;
  private turns: Promise<void> = Promise.resolve();
  /** the answer being written right now (kept in memory; storage is refreshed every PARTIAL_SAVE_MS) */
  private live: { id: string; content: string } | null = null;
  /** the last `files` frame sent, so unchanged progress is not sent again */
  private lastFilesFrame = "";

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS messages (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      role TEXT NOT NULL,
      content TEXT NOT NULL,
      file_info TEXT,
      sources TEXT,
      status TEXT NOT NULL DEFAULT 'complete',
      created_at INTEGER NOT NULL
    )`);
    this.documentSet = new ChatDocuments(ctx.storage);
    // An answer still marked streaming after a restart was cut off: close it honestly.
    this.sql.exec(
      "UPDATE messages SET status = 'complete', content = CASE WHEN content = '' THEN ? ELSE content END WHERE status = 'streaming'",
      CHAT_MESSAGES.sendFailed,
    );
    // Answered by the runtime without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG));
  }

  override async fetch(request: Request): Promise<Response> {
    const identity = JSON.parse(request.headers.get(IDENTITY_HEADER) ?? "null") as SocketIdentity | null;
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket" || !identity) {
      return Response.json({ status: "error", message: "Expected a websocket upgrade." }, { status: 426 });
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [identity.userId ?? "anonymous"]);
    server.serializeAttachment(identity);
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
    const who = ws.deserializeAttachment() as SocketIdentity;
    let data: unknown;
    try {
      data = JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw));
    } catch {
      return send(ws, { type: "error", code: 400, message: CHAT_MESSAGES.badMessage });
    }
    if ((data as { type?: unknown })?.type === "ping") return void ws.send(PONG);
    const parsed = clientMessageSchema.safeParse(data);
    if (!parsed.success) return send(ws, { type: "error", code: 400, message: CHAT_MESSAGES.badMessage });
    const message = parsed.data;

    if (!(await this.tokenMatches(ws, who, message.token))) return;

    switch (message.action) {
      case "get_chats":
        return send(ws, {
          type: "chat_list",
          chats: who.userId ? await listChats(this.env.DB, { id: who.userId, email: who.email! }) : [],
        });
      case "get_full_chat":
        return this.sendFullChat(ws, who, message.session_id);
      case "set_files":
        return this.setFiles(ws, who, message);
      case "chat":
        return this.ask(ws, who, message);
    }
  }

  /** RPC: the stored messages (memo). */
  async transcript(): Promise<StoredMessage[]> {
    return this.messages();
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
        ws.close(1000, "access removed");
      }
    }
  }

  /** RPC: the chat is deleted: every open socket is told and closed, and the object's storage goes. */
  async erase(): Promise<void> {
    for (const ws of this.ctx.getWebSockets()) {
      send(ws, { type: "error", code: 404, message: CHAT_MESSAGES.chatDeleted });
      ws.close(1000, "chat deleted");
    }
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
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

  /** The token inside each message must still be valid and belong to the socket's user. */
  private async tokenMatches(ws: WebSocket, who: SocketIdentity, token: string | undefined): Promise<boolean> {
    if (!who.userId) {
      if (!token) return true;
      send(ws, { type: "error", code: 403, message: CHAT_MESSAGES.tokenMismatch });
      ws.close(CLOSE_POLICY, "token mismatch");
      return false;
    }
    const caller = token ? await authenticate(getDb(this.env), this.env.JWT_SECRET, token) : null;
    if (!caller) {
      send(ws, { type: "error", code: 401, message: MESSAGES.unauthorized });
      ws.close(CLOSE_UNAUTHORIZED, "unauthorized");
      return false;
    }
    if (caller.id !== who.userId) {
      send(ws, { type: "error", code: 403, message: CHAT_MESSAGES.tokenMismatch });
      ws.close(CLOSE_POLICY, "token mismatch");
      return false;
    }
    return true;
  }

  private async ask(ws: WebSocket, who: SocketIdentity, message: Extract<ClientMessage, { action: "chat" }>): Promise<void> {
    if (message.session_id !== who.sessionId) return send(ws, { type: "error", code: 403, message: CHAT_MESSAGES.notYourSession });
    if (who.access === "member") return send(ws, { type: "error", code: 403, message: CHAT_MESSAGES.readOnly });
    const query = message.query.trim();
    if (!query) return send(ws, { type: "error", code: 400, message: CHAT_MESSAGES.emptyQuery });

    // A question may change the chat's documents first (file_ids replaces the set,
    // s3_key adds one); a refused change refuses the question and changes nothing.
    let nextFiles: ChatFile[] | null = null;
    if (message.file_ids || message.s3_key) {
      if (!who.userId) return send(ws, { type: "error", code: 403, message: CHAT_MESSAGES.anonymousFiles });
      const ids = message.file_ids ? [...message.file_ids] : this.documentSet.ids();
      if (message.s3_key) {
        const id = (await findByUploadKey(getDb(this.env), who.userId, message.s3_key))?.id;
        if (!id) return send(ws, { type: "error", code: 404, message: CHAT_MESSAGES.fileNotFound });
        if (!ids.includes(id)) ids.push(id);
      }
      const checked = await checkAttachable(getDb(this.env), who.userId, ids);
      if (!checked.ok) return send(ws, { type: "error", code: checked.code, message: checked.message });
      nextFiles = checked.files;
    }

    const refusal = await this.admit(who);
    if (refusal) return send(ws, { type: "error", code: 429, message: refusal });
    if (nextFiles) this.storeFiles(who.sessionId, who.userId!, nextFiles);

    // Queue behind any turn in progress so answers never interleave.
    const turn = this.turns.then(() => this.runTurn(who, query));
    this.turns = turn.catch(() => {});
    await turn.catch((err) => {
      console.error("chat turn failed", err);
      this.broadcast({ type: "error", code: 500, message: CHAT_MESSAGES.sendFailed });
    });
  }

  private async sendFullChat(ws: WebSocket, who: SocketIdentity, sessionId: string): Promise<void> {
    if (sessionId !== who.sessionId) return send(ws, { type: "error", code: 403, message: CHAT_MESSAGES.notYourSession });
    // Documents first: the messages must be read right before sending, or a
    // stream chunk sent while waiting would reach this socket twice.
    const files = await this.files();
    send(ws, {
      type: "full_chat",
      session_id: who.sessionId,
      messages: this.messages(),
      mode: this.mode(),
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
    const checked = await checkAttachable(getDb(this.env), who.userId, message.file_ids);
    if (!checked.ok) return refuse(checked.code, checked.message);
    this.storeFiles(who.sessionId, who.userId, checked.files);
    // Chips of files still indexing show their progress until they are done (or nobody is watching).
    await this.untilIndexed(who.sessionId, STALE_INDEXING_MS);
  }

  /** Anonymous visitors are rate limited per IP; signed-in users count against their plan's daily messages. */
  private async admit(who: SocketIdentity): Promise<string | null> {
    if (!who.userId) {
      const { success } = await this.env.CHAT_RATE_LIMITER.limit({ key: `anon-chat:${who.ip}` });
      return success ? null : CHAT_MESSAGES.tooManyMessages;
    }
    const db = getDb(this.env);
    return consumeDailyMessage(this.env.DB, await quotaFor(db, who.userId), who.userId);
  }

  private async runTurn(who: SocketIdentity, query: string): Promise<void> {
    const history = this.history();
    let files = await this.files();
    const fileInfo = this.documentSet.takeNew(files);
    this.insert({ id: crypto.randomUUID(), role: "user", content: query, fileInfo: fileInfo.length ? fileInfo : null, status: "complete" });

    if (files.some(isIndexing)) files = await this.untilIndexed(who.sessionId, ATTACHMENT_WAIT_MS, { evenUnwatched: true });
    // Only the owner asks, so the chat's documents are the asker's own.
    const scope = { userId: who.userId!, documentIds: files.map((f) => f.fileId) };
    const passages = who.userId ? await retrievePassages(this.env, scope, query) : [];
    const provider = chooseChatProvider(this.env);
    const answerId = crypto.randomUUID();
    this.insert({ id: answerId, role: "assistant", content: "", status: "streaming" });
    this.live = { id: answerId, content: "" };

    let failed = false;
    let lastSave = Date.now();
    try {
      const documentNames = files.map((f) => f.fileName);
      for await (const text of provider.streamAnswer({ question: query, passages, history, anonymous: !who.userId, documentNames })) {
        this.live.content += text;
        this.broadcast({ type: "stream", session_id: who.sessionId, message_id: answerId, text });
        if (Date.now() - lastSave > PARTIAL_SAVE_MS) {
          this.sql.exec("UPDATE messages SET content = ? WHERE id = ?", this.live.content, answerId);
          lastSave = Date.now();
        }
      }
    } catch (err) {
      console.error("answer provider failed", err);
      failed = true;
    }

    const content = this.live.content || CHAT_MESSAGES.sendFailed;
    const sources = citedSources(content, passages);
    this.sql.exec(
      "UPDATE messages SET content = ?, sources = ?, status = 'complete' WHERE id = ?",
      content,
      JSON.stringify(sources),
      answerId,
    );
    this.live = null;
    if (failed) this.broadcast({ type: "error", code: 500, message: CHAT_MESSAGES.sendFailed });

    if (who.userId) {
      const firstTurn = history.length === 0;
      const title = firstTurn ? await chatTitle(provider, query) : undefined;
      await recordTurn(this.env.DB, { sessionId: who.sessionId, userId: who.userId, title });
    }
    this.broadcast({
      type: "end",
      session_id: who.sessionId,
      message: this.message(answerId)!,
      mode: provider.mode,
      files: await this.files(),
    });
    if (who.userId) {
      const chats = await listChats(this.env.DB, { id: who.userId, email: who.email! });
      this.broadcast({ type: "chat_list_update", chats }, who.userId);
    }
  }

  /**
   * Waits while any of the chat's documents is still being indexed (a file
   * attached right after its upload), sending each change of progress as a
   * `files` frame; gives up after `timeoutMs`, or (unless a question waits)
   * when nobody is connected any more. Returns the documents as they are then.
   */
  private async untilIndexed(sessionId: string, timeoutMs: number, { evenUnwatched = false } = {}): Promise<ChatFile[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const files = await this.files();
      this.sendFiles(sessionId, files);
      const unwatched = !evenUnwatched && this.ctx.getWebSockets().length === 0;
      if (!files.some(isIndexing) || Date.now() > deadline || unwatched) return files;
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS));
    }
  }

  /** The chat's documents as they are now (a document deleted from My Files has left the set). */
  private files(): Promise<ChatFile[]> {
    return this.documentSet.current(getDb(this.env));
  }

  /** Replaces the chat's documents and tells every socket. */
  private storeFiles(sessionId: string, ownerId: string, files: ChatFile[]): void {
    this.documentSet.replace(ownerId, files);
    this.sendFiles(sessionId, files, true);
  }

  private sendFiles(sessionId: string, files: ChatFile[], always = false): void {
    const frame = JSON.stringify(files);
    if (frame === this.lastFilesFrame && !always) return;
    this.lastFilesFrame = frame;
    this.broadcast({ type: "files", session_id: sessionId, files });
  }

  private insert(m: {
    id: string;
    role: "user" | "assistant";
    content: string;
    fileInfo?: FileInfo[] | null;
    status: "complete" | "streaming";
  }) {
    this.sql.exec(
      "INSERT INTO messages (id, role, content, file_info, status, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      m.id,
      m.role,
      m.content,
      m.fileInfo ? JSON.stringify(m.fileInfo) : null,
      m.status,
      Date.now(),
    );
  }

  private toStored(row: MessageRow): StoredMessage {
    const live = this.live?.id === row.id ? this.live : null;
    return {
      id: row.id,
      role: row.role,
      content: live ? live.content : row.content,
      ...(row.file_info ? { fileInfo: JSON.parse(row.file_info) as FileInfo[] } : {}),
      ...(row.sources ? { sources: JSON.parse(row.sources) as Source[] } : {}),
      status: live ? "streaming" : row.status,
      created_at: row.created_at,
    };
  }

  private messages(): StoredMessage[] {
    return this.sql
      .exec<MessageRow>("SELECT id, role, content, file_info, sources, status, created_at FROM messages ORDER BY seq")
      .toArray()
      .map((r) => this.toStored(r));
  }

  private message(id: string): StoredMessage | undefined {
    const row = this.sql
      .exec<MessageRow>("SELECT id, role, content, file_info, sources, status, created_at FROM messages WHERE id = ?", id)
      .toArray()[0];
    return row && this.toStored(row);
  }

  private history(): { role: "user" | "assistant"; content: string }[] {
    return this.sql
      .exec<{ role: "user" | "assistant"; content: string }>(
        "SELECT role, content FROM (SELECT seq, role, content FROM messages WHERE status = 'complete' ORDER BY seq DESC LIMIT ?) ORDER BY seq",
        HISTORY_MESSAGES,
      )
      .toArray();
  }

  private mode(): AnswerMode {
    return chooseChatProvider(this.env).mode;
  }

  /** Sends to every socket of this session (or only to one user's sockets). */
  private broadcast(message: ServerMessage, onlyUserId?: string): void {
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

function send(ws: WebSocket, message: ServerMessage): void {
  try {
    ws.send(JSON.stringify(message));
  } catch {
    // the socket closed meanwhile
  }
}
