// Previous / "Page X of Y" / Next for the file list (10 per page).
interface PaginationProps {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  disabled?: boolean;
}

export function Pagination({ page, totalPages, onChange, disabled = false }: PaginationProps) {
  if (totalPages < 1) return null;
  return (
    <nav className="pagination" aria-label="File list pages">
      <button type="button" className="btn btn-outline" onClick={() => onChange(page - 1)} disabled={disabled || page <= 1}>
        Previous
      </button>
      <span className="pagination-label">
        Page {page} of {totalPages}
      </span>
      <button type="button" className="btn btn-outline" onClick={() => onChange(page + 1)} disabled={disabled || page >= totalPages}>
        Next
      </button>
    </nav>
  );
}
