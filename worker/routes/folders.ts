// /api/folders: the signed-in user's folders in My Files (list with counts,
// create, rename, delete). Moving a document is PATCH /api/documents/:fileId.
import { Hono } from "hono";
import { FOLDER_MESSAGES as M } from "../contract/folders";
import { folderBodySchema } from "../contract/folders-schemas";
import type { AppEnv } from "../env";
import { requireUser } from "../middleware/auth";
import { valid } from "../middleware/validate";
import { createFolder, deleteFolder, getOwnedFolder, listFolders, renameFolder } from "../services/folders";

export const folderRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) => c.json({ folders: await listFolders({ db: c.var.db }, { userId: c.var.user.id }) }, 200))
  .post("/", valid("json", folderBodySchema), async (c) => {
    const folder = await createFolder({ db: c.var.db }, { userId: c.var.user.id, name: c.req.valid("json").name });
    return c.json({ status: "success" as const, message: M.created, folder }, 201);
  })
  .get("/:id", async (c) => c.json(await getOwnedFolder({ db: c.var.db }, { userId: c.var.user.id, folderId: c.req.param("id") }), 200))
  .patch("/:id", valid("json", folderBodySchema), async (c) => {
    const input = { userId: c.var.user.id, folderId: c.req.param("id"), name: c.req.valid("json").name };
    return c.json({ status: "success" as const, message: M.renamed, folder: await renameFolder({ db: c.var.db }, input) }, 200);
  })
  .delete("/:id", async (c) => {
    await deleteFolder({ db: c.var.db }, { userId: c.var.user.id, folderId: c.req.param("id") });
    return c.json({ status: "success" as const, message: M.deleted }, 200);
  });
