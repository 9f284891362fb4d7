// My Files for a signed-in user (spec sections 2, 4, 8 and 9): upload with
// progress (chosen or dropped, several at once), the paged file table, row and bulk selection, view, delete and
// "Chat about this file", and the Google Drive import. Mounted only while
// someone is signed in.
import { useCallback, useEffect, useState } from "react";
import { useNavigate } from "react-router-dom";
import type { DeleteResponse, FileItem } from "../../../worker/contract/documents";
import { MAX_CHAT_FILES } from "../../../worker/contract/protocol";
import { canChatAbout, deletionKey, visibleFiles } from "../../lib/files";
import { useMounted } from "../../lib/useMounted";
import type { Folder } from "../../../worker/contract/folders";
import { forgetDeletedFiles, startChatWithFiles, startChatWithFolder } from "../../state/chatDocuments";
import { loadFolders } from "../../state/folders";
import { viewDocument } from "../../state/documents";
import { filesListed } from "../../state/ocr";
import { DrivePicker } from "../drive/DrivePicker";
import { ErrorBanner } from "../ErrorBanner";
import { DeleteModal } from "./DeleteModal";
import { DropZone } from "../DropZone";
import { FilesToolbar } from "./FilesToolbar";
import { FileTable } from "./FileTable";
import { FolderBar } from "./FolderBar";
import { MoveModal } from "./MoveModal";
import { Pagination } from "./Pagination";
import { SelectionBar } from "./SelectionBar";
import { useFileList } from "./useFileList";
import { useFileSelection } from "./useFileSelection";
import { useUploads } from "./useUploads";

export function MyFiles() {
  const { selected, toggle, clear, refresh } = useFileSelection();
  const [search, setSearch] = useState("");
  // Scanned documents on the page start their text recognition by themselves, once each.
  const onLoaded = useCallback(
    (list: FileItem[]) => {
      refresh(list);
      filesListed(list);
    },
    [refresh],
  );
  const [folderId, setFolderId] = useState<string | null>(null);
  const [folders, setFolders] = useState<Folder[]>([]);
  const [moveTargets, setMoveTargets] = useState<FileItem[] | null>(null);
  const { files, page, setPage, totalPages, loading, listError, refetch, searched } = useFileList(onLoaded, search, folderId);
  const readFolders = useCallback(() => {
    loadFolders().then(setFolders, (err: unknown) => console.error("Loading the folders failed", err));
  }, []);
  useEffect(readFolders, [readFolders]);
  // Newest first: a new upload or import is on page 1.
  const showFirstPage = () => {
    setPage(1);
    refetch();
  };
  const { uploads, uploadError, dismissUploadError, startUploads } = useUploads(showFirstPage);
  const [deleteTargets, setDeleteTargets] = useState<FileItem[] | null>(null);
  const [pickerOpen, setPickerOpen] = useState(false);
  const mounted = useMounted();
  const navigate = useNavigate();

  async function viewAll() {
    await Promise.all([...selected.values()].map((f) => viewDocument(f)));
    if (mounted.current) refetch(); // "Last opened" changes
  }

  function onDeleted(result: DeleteResponse) {
    const gone = new Set(result?.deleted ?? []);
    forgetDeletedFiles([...files, ...selected.values()].filter((f) => gone.has(deletionKey(f) ?? "")).map((f) => f.fileId));
    clear();
    readFolders();
    refetch();
  }

  function chatAboutFolder(folder: Folder) {
    startChatWithFolder(folder);
    navigate("/app/chat");
  }

  function chatAbout(chosen: FileItem[]) {
    startChatWithFiles(chosen);
    navigate("/app/chat");
  }

  const rows = visibleFiles([...uploads.map((u) => u.file), ...files]);
  const progress = Object.fromEntries(uploads.map((u) => [u.file.fileId, u.percent]));
  const deletable = [...selected.values()].filter((f) => deletionKey(f) !== null);
  const chattable = [...selected.values()].filter(canChatAbout).slice(0, MAX_CHAT_FILES);

  return (
    <DropZone onFiles={startUploads}>
      <FilesToolbar onUpload={startUploads} onOpenDrive={() => setPickerOpen(true)} search={search} onSearch={setSearch} />

      <FolderBar
        folders={folders}
        current={folderId}
        onChoose={setFolderId}
        onChanged={() => {
          readFolders();
          refetch();
        }}
        onChat={chatAboutFolder}
      />

      {uploadError && <ErrorBanner message={uploadError} onDismiss={dismissUploadError} />}
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
        selected={new Set(selected.keys())}
        loading={loading && files.length === 0}
        emptyText={searched.trim() ? `No files match “${searched.trim()}”.` : undefined}
        onToggle={toggle}
        onView={(f) => void viewDocument(f).then(() => mounted.current && refetch())}
        onDelete={(f) => setDeleteTargets([f])}
        onChat={(f) => chatAbout([f])}
        onMove={(f) => setMoveTargets([f])}
      />
      <Pagination page={page} totalPages={totalPages} onChange={setPage} />

      <SelectionBar
        count={selected.size}
        onViewAll={() => void viewAll()}
        onChatAll={chattable.length ? () => chatAbout(chattable) : undefined}
        onDeleteAll={() => setDeleteTargets(deletable)}
        onMoveAll={() => setMoveTargets([...selected.values()].filter((f) => deletionKey(f) !== null))}
        onClear={clear}
        deleteDisabled={deletable.length === 0}
      />

      {pickerOpen && <DrivePicker mode="multi" onClose={() => setPickerOpen(false)} onImported={showFirstPage} />}

      {moveTargets && moveTargets.length > 0 && (
        <MoveModal
          files={moveTargets}
          folders={folders}
          onClose={() => setMoveTargets(null)}
          onMoved={() => {
            clear();
            readFolders();
            refetch();
          }}
        />
      )}

      {deleteTargets && deleteTargets.length > 0 && (
        <DeleteModal files={deleteTargets} onClose={() => setDeleteTargets(null)} onDeleted={onDeleted} />
      )}
    </DropZone>
  );
}
