/** `heard`: already shown under its field, so only announced (not shown twice). */
export type Status = { kind: "success" | "error"; text: string; heard?: boolean } | null;

/** The inline status message under a settings form. */
export function StatusLine({ status }: { status: Status }) {
  if (!status) return null;
  return (
    <p
      className={`status-line ${status.kind}${status.heard ? " visually-hidden" : ""}`}
      role={status.kind === "error" ? "alert" : "status"}
    >
      {status.text}
    </p>
  );
}
