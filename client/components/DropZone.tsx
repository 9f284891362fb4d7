// A place PDFs can be dropped on (My Files, the chat's composer): while files
// are dragged over it, it says so (`hint`); what is dropped goes to `onFiles`.
import { useState, type DragEvent, type ReactNode } from "react";

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes("Files");

interface DropZoneProps {
  onFiles: (files: File[]) => void;
  children: ReactNode;
  hint?: string;
  className?: string;
}

export function DropZone({ onFiles, children, hint = "Drop PDFs to upload", className = "" }: DropZoneProps) {
  const [over, setOver] = useState(false);
  return (
    <div
      className={`drop-zone${over ? " over" : ""}${className ? ` ${className}` : ""}`}
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
          {hint}
        </div>
      )}
    </div>
  );
}
