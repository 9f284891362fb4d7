// A write refused by a UNIQUE index (D1 reports it in the message or its cause): the caller's
// sign that someone else claimed the row first.
export function isUniqueViolation(err: unknown): boolean {
  const text = `${(err as Error)?.message ?? ""} ${String((err as { cause?: unknown })?.cause ?? "")}`;
  return /UNIQUE constraint failed/i.test(text);
}
