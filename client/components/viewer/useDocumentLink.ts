// The signed link of a file the viewer shows, asked once per file while the
// viewer is open (links expire; files do not change).
import { useEffect, useState } from "react";
import { documentLink } from "../../state/documents";

const links = new Map<string, Promise<string>>();

function linkFor(fileId: string): Promise<string> {
  let link = links.get(fileId);
  if (!link) {
    link = documentLink(fileId).then(({ url }) => {
      if (!url) throw new Error("No document link received.");
      return url;
    });
    link.catch(() => links.delete(fileId));
    links.set(fileId, link);
  }
  return link;
}

/** Forgets every link (the viewer closed). */
export function forgetLinks(): void {
  links.clear();
}

/** The file's link; `fileId` null = none is asked. */
export function useDocumentLink(fileId: string | null, fileName: string): { url: string | null; error: string | null } {
  const [state, setState] = useState<{ fileId: string | null; url: string | null; error: string | null }>({
    fileId,
    url: null,
    error: null,
  });
  useEffect(() => {
    if (!fileId) return;
    let current = true;
    linkFor(fileId).then(
      (url) => current && setState({ fileId, url, error: null }),
      (err: unknown) =>
        current &&
        setState({ fileId, url: null, error: err instanceof Error && err.message ? err.message : `${fileName} could not be opened.` }),
    );
    return () => {
      current = false;
    };
  }, [fileId, fileName]);
  return state.fileId === fileId ? state : { url: null, error: null };
}
