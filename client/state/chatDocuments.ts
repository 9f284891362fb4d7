// The chat's documents (spec sections 4 and 8): the set every question
// searches, kept by the server and shown as chips. Uploads, drive imports and
// picks from My Files add to it; "Chat about this file" starts a chat with it.
import { CHAT_MESSAGES, type ChatFile, type ChatFolder } from "../../worker/contract/protocol";
import { appInfo, startNewChat } from "./app";
import { beginSession, chatConnection, chatState, waitingText } from "./chat";
import { assertUploadablePdf, uploadFailure } from "../lib/upload";
import { uploadDocument } from "./documents";
import { userInfo } from "./user";

/**
 * The server reported the chat's documents: show them, keep the placeholder's
 * progress current, and start recognising the text of scanned ones (once per document).
 */
export function showChatFiles(files: ChatFile[], folder?: ChatFolder | null): void {
  chatState.files = files.map((f) => ({ ...f }));
  if (folder !== undefined) chatState.folder = folder ? { ...folder } : null;
  // text recognition loads only when a scanned document is there (never on a first visit)
  if (!chatState.readOnly && files.some((f) => f.status === "needs_ocr")) void import("./ocr").then((ocr) => ocr.autoRecognise(files));
  const known = new Set(files.map((f) => f.fileId));
  chatState.newFileIds = chatState.newFileIds.filter((id) => known.has(id));
  for (const item of chatState.messages) if (item.type === "loading") item.text = waitingText();
}

/** Replaces the chat's documents; the server answers with a `files` frame (or an error for the banner). */
export function setChatFiles(fileIds: readonly string[]): void {
  const sessionId = chatState.sessionId;
  if (!sessionId || chatState.readOnly) return;
  const ids = [...new Set(fileIds)];
  const before = new Set(chatState.files.map((f) => f.fileId));
  chatState.newFileIds = [...new Set([...chatState.newFileIds, ...ids.filter((id) => !before.has(id))])];
  chatState.uploadError = null;
  if (!chatConnection()?.send({ action: "set_files", session_id: sessionId, file_ids: ids })) {
    chatState.uploadError = CHAT_MESSAGES.sendFailed;
  }
}

/** Adds documents (an upload, a drive import, a pick from My Files) to the chat's set. */
export function addChatFiles(fileIds: readonly string[]): void {
  setChatFiles([...chatState.files.map((f) => f.fileId), ...fileIds]);
}

export function removeChatFile(fileId: string): void {
  setChatFiles(chatState.files.map((f) => f.fileId).filter((id) => id !== fileId));
}

/** Documents deleted from My Files leave the chips at once (the server drops them from every chat's set too). */
export function forgetDeletedFiles(fileIds: readonly string[]): void {
  const gone = new Set(fileIds);
  chatState.files = chatState.files.filter((f) => !gone.has(f.fileId));
}

/** The files a chat about to open should start with ("Chat about this file"). */
let openingFiles: { sessionId: string; fileIds: string[] } | null = null;

/** The documents a chat opening now starts with, once (null when none were chosen for it). */
let openingFolder: { sessionId: string; folderId: string } | null = null;

/** The folder a chat opened with "Chat about this folder" follows (sent once, as `set_folder`, when its socket opens). */
export function takeOpeningFolder(sessionId: string): string | null {
  if (openingFolder?.sessionId !== sessionId) return null;
  const { folderId } = openingFolder;
  openingFolder = null;
  return folderId;
}

/** "Chat about this folder": a new chat scoped to the folder; its chips come with the server's `files` frame. */
export function startChatWithFolder(folder: ChatFolder): void {
  startNewChat(userInfo.user?.email ?? null);
  const sessionId = appInfo.currentSessionId!;
  openingFolder = { sessionId, folderId: folder.id };
  beginSession(sessionId);
  chatState.folder = { ...folder };
}

/** Scopes the open chat to a folder (From My Files); the server answers with a `files` frame. */
export function setChatFolder(folderId: string): void {
  const sessionId = chatState.sessionId;
  if (!sessionId || chatState.readOnly) return;
  if (!chatConnection()?.send({ action: "set_folder", session_id: sessionId, folder_id: folderId })) {
    chatState.uploadError = CHAT_MESSAGES.sendFailed;
  }
}

export function takeOpeningFiles(sessionId: string): string[] | null {
  if (openingFiles?.sessionId !== sessionId) return null;
  const { fileIds } = openingFiles;
  openingFiles = null;
  return fileIds;
}

/**
 * Starts a new chat with these documents attached: a fresh session whose
 * connection sends them as its set as soon as it opens. The caller navigates to the chat.
 */
export function startChatWithFiles(files: readonly Pick<ChatFile, "fileId" | "fileName" | "status">[]): void {
  startNewChat(userInfo.user?.email ?? null);
  const sessionId = appInfo.currentSessionId!;
  openingFiles = { sessionId, fileIds: files.map((f) => f.fileId) };
  beginSession(sessionId);
  // Chips show at once; the server's `files` frame replaces them with the checked set.
  chatState.files = files.map((f) => ({
    fileId: f.fileId,
    fileName: f.fileName,
    status: f.status,
    pagesDone: 0,
    pagesTotal: null,
    error: null,
  }));
  chatState.newFileIds = files.map((f) => f.fileId);
}

/**
 * Uploads PDFs (chosen or dropped), each with its own progress chip, and adds
 * them to the chat's documents (a file already in My Files adds that document).
 * Non-PDFs and files over 25 MB are refused before any upload, by name when
 * several were given. The uploaded documents join the chat together, in one
 * `set_files`: that frame replaces the whole set, so two sent before the
 * server's answer would each leave out the other's file.
 */
export async function attachFiles(files: readonly File[]): Promise<void> {
  chatState.uploadError = null;
  const several = files.length > 1;
  const refusals: string[] = [];
  const accepted = files.filter((file) => {
    try {
      assertUploadablePdf(file);
      return true;
    } catch (err) {
      refusals.push(uploadFailure(file, err, several));
      return false;
    }
  });
  // refusals show at once; an upload that fails later adds its reason
  const report = () => {
    if (refusals.length) chatState.uploadError = refusals.join(" ");
  };
  report();
  const batch = accepted.map((file) => ({ file, id: `upload-${++uploadCount}` }));
  const uploaded = await Promise.all(batch.map(({ file, id }) => uploadOne(file, id, several, refusals)));
  const fileIds = uploaded.filter((id): id is string => id !== null);
  if (fileIds.length) addChatFiles(fileIds);
  chatState.uploads = chatState.uploads.filter((u) => !batch.some((b) => b.id === u.id));
  report();
}

/** PDFs dropped on the composer: attached as if chosen with Attach, or the reason they cannot be. */
export function attachDroppedFiles(files: File[]): void {
  if (!userInfo.user) chatState.uploadError = CHAT_MESSAGES.anonymousFiles;
  else if (chatState.readOnly) chatState.uploadError = CHAT_MESSAGES.readOnly;
  else void attachFiles(files);
}

/** One upload with its chip; the chip of a finished upload stays (100%) until its batch joins the chat. */
async function uploadOne(file: File, id: string, several: boolean, refusals: string[]): Promise<string | null> {
  chatState.uploads.push({ id, name: file.name, percent: 0 });
  try {
    const setPercent = (percent: number) => {
      const upload = chatState.uploads.find((u) => u.id === id);
      if (upload) upload.percent = percent;
    };
    const { fileId } = await uploadDocument(file, setPercent);
    setPercent(100);
    return fileId;
  } catch (err) {
    console.error("Attaching the file failed", err);
    refusals.push(uploadFailure(file, err, several));
    chatState.uploads = chatState.uploads.filter((u) => u.id !== id);
    return null;
  }
}

let uploadCount = 0;
