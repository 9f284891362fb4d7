// A form's numbered lines read as text ("11 Subtract line 10 from line 9 . . . . 11"), each a
// labelled line of its own.

/** Dot leaders: a form line's label runs to its number at the right margin ("...adjusted gross income . . . . 11"). */
const LEADERS = /\S(?:\s?\.){2,}\s*\d/;
/**
 * A numbered line of a form read as text: its number, its label, dot leaders and the number again
 * ("11 Subtract line 10 from line 9. This is your adjusted gross income . . . . 11"), or a sub-line's
 * letter with its full number at the end ("b Taxable interest . . . . 2b").
 */
const FORM_LINE =
  /(?<![\p{L}\p{N}.,$])(?:(\d{1,2}[a-z]?)\.?\s+((?:(?!(?:\s?\.){2})[^]){2,200}?)(?:\s?\.){2,}\s*\1\.?|([a-z])\s+((?:(?!(?:\s?\.){2})[^]){2,200}?)(?:\s?\.){2,}\s*(\d{1,2})\3)(?![\p{Ll}\p{N}])/gu;
/** A line whose sub-lines follow it, without leaders ("25 Federal income tax withheld from:"), at the end of the text before a sub-line. */
const PARENT_LINE = /(?<![\p{L}\p{N}.,$])(\d{1,2})\s+([^.]{3,80}?)\s*$/u;

/**
 * A form's numbered lines, each as a labelled line ("Line 11: Subtract line 10 from line 9. This is
 * your adjusted gross income", "Line 25a: Federal income tax withheld from: Form(s) W-2"), and the
 * stretches of text between them, each split into sentences as any other. A line fills the width of
 * the form, so no sentence runs across one: the margin's "Direct deposit? See instructions." after
 * line 35a and "Third Party Designee Do you want..." after line 38 are read apart.
 */
export function formLines(text: string): { lines: string[]; stretches: string[] } {
  if (!LEADERS.test(text)) return { lines: [], stretches: [text] };
  const lines: string[] = [];
  const parents = new Map<string, string>();
  const stretches: string[] = [];
  let from = 0;
  for (const m of text.matchAll(FORM_LINE)) {
    const before = text.slice(from, m.index);
    const number = m[1] ?? `${m[5]}${m[3]}`;
    let label = (m[2] ?? m[4]!).trim();
    const subLine = m[5];
    if (subLine) {
      // a letter found in running text ("...get a Form W-2, see instructions. 1a Total amount..."): the line starts at its number
      const own = label.lastIndexOf(` ${number} `);
      if (own >= 0) label = label.slice(own + number.length + 2);
      const parent = PARENT_LINE.exec(before);
      if (parent && parent[1] === subLine) parents.set(subLine, parent[2]!);
      const parentLabel = parents.get(subLine);
      if (parentLabel) label = `${parentLabel} ${label}`;
    }
    stretches.push(before);
    from = m.index + m[0].length;
    // a numbered label of one word is a form's box or column, not a line to quote
    if (subLine || label.includes(" ")) lines.push(`Line ${number}: ${label}`);
  }
  stretches.push(text.slice(from));
  return { lines, stretches: stretches.filter((stretch) => stretch.trim()) };
}
