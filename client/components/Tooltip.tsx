import { cloneElement, isValidElement, useId, type ReactElement } from "react";

/**
 * A hover/focus tooltip. The text is also in the accessibility tree (visually
 * hidden, linked with aria-describedby), so screen-reader users hear it even when
 * the control is disabled and cannot take focus.
 */
export function Tooltip({ text, children }: { text: string; children: ReactElement<{ "aria-describedby"?: string }> }) {
  const id = useId();
  return (
    <span className="tooltip" data-tooltip={text}>
      {isValidElement(children) ? cloneElement(children, { "aria-describedby": id }) : children}
      <span id={id} role="tooltip" className="visually-hidden">
        {text}
      </span>
    </span>
  );
}
