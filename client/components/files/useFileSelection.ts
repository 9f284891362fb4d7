// The files ticked in the table, in the order they were ticked (row and bulk actions).
import { useCallback, useState } from "react";
import type { FileItem } from "../../../worker/contract/documents";

export function useFileSelection() {
  const [selected, setSelected] = useState<Map<string, FileItem>>(() => new Map());

  const toggle = useCallback((file: FileItem) => {
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(file.fileId)) next.delete(file.fileId);
      else next.set(file.fileId, file);
      return next;
    });
  }, []);

  const clear = useCallback(() => setSelected(new Map()), []);

  /** Keeps selected entries fresh (e.g. a fileHash that arrived since). */
  const refresh = useCallback((list: FileItem[]) => {
    setSelected((current) => {
      if (!list.some((f) => current.has(f.fileId))) return current;
      const next = new Map(current);
      for (const f of list) if (next.has(f.fileId)) next.set(f.fileId, f);
      return next;
    });
  }, []);

  return { selected, toggle, clear, refresh };
}
