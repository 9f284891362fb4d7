// The chats scoped to a folder (D1 chat_folders, written by the chat itself:
// chat/chat-folder.ts) hear when a document moves in or out of it, and read
// the folder's documents again at once.
import { and, eq, inArray } from "drizzle-orm";
import { chatSession } from "../chat/stub";
import { getDb } from "../db/client";
import { chatFolders } from "../db/schema";

/** Tells the owner's chats that follow any of `folderIds` (nulls ignored); a failure waits for the chat's next question. */
export async function tellFolderChats(env: Env, { userId, folderIds }: { userId: string; folderIds: readonly (string | null)[] }) {
  const ids = [...new Set(folderIds.filter((id): id is string => Boolean(id)))];
  if (ids.length === 0) return;
  const chats = await getDb(env)
    .select({ sessionId: chatFolders.sessionId })
    .from(chatFolders)
    .where(and(eq(chatFolders.userId, userId), inArray(chatFolders.folderId, ids)))
    .all();
  await Promise.all(
    chats.map(({ sessionId }) =>
      chatSession(env, sessionId)
        .followFolder()
        .catch((err: unknown) => console.warn("could not tell a chat of its folder", sessionId, err)),
    ),
  );
}
