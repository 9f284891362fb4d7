// How far each document's text recognition is (state/ocr.ts runs it): kept
// apart from the recognition itself so the chat's chips can show progress
// without loading the recognition code on a first visit.
import { proxy } from "valtio";
import type { DocumentStatus } from "../../worker/contract/documents";

export interface Recognition {
  fileName: string;
  /** waiting for another document's recognition to finish, reading pages, or ended */
  phase: "waiting" | "running" | "done";
  /** the page being read (1-based), null before the first */
  page: number | null;
  pagesDone: number;
  /** pages this run reads (what the server still listed when it began); 0 until known */
  pagesTotal: number;
  /** pages whose text the server took in this run */
  pagesSent: number[];
  /** the document's status as the server last answered it */
  status: DocumentStatus;
  /** why the recognition stopped, in plain words */
  error: string | null;
}

/** Recognitions by file id; `finished` counts the ones that ended (the file list reloads then). */
export const ocrState = proxy<{ documents: Record<string, Recognition>; finished: number }>({ documents: {}, finished: 0 });

/** What the progress line says: which page of how many, or why nothing is read yet. */
export function recognitionText(recognition: Pick<Recognition, "phase" | "pagesDone" | "pagesTotal" | "page">): string {
  if (recognition.phase === "waiting") return "Waiting for another document's recognition";
  if (recognition.page === null || recognition.pagesTotal === 0) return "Preparing text recognition…";
  return `Recognising page ${Math.min(recognition.pagesDone + 1, recognition.pagesTotal)} of ${recognition.pagesTotal}`;
}
