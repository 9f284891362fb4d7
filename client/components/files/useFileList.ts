// The My Files list (spec sections 4 and 9): one page at a time, newest first,
// loaded again on demand and every 5 s while any file is pending or processing
// or has its text recognised here (and once more when a recognition ends);
// a search (file names containing it) asks the server 200 ms after typing stops.
import { useCallback, useEffect, useRef, useState } from "react";
import { useSnapshot } from "valtio";
import type { FileItem } from "../../../worker/contract/documents";
import { FILE_REFRESH_MS, needsRefresh } from "../../lib/files";
import { loadFilePage } from "../../state/documents";
import { ocrState, recognisingIds } from "../../state/ocr";

const SEARCH_DELAY_MS = 200;

/** `onLoaded` (stable) sees every page that arrives. */
export function useFileList(onLoaded: (files: FileItem[]) => void, search = "") {
  const [files, setFiles] = useState<FileItem[]>([]);
  const [page, setPage] = useState(1);
  const [searched, setSearched] = useState(search);
  const [totalPages, setTotalPages] = useState(0);
  const [loading, setLoading] = useState(true);
  const [listError, setListError] = useState<string | null>(null);
  const [reloadTick, setReloadTick] = useState(0);

  const refetch = useCallback(() => setReloadTick((t) => t + 1), []);

  // A new search starts on its first page, once typing pauses.
  useEffect(() => {
    if (search === searched) return;
    const timer = setTimeout(() => {
      setSearched(search);
      setPage(1);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, searched]);

  // Load the current page (and again on every refetch). Stale answers are ignored.
  useEffect(() => {
    let cancelled = false;
    setLoading(true);
    loadFilePage(page, searched)
      .then((result) => {
        if (cancelled) return;
        const list = Array.isArray(result?.files) ? result.files : [];
        const pages = result?.pagination?.totalPages ?? 0;
        setFiles(list);
        setTotalPages(pages);
        setListError(null);
        onLoaded(list);
        // The page emptied under us (e.g. after deleting its last files): step back.
        if (pages > 0 && page > pages) setPage(pages);
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        console.error("Loading the file list failed", err);
        setListError("Could not load your files. Please try again.");
      })
      .finally(() => {
        if (!cancelled) setLoading(false);
      });
    return () => {
      cancelled = true;
    };
  }, [page, searched, reloadTick, onLoaded]);

  // A finished recognition changed a document's status.
  const { documents, finished } = useSnapshot(ocrState);
  const finishedSeen = useRef(finished);
  useEffect(() => {
    if (finished === finishedSeen.current) return;
    finishedSeen.current = finished;
    refetch();
  }, [finished, refetch]);

  // Auto-refresh every 5 s while any file is pending or processing, or being recognised.
  const refreshing = needsRefresh(files, recognisingIds(documents));
  useEffect(() => {
    if (!refreshing) return;
    const timer = setInterval(refetch, FILE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [refreshing, refetch]);

  return { files, page, setPage, totalPages, loading, listError, refetch, searched };
}
