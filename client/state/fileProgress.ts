// My Files' pushed progress: while My Files lists files still being indexed, it
// asks over the chat connection (one per signed-in tab, whatever the page shows)
// to be told of its user's documents' indexing (`watch_files`, with the files it
// waits on, which the server answers as they are now); each change then arrives
// as a `file_progress` frame. Asked again whenever the connection (re)opens.
import type { FileProgress } from "../../worker/contract/protocol";
import type { RealtimeConnection } from "../lib/realtime";
import { chatConnection } from "./chat";

type Listener = (files: FileProgress[]) => void;

const listeners = new Set<Listener>();
/** the files My Files waits on while it watches; null while it does not */
let watching: string[] | null = null;

/** Calls `listener` with every pushed change; returns the unsubscribe. */
export function onFileProgress(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Starts (or renews) watching, the listed files still being indexed being `fileIds`; null stops it. */
export function watchFiles(fileIds: string[] | null): void {
  const was = watching;
  watching = fileIds;
  const connection = chatConnection();
  if (!connection) return; // asked when it opens
  if (fileIds) connection.send({ action: "watch_files", watch: true, file_ids: fileIds });
  else if (was) connection.send({ action: "watch_files", watch: false });
}

/** A connection (re)opened: a watch in progress is asked again on it. */
export function rewatchFiles(connection: RealtimeConnection): void {
  if (watching) connection.send({ action: "watch_files", watch: true, file_ids: watching });
}

/** A `file_progress` frame arrived. */
export function fileProgressArrived(files: FileProgress[]): void {
  for (const listener of [...listeners]) listener(files);
}
