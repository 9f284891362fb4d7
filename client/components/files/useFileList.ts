// The My Files list (spec sections 4 and 9): one page at a time, newest first,
// loaded again on demand and once more when a recognition ends. While any file
// is pending or processing (or has its text recognised here) their progress is
// pushed over the chat connection (state/fileProgress.ts): a row follows its
// file's status, and the page is read again when a file's indexing ends; reading
// it every 30 s is the fallback, should a push not come. A search (file names
// containing it) asks the server 200 ms after typing stops; a folder chosen
// lists only its files.
import { useCallback, useEffect, useRef, useState } from "react";
import { useSnapshot } from "valtio";
import type { FileItem } from "../../../worker/contract/documents";
import { FILE_FALLBACK_POLL_MS, isIndexing, needsRefresh } from "../../lib/files";
import { loadFilePage } from "../../state/documents";
import { onFileProgress, watchFiles } from "../../state/fileProgress";
import { ocrState, recognisingIds } from "../../state/ocr";

const SEARCH_DELAY_MS = 200;

/** `onLoaded` (stable) sees every page that arrives. */
export function useFileList(onLoaded: (files: FileItem[]) => void, search = "", folderId: string | null = null) {
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

  // Another folder starts on its first page.
  const shownFolder = useRef(folderId);
  if (shownFolder.current !== folderId) {
    shownFolder.current = folderId;
    if (page !== 1) setPage(1);
  }

  // Load the current page (and again on every refetch). Stale answers are ignored.
  useEffect(() => {
    let cancelled = false;
    setLoading(true);
    loadFilePage(page, searched, folderId)
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
  }, [page, searched, folderId, reloadTick, onLoaded]);

  // A finished recognition changed a document's status.
  const { documents, finished } = useSnapshot(ocrState);
  const finishedSeen = useRef(finished);
  useEffect(() => {
    if (finished === finishedSeen.current) return;
    finishedSeen.current = finished;
    refetch();
  }, [finished, refetch]);

  // Pushed progress: a row follows its file's status; a file whose indexing ended is read again with its page.
  const shown = useRef(files);
  shown.current = files;
  useEffect(
    () =>
      onFileProgress((pushed) => {
        let ended = false;
        const next = shown.current.map((file) => {
          const told = pushed.find((p) => p.fileId === file.fileId);
          if (!told || told.status === file.status) return file;
          if (!isIndexing(file.status) && isIndexing(told.status)) return file; // older than the list's word
          if (!isIndexing(told.status)) ended = true;
          return { ...file, status: told.status, pageCount: told.pagesTotal ?? file.pageCount, error: told.error, ocrPages: told.ocrPages };
        });
        if (next.some((file, i) => file !== shown.current[i])) setFiles(next);
        if (ended) refetch();
      }),
    [refetch],
  );

  // While any file is pending or processing, or being recognised: its progress is pushed, and the page read every 30 s.
  const refreshing = needsRefresh(files, recognisingIds(documents));
  const indexingIds = files
    .filter((f) => isIndexing(f.status))
    .map((f) => f.fileId)
    .join(" ");
  useEffect(() => {
    if (!refreshing) return;
    const timer = setInterval(refetch, FILE_FALLBACK_POLL_MS);
    return () => {
      clearInterval(timer);
      watchFiles(null);
    };
  }, [refreshing, refetch]);
  useEffect(() => {
    if (refreshing) watchFiles(indexingIds ? indexingIds.split(" ") : []);
  }, [refreshing, indexingIds]);

  return { files, page, setPage, totalPages, loading, listError, refetch, searched };
}
