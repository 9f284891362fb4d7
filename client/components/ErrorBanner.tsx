import type { ReactNode } from "react";
import { Icon } from "./Icon";

/** The red dismissible banner for upload errors and refused questions (spec section 2). */
export function ErrorBanner({ message, onDismiss }: { message: ReactNode; onDismiss: () => void }) {
  return (
    <div className="error-banner" role="alert">
      <div className="error-banner-text">{message}</div>
      <button type="button" className="icon-btn" aria-label="Dismiss" onClick={onDismiss}>
        <Icon name="close" size={18} />
      </button>
    </div>
  );
}
