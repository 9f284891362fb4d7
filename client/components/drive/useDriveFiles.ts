// The user's Drive PDFs as the picker lists them: the first page on open, then
// "Load more" appends the next (an id already shown is not repeated).
import { useEffect, useState } from "react";
import type { DriveFile } from "../../../worker/contract/documents";
import { useMounted } from "../../lib/useMounted";
import { DRIVE_MESSAGES, listDriveFiles } from "../../state/drive";

function errorText(err: unknown): string {
  return err instanceof Error && err.message ? err.message : DRIVE_MESSAGES.listFailed;
}

export function useDriveFiles() {
  const [files, setFiles] = useState<DriveFile[]>([]);
  const [nextPageToken, setNextPageToken] = useState<string | undefined>();
  const [listing, setListing] = useState(true);
  const [listError, setListError] = useState<string | null>(null);
  const mounted = useMounted();

  useEffect(() => {
    let cancelled = false;
    listDriveFiles()
      .then((page) => {
        if (cancelled) return;
        setFiles(page.files);
        setNextPageToken(page.nextPageToken);
      })
      .catch((err: unknown) => {
        console.error("Listing Google Drive files failed", err);
        if (!cancelled) setListError(errorText(err));
      })
      .finally(() => {
        if (!cancelled) setListing(false);
      });
    return () => {
      cancelled = true;
    };
  }, []);

  async function loadMore(pageToken: string) {
    setListing(true);
    setListError(null);
    try {
      const page = await listDriveFiles(pageToken);
      if (!mounted.current) return;
      setFiles((current) => {
        const seen = new Set(current.map((f) => f.id));
        return [...current, ...page.files.filter((f) => !seen.has(f.id))];
      });
      setNextPageToken(page.nextPageToken);
    } catch (err) {
      console.error("Listing Google Drive files failed", err);
      if (mounted.current) setListError(errorText(err));
    } finally {
      if (mounted.current) setListing(false);
    }
  }

  return { files, nextPageToken, listing, listError, loadMore };
}
