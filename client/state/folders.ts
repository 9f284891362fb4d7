// Folders in My Files (issue 45): plain calls to /api/folders and the move of
// documents in or out of a folder; each screen keeps the list it shows.
import type { Folder, FolderListResponse, FolderResponse, MoveResponse } from "../../worker/contract/folders";
import { api } from "../lib/api";

export async function loadFolders(): Promise<Folder[]> {
  const answer = await api<FolderListResponse>("GET", "/api/folders");
  return Array.isArray(answer?.folders) ? answer.folders : [];
}

export const createFolder = (name: string) => api<FolderResponse>("POST", "/api/folders", { name });

export const renameFolder = (id: string, name: string) => api<FolderResponse>("PATCH", `/api/folders/${encodeURIComponent(id)}`, { name });

export const deleteFolder = (id: string) => api<{ status: string; message: string }>("DELETE", `/api/folders/${encodeURIComponent(id)}`);

/** Moves each file into the folder (null: the top level), one after another. */
export async function moveFiles(fileIds: readonly string[], folderId: string | null): Promise<void> {
  for (const id of fileIds) await api<MoveResponse>("PATCH", `/api/documents/${encodeURIComponent(id)}`, { folderId });
}
