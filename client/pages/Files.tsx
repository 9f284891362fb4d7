// My Files (spec sections 2, 4, 8 and 9): upload a PDF with progress, the paged
// file table (auto-refreshing while anything is pending or processing), row and
// bulk selection, view and delete, and the Google Drive connection and import.
import { useCallback, useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { useSnapshot } from "valtio";
import {
  FILE_LIST_PAGE_SIZE,
  type DeleteResponse,
  type FileItem,
  type FileListResponse,
  type ViewDocumentResponse,
} from "../../worker/contract/documents";
import { MAX_CHAT_FILES } from "../../worker/contract/protocol";
import { DrivePicker } from "../components/drive/DrivePicker";
import { DeleteModal } from "../components/files/DeleteModal";
import { FileTable } from "../components/files/FileTable";
import { Pagination } from "../components/files/Pagination";
import { SelectionBar } from "../components/files/SelectionBar";
import "../components/files/files.css";
import { Icon } from "../components/Icon";
import { api } from "../lib/api";
import { canChatAbout, FILE_REFRESH_MS, needsRefresh, TEMP_ID_PREFIX, visibleFiles } from "../lib/files";
import { assertUploadablePdf, uploadPdf } from "../lib/upload";
import { DRIVE_MESSAGES, FILES_DRIVE_RECHECK_MS, startConnect, useDriveConnection } from "../state/drive";
import { forgetDeletedFiles, startChatWithFiles } from "../state/chatDocuments";
import { userInfo } from "../state/user";
import { ErrorBanner } from "../components/ErrorBanner";

interface LocalUpload {
  file: FileItem;
  percent: number;
}

function tempId(): string {
  return `${TEMP_ID_PREFIX}${Math.random().toString(36).slice(2, 10)}${Date.now().toString(36)}`;
}

function errorMessage(err: unknown): string {
  return err instanceof Error && err.message ? err.message : "Something went wrong. Please try again.";
}

export default function Files() {
  const { user } = useSnapshot(userInfo);
  const signedIn = Boolean(user);

  return (
    <main className="page files-page">
      <h1>My Files</h1>
      {signedIn ? (
        <FilesManager />
      ) : (
        <p>
          <Link to="/app/auth/login">Log in</Link> to upload and manage your documents.
        </p>
      )}
    </main>
  );
}

/** Everything that only exists for a signed-in user (mounted only then). */
function FilesManager() {
  const [files, setFiles] = useState<FileItem[]>([]);
  const [page, setPage] = useState(1);
  const [totalPages, setTotalPages] = useState(0);
  const [loading, setLoading] = useState(true);
  const [listError, setListError] = useState<string | null>(null);
  const [reloadTick, setReloadTick] = useState(0);
  const [uploads, setUploads] = useState<LocalUpload[]>([]);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [selected, setSelected] = useState<Map<string, FileItem>>(() => new Map());
  const [deleteTargets, setDeleteTargets] = useState<FileItem[] | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [pickerOpen, setPickerOpen] = useState(false);
  const mounted = useRef(true);
  // Checked on arrival and every 10 s while "loading" (back from Google, not confirmed yet).
  const drive = useDriveConnection(FILES_DRIVE_RECHECK_MS);
  const driveConnected = drive.connected === true;
  const navigate = useNavigate();

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const refetch = useCallback(() => setReloadTick((t) => t + 1), []);

  // Load the current page (and again on every refetch). Stale answers are ignored.
  useEffect(() => {
    let cancelled = false;
    setLoading(true);
    const query = new URLSearchParams({ pageSize: String(FILE_LIST_PAGE_SIZE), pageNumber: String(page) });
    api<FileListResponse>("GET", `/api/documents?${query}`)
      .then((result) => {
        if (cancelled) return;
        const list = Array.isArray(result?.files) ? result.files : [];
        const pages = result?.pagination?.totalPages ?? 0;
        setFiles(list);
        setTotalPages(pages);
        setListError(null);
        // Keep selected entries fresh (e.g. a fileHash that arrived since).
        setSelected((current) => {
          if (!list.some((f) => current.has(f.fileId))) return current;
          const next = new Map(current);
          for (const f of list) if (next.has(f.fileId)) next.set(f.fileId, f);
          return next;
        });
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
  }, [page, reloadTick]);

  // Auto-refresh every 5 s while any file is pending or processing.
  const refreshing = needsRefresh(files);
  useEffect(() => {
    if (!refreshing) return;
    const timer = setInterval(refetch, FILE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [refreshing, refetch]);

  async function startUpload(file: File) {
    setUploadError(null);
    try {
      assertUploadablePdf(file);
    } catch (err) {
      console.error("File selection rejected", err);
      setUploadError(errorMessage(err));
      return;
    }
    const id = tempId();
    const temp: FileItem = {
      fileId: id,
      fileName: file.name,
      status: "uploading",
      createdAt: new Date().toISOString(),
      uploadedAt: null,
      fileHash: "",
      pageCount: null,
      error: null,
    };
    setUploads((u) => [{ file: temp, percent: 0 }, ...u]);
    try {
      await uploadPdf(file, (percent) => {
        if (mounted.current) setUploads((u) => u.map((x) => (x.file.fileId === id ? { ...x, percent } : x)));
      });
    } catch (err) {
      console.error("Upload failed", err);
      if (mounted.current) setUploadError(errorMessage(err));
    } finally {
      if (mounted.current) {
        setUploads((u) => u.filter((x) => x.file.fileId !== id));
        // Newest first: the new file is on page 1.
        setPage(1);
        refetch();
      }
    }
  }

  function onFileChosen(event: React.ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = ""; // choosing the same file again still fires a change
    if (!file) return; // the chooser was cancelled
    void startUpload(file);
  }

  async function view(file: FileItem) {
    try {
      const query = new URLSearchParams({ file_id: file.fileId });
      const { url } = await api<ViewDocumentResponse>("GET", `/api/documents/viewDocument?${query}`);
      if (url) window.open(url, "_blank", "noopener");
    } catch (err) {
      console.error(`Opening ${file.fileName} failed`, err);
    }
  }

  async function viewAll() {
    const chosen = [...selected.values()];
    await Promise.all(chosen.map((f) => view(f)));
    if (mounted.current) refetch(); // "Last opened" changes
  }

  function toggle(file: FileItem) {
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(file.fileId)) next.delete(file.fileId);
      else next.set(file.fileId, file);
      return next;
    });
  }

  function onDeleted(result: DeleteResponse) {
    const gone = new Set(result?.deleted ?? []);
    forgetDeletedFiles([...files, ...selected.values()].filter((f) => f.fileHash && gone.has(f.fileHash)).map((f) => f.fileId));
    setSelected(new Map());
    refetch();
  }

  function chatAbout(chosen: FileItem[]) {
    startChatWithFiles(chosen);
    navigate("/app/chat");
  }

  const localRows = uploads.map((u) => u.file);
  const rows = visibleFiles([...localRows, ...files]);
  const progress = Object.fromEntries(uploads.map((u) => [u.file.fileId, u.percent]));
  const selectedIds = new Set(selected.keys());
  const deletable = [...selected.values()].filter((f) => f.fileHash);
  const chattable = [...selected.values()].filter(canChatAbout).slice(0, MAX_CHAT_FILES);

  return (
    <>
      <div className="files-toolbar">
        <button type="button" className="btn btn-primary" onClick={() => inputRef.current?.click()}>
          <Icon name="upload" size={18} />
          Upload file
        </button>
        <input
          ref={inputRef}
          type="file"
          accept=".pdf,application/pdf"
          hidden
          aria-label="Choose a PDF file to upload"
          onChange={onFileChosen}
        />
        <button
          type="button"
          className="btn btn-outline"
          disabled={!drive.available}
          title={drive.available ? undefined : DRIVE_MESSAGES.unavailable}
          aria-busy={drive.connected === "loading" || undefined}
          onClick={() => (driveConnected ? setPickerOpen(true) : startConnect())}
        >
          <Icon name={driveConnected ? "check" : "cloud"} size={18} />
          {driveConnected ? "Connected to cloud drive" : "Connect to cloud drive"}
        </button>
      </div>

      {uploadError && <ErrorBanner message={uploadError} onDismiss={() => setUploadError(null)} />}
      {listError && (
        <p className="form-error">
          {listError}{" "}
          <button type="button" className="link-btn" onClick={refetch}>
            Retry
          </button>
        </p>
      )}

      <FileTable
        files={rows}
        progress={progress}
        selected={selectedIds}
        loading={loading && files.length === 0}
        onToggle={toggle}
        onView={(f) => void view(f).then(() => mounted.current && refetch())}
        onDelete={(f) => setDeleteTargets([f])}
        onChat={(f) => chatAbout([f])}
      />
      <Pagination page={page} totalPages={totalPages} onChange={setPage} />

      <SelectionBar
        count={selected.size}
        onViewAll={() => void viewAll()}
        onChatAll={chattable.length ? () => chatAbout(chattable) : undefined}
        onDeleteAll={() => setDeleteTargets(deletable)}
        onClear={() => setSelected(new Map())}
        deleteDisabled={deletable.length === 0}
      />

      {pickerOpen && (
        <DrivePicker
          mode="multi"
          onClose={() => setPickerOpen(false)}
          onImported={() => {
            // Newest first: the imported files are on page 1.
            setPage(1);
            refetch();
          }}
        />
      )}

      {deleteTargets && deleteTargets.length > 0 && (
        <DeleteModal files={deleteTargets} onClose={() => setDeleteTargets(null)} onDeleted={onDeleted} />
      )}
    </>
  );
}
