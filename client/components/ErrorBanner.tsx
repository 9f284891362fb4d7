import { Icon } from "./Icon";

/** The red dismissible banner for upload errors (spec section 2). */
export function ErrorBanner({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  return (
    <div className="error-banner" role="alert">
      <span>{message}</span>
      <button type="button" className="icon-btn" aria-label="Dismiss" onClick={onDismiss}>
        <Icon name="close" size={18} />
      </button>
    </div>
  );
}
