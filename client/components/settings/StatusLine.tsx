export type Status = { kind: "success" | "error"; text: string } | null;

/** The inline status message under a settings form. */
export function StatusLine({ status }: { status: Status }) {
  if (!status) return null;
  return (
    <p className={`status-line ${status.kind}`} role={status.kind === "error" ? "alert" : "status"}>
      {status.text}
    </p>
  );
}
