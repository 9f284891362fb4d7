// Uploads started on My Files (spec sections 3, 4 and 8), one file or several at
// once (chosen together or dropped): each shows as a temp row with its percent
// until it finishes; a rejected file or a failed upload shows its message in the
// red banner, naming the file when several were given.
import { useState } from "react";
import type { FileItem } from "../../../worker/contract/documents";
import { TEMP_ID_PREFIX } from "../../lib/files";
import { assertUploadablePdf, uploadFailure } from "../../lib/upload";
import { useMounted } from "../../lib/useMounted";
import { uploadDocument } from "../../state/documents";

export interface LocalUpload {
  file: FileItem;
  percent: number;
}

function tempId(): string {
  return `${TEMP_ID_PREFIX}${Math.random().toString(36).slice(2, 10)}${Date.now().toString(36)}`;
}

/** `onFinished` runs after each upload, successful or not, while the page is still open. */
export function useUploads(onFinished: () => void) {
  const [uploads, setUploads] = useState<LocalUpload[]>([]);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const mounted = useMounted();

  async function startUpload(file: File, several: boolean) {
    const explain = (err: unknown) => uploadFailure(file, err, several);
    try {
      assertUploadablePdf(file);
    } catch (err) {
      console.error("File selection rejected", err);
      setUploadError(explain(err));
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
      ocrPages: [],
    };
    setUploads((u) => [{ file: temp, percent: 0 }, ...u]);
    try {
      await uploadDocument(file, (percent) => {
        if (mounted.current) setUploads((u) => u.map((x) => (x.file.fileId === id ? { ...x, percent } : x)));
      });
    } catch (err) {
      console.error("Upload failed", err);
      if (mounted.current) setUploadError(explain(err));
    } finally {
      if (mounted.current) {
        setUploads((u) => u.filter((x) => x.file.fileId !== id));
        onFinished();
      }
    }
  }

  /** Starts every file at once; non-PDFs and files over 25 MB are refused before any upload. */
  function startUploads(files: readonly File[]) {
    setUploadError(null);
    for (const file of files) void startUpload(file, files.length > 1);
  }

  return { uploads, uploadError, dismissUploadError: () => setUploadError(null), startUploads };
}
