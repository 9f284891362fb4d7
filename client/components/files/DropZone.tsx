// Drop PDFs anywhere on My Files to upload them: while files are dragged over
// it, the page says "Drop PDFs to upload"; what is dropped goes to `onFiles`.
import { useState, type DragEvent, type ReactNode } from "react";

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes("Files");

export function DropZone({ onFiles, children }: { onFiles: (files: File[]) => void; children: ReactNode }) {
  const [over, setOver] = useState(false);
  return (
    <div
      className={over ? "drop-zone over" : "drop-zone"}
      onDragOver={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault(); // allows the drop
        setOver(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        setOver(false);
        const files = Array.from(event.dataTransfer.files);
        if (files.length) onFiles(files);
      }}
    >
      {children}
      {over && (
        <div className="drop-hint" aria-hidden="true">
          Drop PDFs to upload
        </div>
      )}
    </div>
  );
}
