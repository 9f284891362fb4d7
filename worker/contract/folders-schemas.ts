// The zod schemas of the folder API's bodies (contract/folders.ts has its rules and messages).
import { z } from "zod";
import { FOLDER_MESSAGES, FOLDER_NAME_MAX } from "./folders";
import { withoutHiddenCharacters } from "./plain-text";

/** A folder's name as kept: hidden characters gone, trimmed, 1-60 characters. */
export const folderNameSchema = z
  .string({ error: FOLDER_MESSAGES.nameRequired })
  .transform((name) => withoutHiddenCharacters(name).trim())
  .pipe(z.string().min(1, FOLDER_MESSAGES.nameRequired).max(FOLDER_NAME_MAX, FOLDER_MESSAGES.nameTooLong));

/** POST /api/folders, PATCH /api/folders/:id */
export const folderBodySchema = z.object({ name: folderNameSchema });

/** PATCH /api/documents/:fileId: the folder to move it into, null for the top level */
export const moveDocumentSchema = z.object({
  folderId: z.string({ error: FOLDER_MESSAGES.folderIdRequired }).min(1).max(100).nullable(),
});
