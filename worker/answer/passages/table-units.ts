// The unit a financial table's amounts are written in, said once above it ("(Millions, except per
// share amounts)", "($ in millions)", "(Dollars in Millions Except Per Share Data)", "(In
// thousands)"). A row quoted without it reads "Net sales: 2018 $32,765", which is $32.8 billion on
// the page; the row is quoted with it ("... (in millions)") unless the note excepts what the row
// counts (per-share amounts, employees, share data) or its figures are percents.

/** A unit note: what it scales ($, dollars, amounts, or nothing said), the unit, and its exceptions. */
const UNIT_NOTE =
  /\((?:unaudited;\s*)?(?:(?:\$|u\.s\. dollars|dollars|amounts)(?: and shares)?\s+)?(?:in\s+)?(millions|thousands|billions)\b([^()]{0,80})\)/i;

/** The same note printed without its parentheses ("$ and shares in millions, except per share amounts"): only of dollars. */
const BARE_NOTE = /(?:^|\s)(?:\$|dollars)(?: and shares)? in (millions|thousands|billions)\b((?:,? except [^.;)]{0,60})?)/i;

export interface TableUnit {
  unit: "millions" | "thousands" | "billions";
  /** rows this unit is not for: what the note excepts ("except per share amounts") or scales apart ("Shares in Millions") */
  except: RegExp | null;
}

/** A row of per-share amounts, of ratios or of percents: never a count of millions. */
const NEVER_SCALED = /per[- ]share|per common share|\bEPS\b|%|percent|margin|\bratio\b|\brate\b/i;

/** The unit note a piece of a page holds, or null; "shares in" in it scales share counts apart. */
export function unitNote(text: string): TableUnit | null {
  const note = UNIT_NOTE.exec(text) ?? BARE_NOTE.exec(text);
  if (!note) return null;
  const rest = note[2]!.toLowerCase();
  const excepted = [
    /except[^;]*(per[- ]share|eps)/.test(rest) && "per[- ]share|\\bEPS\\b|per common share",
    /except[^;]*share data/.test(rest) && "share",
    /except[^;]*employees/.test(rest) && "employee",
    (/shares in/.test(rest) || /and shares/i.test(note[0])) && "shares",
  ].filter(Boolean);
  return { unit: note[1]!.toLowerCase() as TableUnit["unit"], except: excepted.length ? new RegExp(excepted.join("|"), "i") : null };
}

/** A labelled row ("Net sales: 2018 $32,765; 2017 $31,657") with its table's unit after its figures, when it is one the unit is for. */
export function withTableUnit(row: string, unit: TableUnit | null): string {
  if (!unit) return row;
  const at = row.lastIndexOf(": ");
  const label = row.slice(0, at);
  const figures = row.slice(at + 2).split("; ");
  if (NEVER_SCALED.test(label) || unit.except?.test(label) || figures.every((f) => /%\)?$/.test(f))) return row;
  return `${row} ${unitSuffix(unit.unit)}`;
}

const unitSuffix = (unit: string) => `(in ${unit})`;

/** A row's unit as withTableUnit writes it, for reading the row's figures without it. */
export const ROW_UNIT = / \(in (?:millions|thousands|billions)\)$/;
