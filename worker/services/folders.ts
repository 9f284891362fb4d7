// Folders in My Files: a user's folders with their file counts, create, rename,
// delete (its files go back to the top level), moving a document in or out, and
// a folder's documents as a chat scoped to it searches them. Every query is
// scoped to the caller: another user's folder is simply not found (404).
import { and, count, desc, eq, ne, sql } from "drizzle-orm";
import { FOLDER_MESSAGES as M, MAX_FOLDERS, type Folder } from "../contract/folders";
import { documents, folders } from "../db/schema";
import { isUniqueViolation } from "../db/unique";
import { ApiError } from "../errors";
import type { DbDeps } from "./deps";
import { getOwnedDocument } from "./documents";

// written out: drizzle names a column without its table inside a subquery
const documentCount = sql<number>`(SELECT count(*) FROM documents d WHERE d.folder_id = folders.id)`;
const folderColumns = { id: folders.id, name: folders.name, documentCount };
const sameName = (name: string) => sql`${folders.name} = ${name} COLLATE NOCASE`;

/** The user's folders by name, each with how many documents it holds. */
export async function listFolders({ db }: DbDeps, { userId }: { userId: string }): Promise<Folder[]> {
  return db
    .select(folderColumns)
    .from(folders)
    .where(eq(folders.userId, userId))
    .orderBy(sql`${folders.name} COLLATE NOCASE`, folders.id)
    .all();
}

/** The user's folder, or 404. */
export async function getOwnedFolder({ db }: DbDeps, { userId, folderId }: { userId: string; folderId: string }): Promise<Folder> {
  const folder = await db
    .select(folderColumns)
    .from(folders)
    .where(and(eq(folders.userId, userId), eq(folders.id, folderId)))
    .get();
  if (!folder) throw new ApiError(404, M.notFound);
  return folder;
}

async function refuseTakenName({ db }: DbDeps, userId: string, name: string, except?: string) {
  const clash = await db
    .select({ id: folders.id })
    .from(folders)
    .where(and(eq(folders.userId, userId), sameName(name), except ? ne(folders.id, except) : undefined))
    .get();
  if (clash) throw new ApiError(409, M.nameTaken);
}

/** A unique index refused the name (two requests at once): the same 409. */
const uniqueRefusal = (err: unknown) => (isUniqueViolation(err) ? new ApiError(409, M.nameTaken) : err);

/** The limit is in the INSERT itself, so folders created at once cannot pass it together. */
export async function createFolder(deps: DbDeps, { userId, name }: { userId: string; name: string }): Promise<Folder> {
  await refuseTakenName(deps, userId, name);
  const id = crypto.randomUUID();
  const created = await deps.db
    .run(
      sql`INSERT INTO folders (id, user_id, name, created_at)
        SELECT ${id}, ${userId}, ${name}, ${Date.now()}
        WHERE (SELECT count(*) FROM folders WHERE user_id = ${userId}) < ${MAX_FOLDERS}`,
    )
    .catch((err: unknown) => {
      throw uniqueRefusal(err);
    });
  if (created.meta.changes === 0) throw new ApiError(409, M.tooMany);
  return { id, name, documentCount: 0 };
}

export async function renameFolder(deps: DbDeps, { userId, folderId, name }: { userId: string; folderId: string; name: string }) {
  await getOwnedFolder(deps, { userId, folderId });
  await refuseTakenName(deps, userId, name, folderId);
  await deps.db
    .update(folders)
    .set({ name })
    .where(and(eq(folders.userId, userId), eq(folders.id, folderId)))
    .run()
    .catch((err: unknown) => {
      throw uniqueRefusal(err);
    });
  return getOwnedFolder(deps, { userId, folderId });
}

/** Deletes the folder; its documents stay, at the top level (cleared in the same batch). */
export async function deleteFolder(deps: DbDeps, { userId, folderId }: { userId: string; folderId: string }): Promise<void> {
  await getOwnedFolder(deps, { userId, folderId });
  await deps.db.batch([
    deps.db
      .update(documents)
      .set({ folderId: null })
      .where(and(eq(documents.userId, userId), eq(documents.folderId, folderId))),
    deps.db.delete(folders).where(and(eq(folders.userId, userId), eq(folders.id, folderId))),
  ]);
}

/** Moves the user's document into their folder, or to the top level (null). Returns the folder it left. */
export async function moveDocument(
  deps: DbDeps,
  { userId, documentId, folderId }: { userId: string; documentId: string; folderId: string | null },
): Promise<{ fileId: string; from: string | null }> {
  const doc = await getOwnedDocument(deps, { userId, documentId });
  if (folderId) await getOwnedFolder(deps, { userId, folderId });
  await deps.db.update(documents).set({ folderId }).where(eq(documents.id, doc.id)).run();
  return { fileId: doc.id, from: doc.folderId };
}

/** A folder's documents a chat searches: the `limit` most recent, newest first; null when the folder is gone. */
export async function folderDocuments(
  { db }: DbDeps,
  { userId, folderId, limit }: { userId: string; folderId: string; limit: number },
): Promise<{ folder: Folder; ids: string[] } | null> {
  const [folder, rows] = await db.batch([
    db
      .select(folderColumns)
      .from(folders)
      .where(and(eq(folders.userId, userId), eq(folders.id, folderId))),
    db
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.userId, userId), eq(documents.folderId, folderId)))
      .orderBy(desc(documents.createdAt), desc(documents.id))
      .limit(limit),
  ]);
  return folder[0] ? { folder: folder[0], ids: rows.map((r) => r.id) } : null;
}
