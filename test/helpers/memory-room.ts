// A chat turn's room without a Durable Object or sockets (chat/turn.ts ChatRoom):
// messages kept in memory as the chat's MessageStore keeps them, documents
// resolved against D1, every frame collected. Nothing pushes to it: a wait for
// the owner's files asks their Library every 100 ms.
import { env } from "cloudflare:workers";
import type { ChatFile, FileInfo, ServerMessage, StoredMessage } from "../../worker/contract/protocol";
import type { ChatRoom } from "../../worker/chat/turn";
import type { ReadChatFiles } from "../../worker/chat/chat-documents";
import { getDb } from "../../worker/db/client";
import { library } from "../../worker/library/stub";
import { resolveChatFiles } from "../../worker/services/chat-files";

/** A chat without a Durable Object: messages in memory, documents resolved against D1, frames collected. */
export function memoryRoom(roomEnv: Env = env) {
  const stored: StoredMessage[] = [];
  let live: StoredMessage | null = null;
  let documentIds: string[] = [];
  let ownerId = "";
  const frames: { message: ServerMessage; to?: string }[] = [];
  const files = async (read: ReadChatFiles = (request) => resolveChatFiles({ db: getDb(roomEnv) }, request)): Promise<ChatFile[]> =>
    documentIds.length ? read({ ownerId, ids: documentIds }) : [];
  const room: ChatRoom = {
    env: roomEnv,
    messages: {
      addQuestion: (content: string, fileInfo: FileInfo[]) => {
        const question: StoredMessage = {
          id: crypto.randomUUID(),
          role: "user",
          content,
          ...(fileInfo.length ? { fileInfo } : {}),
          status: "complete",
          created_at: Date.now(),
        };
        stored.push(question);
        return question;
      },
      startAnswer: () => {
        live = { id: crypto.randomUUID(), role: "assistant", content: "", status: "streaming", created_at: Date.now() };
        stored.push(live);
        return live.id;
      },
      appendToAnswer: (text: string) => {
        if (live) live.content += text;
      },
      answerSoFar: () => live?.content ?? "",
      completeAnswer: (id, content, sources, status = "complete", checked = null) => {
        Object.assign(
          stored.find((m) => m.id === id)!,
          { content, sources, status, ...checked },
        );
        live = null;
      },
      get: (id: string) => stored.find((m) => m.id === id),
      history: () => stored.filter((m) => m.status === "complete").map(({ role, content }) => ({ role, content })),
      lastExchange: () => {
        const [question, answer] = stored.slice(-2);
        return question?.role === "user" && answer?.role === "assistant" ? { question: question.content, answerId: answer.id } : null;
      },
      setSuggestions: (id: string, suggestions: readonly string[]) => {
        Object.assign(
          stored.find((m) => m.id === id)!,
          { suggestions: [...suggestions] },
        );
      },
      removeAnswer: (id: string) => {
        const at = stored.findIndex((m) => m.id === id && m.role === "assistant");
        if (at >= 0) stored.splice(at, 1);
      },
    },
    documentIds: () => documentIds,
    files,
    takeNewFiles: (list) => list.map((f) => ({ fileId: f.fileId, name: f.fileName })),
    storeFiles: (owner, list) => {
      ownerId = owner;
      documentIds = list.map((f) => f.fileId);
    },
    untilIndexed: () => files(),
    untilLibraryIndexed: async (userId, timeoutMs, stop) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const indexing = await library(roomEnv, userId).indexingFiles();
        if (!indexing.length || Date.now() > deadline || stop?.aborted) return indexing;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    broadcast: (message, to) => frames.push({ message, to }),
  };
  return { room, stored, frames, documentIds: () => documentIds };
}
