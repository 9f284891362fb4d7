// A chat's messages as its Durable Object stores them (its own SQLite), with the
// answer being written right now kept in memory and saved every PARTIAL_SAVE_MS,
// so a reader (full_chat, memo) always gets the text written so far.
import type { SentenceCheck, Verified } from "../contract/checks";
import type { FileInfo, Source, StoredMessage } from "../contract/protocol";

const PARTIAL_SAVE_MS = 500;
/** How many earlier messages a turn gives the model as context. */
const HISTORY_MESSAGES = 12;

interface MessageRow {
  id: string;
  role: "user" | "assistant";
  content: string;
  file_info: string | null;
  sources: string | null;
  status: "complete" | "streaming" | "interrupted" | "stopped";
  suggestions: string | null;
  /** the answer's check against its cited pages: { checks, verified } */
  checks: string | null;
  created_at: number;
  [key: string]: SqlStorageValue;
}

const COLUMNS = "id, role, content, file_info, sources, status, suggestions, checks, created_at";

/** A finished answer's sentences checked against the pages they cite (answer/verify.ts). */
export interface AnswerChecks {
  checks: SentenceCheck[];
  verified: Verified;
}

export interface HistoryMessage {
  role: "user" | "assistant";
  content: string;
}

export class MessageStore {
  /** the answer being written right now */
  private live: { id: string; content: string; savedAt: number } | null = null;

  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS messages (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      role TEXT NOT NULL,
      content TEXT NOT NULL,
      file_info TEXT,
      sources TEXT,
      status TEXT NOT NULL DEFAULT 'complete',
      created_at INTEGER NOT NULL
    )`);
    // chats stored before follow-up suggestions or answer checks existed get the columns
    for (const column of ["suggestions", "checks"]) {
      const has = sql.exec("SELECT 1 FROM pragma_table_info('messages') WHERE name = ?", column).toArray().length > 0;
      if (!has) sql.exec(`ALTER TABLE messages ADD COLUMN ${column} TEXT`);
    }
    // An answer still marked streaming after a restart was cut off: it stays as
    // written, marked interrupted (the client says so and offers a retry).
    sql.exec("UPDATE messages SET status = 'interrupted' WHERE status = 'streaming'");
    // A question still without its answer was cut off before the answer began (it waited for a document
    // being indexed): it gets an empty answer marked interrupted, so Retry is offered there too.
    const last = sql.exec<{ role: string }>("SELECT role FROM messages ORDER BY seq DESC LIMIT 1").toArray()[0];
    if (last?.role === "user") this.insert(crypto.randomUUID(), "assistant", "", null, "interrupted");
  }

  /** Stores a question; returns it as stored (not read back: the turn sends it at once). */
  addQuestion(content: string, fileInfo: FileInfo[]): StoredMessage {
    const id = crypto.randomUUID();
    const createdAt = this.insert(id, "user", content, fileInfo.length ? fileInfo : null, "complete");
    return { id, role: "user", content, ...(fileInfo.length ? { fileInfo } : {}), status: "complete", created_at: createdAt };
  }

  /** Starts an empty streaming answer; returns its id. */
  startAnswer(): string {
    const id = crypto.randomUUID();
    this.insert(id, "assistant", "", null, "streaming");
    this.live = { id, content: "", savedAt: Date.now() };
    return id;
  }

  /** Appends streamed text to the live answer, saving it now and then. */
  appendToAnswer(text: string): void {
    if (!this.live) return;
    this.live.content += text;
    if (Date.now() - this.live.savedAt > PARTIAL_SAVE_MS) {
      this.sql.exec("UPDATE messages SET content = ? WHERE id = ?", this.live.content, this.live.id);
      this.live.savedAt = Date.now();
    }
  }

  /** The live answer's text so far. */
  answerSoFar(): string {
    return this.live?.content ?? "";
  }

  /** Stores the finished (or stopped) answer with its sources and its check against them. */
  completeAnswer(
    id: string,
    content: string,
    sources: Source[],
    status: "complete" | "stopped" = "complete",
    checked: AnswerChecks | null = null,
  ): void {
    this.sql.exec(
      "UPDATE messages SET content = ?, sources = ?, status = ?, checks = ? WHERE id = ?",
      content,
      JSON.stringify(sources),
      status,
      checked ? JSON.stringify(checked) : null,
      id,
    );
    if (this.live?.id === id) this.live = null;
  }

  /** Keeps an answer's follow-up questions. */
  setSuggestions(id: string, suggestions: readonly string[]): void {
    this.sql.exec("UPDATE messages SET suggestions = ? WHERE id = ?", JSON.stringify(suggestions), id);
  }

  /** The chat's last answer and the question it answers, when the chat ends with one. */
  lastExchange(): { question: string; answerId: string } | null {
    const [answer, question] = this.sql
      .exec<{ id: string; role: string; content: string }>("SELECT id, role, content FROM messages ORDER BY seq DESC LIMIT 2")
      .toArray();
    return answer?.role === "assistant" && question?.role === "user" ? { question: question.content, answerId: answer.id } : null;
  }

  /** Removes an answer (it is being written again). */
  removeAnswer(id: string): void {
    this.sql.exec("DELETE FROM messages WHERE id = ? AND role = 'assistant'", id);
    if (this.live?.id === id) this.live = null;
  }

  all(): StoredMessage[] {
    return this.sql
      .exec<MessageRow>(`SELECT ${COLUMNS} FROM messages ORDER BY seq`)
      .toArray()
      .map((r) => this.toStored(r));
  }

  get(id: string): StoredMessage | undefined {
    const row = this.sql.exec<MessageRow>(`SELECT ${COLUMNS} FROM messages WHERE id = ?`, id).toArray()[0];
    return row && this.toStored(row);
  }

  /** The last complete messages, oldest first (the model's context). */
  history(): HistoryMessage[] {
    return this.sql
      .exec<{ role: "user" | "assistant"; content: string }>(
        "SELECT role, content FROM (SELECT seq, role, content FROM messages WHERE status = 'complete' ORDER BY seq DESC LIMIT ?) ORDER BY seq",
        HISTORY_MESSAGES,
      )
      .toArray();
  }

  /** Stores a message; returns its created_at. */
  private insert(
    id: string,
    role: "user" | "assistant",
    content: string,
    fileInfo: FileInfo[] | null,
    status: MessageRow["status"],
  ): number {
    const createdAt = Date.now();
    this.sql.exec(
      "INSERT INTO messages (id, role, content, file_info, status, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      id,
      role,
      content,
      fileInfo ? JSON.stringify(fileInfo) : null,
      status,
      createdAt,
    );
    return createdAt;
  }

  private toStored(row: MessageRow): StoredMessage {
    const live = this.live?.id === row.id ? this.live : null;
    return {
      id: row.id,
      role: row.role,
      content: live ? live.content : row.content,
      ...(row.file_info ? { fileInfo: JSON.parse(row.file_info) as FileInfo[] } : {}),
      ...(row.sources ? { sources: JSON.parse(row.sources) as Source[] } : {}),
      ...(row.suggestions ? { suggestions: JSON.parse(row.suggestions) as string[] } : {}),
      ...(row.checks ? (JSON.parse(row.checks) as AnswerChecks) : {}),
      status: live ? "streaming" : row.status,
      created_at: row.created_at,
    };
  }
}
