// The paperclip menu (spec sections 2, 4 and 5): From My Files (pick documents
// already uploaded), Upload file (.pdf, the first file only; cancelling the
// chooser does nothing) and one drive item: Connect to drive (not connected:
// leaves for Google), Verifying connection (disabled, re-checked every 30 s) or
// Add from drive (the single-choice picker; the chosen file is imported). Every
// file chosen joins the chat's documents. Anonymous visitors get a disabled button.
import { useRef, useState } from "react";
import { useSnapshot } from "valtio";
import { chatState } from "../../state/chat";
import { attachFiles, setChatFiles, setChatFolder } from "../../state/chatDocuments";
import { attachDriveFile, CHAT_DRIVE_RECHECK_MS, DRIVE_MESSAGES, startConnect, useDriveConnection } from "../../state/drive";
import { userInfo } from "../../state/user";
import { DrivePicker } from "../drive/DrivePicker";
import { MyFilesDialog } from "./MyFilesDialog";
import { Icon } from "../Icon";
import { Tooltip } from "../Tooltip";
import { moveMenuFocus, usePopupMenu } from "../menuFocus";

export const ATTACH_LOGIN_TOOLTIP = "Log in to analyze files for free.";

export function AttachMenu({ disabled = false }: { disabled?: boolean }) {
  const { user } = useSnapshot(userInfo);
  const { uploads, files } = useSnapshot(chatState);
  const [open, setOpen] = useState(false);
  const [dialog, setDialog] = useState<"drive" | "myFiles" | null>(null);
  const drive = useDriveConnection(CHAT_DRIVE_RECHECK_MS);
  const inputRef = useRef<HTMLInputElement>(null);

  const { rootRef, buttonRef, menuRef } = usePopupMenu(open, () => setOpen(false));

  if (!user) {
    return (
      <Tooltip text={ATTACH_LOGIN_TOOLTIP}>
        <button type="button" className="composer-icon-btn" aria-label="Attach a file" disabled>
          <Icon name="paperclip" size={20} />
        </button>
      </Tooltip>
    );
  }

  function onFileChosen(event: React.ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]; // one file per message: the first
    event.target.value = ""; // choosing the same file again still fires a change
    if (!file) return; // the chooser was cancelled
    void attachFiles([file]);
  }

  return (
    <div className="attach-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="composer-icon-btn"
        aria-label="Attach a file"
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={disabled || uploads.length > 0}
        onClick={() => setOpen((o) => !o)}
      >
        <Icon name="paperclip" size={20} />
      </button>
      <input ref={inputRef} type="file" accept=".pdf" hidden aria-label="Choose a PDF file to attach" onChange={onFileChosen} />
      {open && (
        <div className="menu attach-popover" role="menu" aria-label="Attach" ref={menuRef} onKeyDown={moveMenuFocus}>
          <button
            type="button"
            role="menuitem"
            onClick={() => {
              setOpen(false);
              setDialog("myFiles");
            }}
          >
            <Icon name="files" size={18} />
            From My Files
          </button>
          <button
            type="button"
            role="menuitem"
            onClick={() => {
              setOpen(false);
              inputRef.current?.click();
            }}
          >
            <Icon name="upload" size={18} />
            Upload file
          </button>
          {drive.connected === true ? (
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                setOpen(false);
                setDialog("drive");
              }}
            >
              <Icon name="cloud" size={18} />
              Add from drive
            </button>
          ) : drive.connected === "loading" ? (
            <button type="button" role="menuitem" disabled aria-busy="true">
              <span className="spinner" aria-hidden="true" />
              Verifying connection
            </button>
          ) : (
            <button
              type="button"
              role="menuitem"
              disabled={!drive.available}
              title={drive.available ? undefined : DRIVE_MESSAGES.unavailable}
              onClick={() => {
                setOpen(false);
                void startConnect();
              }}
            >
              <Icon name="link" size={18} />
              Connect to drive
            </button>
          )}
        </div>
      )}
      {dialog === "drive" && <DrivePicker mode="single" onClose={() => setDialog(null)} onSelect={attachDriveFile} />}
      {dialog === "myFiles" && (
        <MyFilesDialog
          attachedIds={files.map((f) => f.fileId)}
          onClose={() => setDialog(null)}
          onConfirm={setChatFiles}
          onChooseFolder={setChatFolder}
        />
      )}
    </div>
  );
}
