// Folders in My Files (issue 45): the API's bodies, rules and messages, shared by
// the Worker routes and the client. A folder holds some of its owner's
// documents; a document is in one folder or at the top level. The zod schemas
// are in folders-schemas.ts, so the chat's first visit (which names folders in
// "From My Files") carries no zod.

export const FOLDER_NAME_MAX = 60;
export const MAX_FOLDERS = 100;

export const FOLDER_MESSAGES = {
  nameRequired: "Give the folder a name.",
  nameTooLong: `A folder name has at most ${FOLDER_NAME_MAX} characters.`,
  nameTaken: "You already have a folder with this name. Choose another name.",
  tooMany: `You can have at most ${MAX_FOLDERS} folders. Delete one to make another.`,
  notFound: "That folder is not in your My Files.",
  folderIdRequired: "Choose a folder, or the top level.",
  created: "Folder created.",
  renamed: "Folder renamed.",
  deleted: "Folder deleted. Its files are back at the top level.",
  moved: "File moved.",
  emptyForChat: "This folder has no files yet. Move files into it first.",
} as const;

export interface Folder {
  id: string;
  name: string;
  documentCount: number;
}

/** GET /api/folders */
export interface FolderListResponse {
  folders: Folder[];
}

/** POST /api/folders and PATCH /api/folders/:id answer the folder as it is now. */
export interface FolderResponse {
  status: "success";
  message: string;
  folder: Folder;
}

/** PATCH /api/documents/:fileId { folderId } */
export interface MoveResponse {
  status: "success";
  message: string;
  fileId: string;
  folderId: string | null;
}
