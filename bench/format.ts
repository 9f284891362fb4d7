/** A figure as PERFORMANCE.md writes it: grouped, with `digits` decimals. */
export const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
