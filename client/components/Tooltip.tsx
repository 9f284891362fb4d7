import type { ReactNode } from "react";

/** A hover/focus tooltip; the text is also the accessible description. */
export function Tooltip({ text, children }: { text: string; children: ReactNode }) {
  return (
    <span className="tooltip" data-tooltip={text}>
      {children}
    </span>
  );
}
