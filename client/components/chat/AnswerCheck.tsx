// An answer's check against the pages it cites (#43), as the chat shows it: the quiet line under
// the answer, and the mark on each sentence whose figures were not found, its reason shown on
// hover and focus and read to screen readers as the mark's description.
import { useEffect, useId, useState, type ReactNode } from "react";
import { checkReason, checkSummary, type SentenceCheck } from "../../../worker/contract/checks";
import type { Source } from "../../../worker/contract/protocol";

/**
 * "Figures checked against the cited pages", or what was not found (a gentle warning). An answer
 * that just finished (`announce`) says it once through a polite live region: the region mounts
 * empty and is filled after, which screen readers announce; it never changes again, so later
 * renders say nothing. A reloaded chat's lines are plain text.
 */
export function CheckLine({
  checks,
  sources,
  announce = false,
}: {
  checks: readonly SentenceCheck[];
  sources?: readonly Source[];
  announce?: boolean;
}) {
  const [filled, setFilled] = useState(!announce);
  useEffect(() => setFilled(true), []);
  // no checks (an answer stored before them) is not "checked": say nothing
  const summary = checks.length ? checkSummary(checks, sources) : null;
  if (!summary) return null;
  const warn = checks.some((c) => c.status === "unsupported");
  return (
    <p className={warn ? "chat-check chat-check-warn" : "chat-check"} role={announce ? "status" : undefined}>
      {filled ? summary : null}
    </p>
  );
}

/** An unsupported sentence: dotted underline, focusable, its reason on hover and focus and as its description. */
export function UncheckedMark({ check, sources, children }: { check: SentenceCheck; sources?: readonly Source[]; children: ReactNode }) {
  const id = useId();
  const reason = checkReason(check, sources);
  return (
    <>
      <mark className="unchecked" tabIndex={0} aria-describedby={id} data-reason={reason}>
        {children}
      </mark>
      <span id={id} className="visually-hidden">
        {reason}
      </span>
    </>
  );
}
