// A table whose rows are a status and its age brackets, each with one amount (the filing
// requirements: "Single under 65 $14,600 65 or older $16,550 Married filing jointly under 65 (both
// spouses) $29,200 ..."), read as one labelled line per bracket ("Single, under 65: $14,600"). Read
// as an ordinary row, an age is a figure and the amounts lose their brackets ("Single under: 65;
// $14,600; 65"). The brackets come before their amounts ("under 65 65 or older $10,400 11,950") or
// each before its own; either way the n-th amount after a status is its n-th bracket's.

/** An age bracket: "under 65", "65 or older", "any age", with what it applies to: "(both spouses)". */
const BRACKET = String.raw`(?:under \d{2}|\d{2} or (?:older|over)|any age)(?: \([^()]{1,30}\))?`;
/** An amount: "$14,600", "11,950", "$5". */
const AMOUNT = String.raw`\$\s?\d[\d,]*|\d{1,3}(?:,\d{3})+`;
const ANY_BRACKET = new RegExp(BRACKET);
const PIECES = new RegExp(`(?<![\\p{L}\\d,$])(?:(${BRACKET})|(${AMOUNT}))(?![\\d,]*\\d)`, "gu");

/** The status a bracket belongs to: the capitalised phrase before it ("... at least . . . Single (see the instructions for line 1)" -> "Single"). */
function statusBefore(text: string): string | null {
  const plain = text
    .replace(/\s*\([^()]*\s[^()]*\)/g, "") // "(see the instructions for line 1)", not "widow(er)"
    .replace(/[*.\s]+$/, "");
  const phrase = /\p{Lu}[\p{L}()’'-]*(?: [\p{Ll}()’'-]+)*$/u.exec(plain);
  return phrase ? phrase[0] : null;
}

/** Words of the column heads before a table's first status kept for matching ("... THEN file a return if your gross income was at least"). */
const HEAD_WORDS = 30;

/**
 * What the amounts are, as the last head of an IRS decision table says it ("IF your filing status
 * is... AND ... you were... THEN file a return if your gross income was at least...") with a space
 * after it; "" for a table with no such head.
 */
function amountHead(heads: string): string {
  const then = /\bTHEN\b(.*)$/
    .exec(heads)?.[1]
    ?.replace(/\*/g, "")
    .replace(/(?:\s*\.){2,}/g, " ")
    .replace(/\s+/g, " ")
    .replace(/[\s.]+$/, "")
    .trim();
  return then ? `${then} ` : "";
}

/**
 * The rows of a table of age brackets, "Status, bracket: amount", and the table's column heads
 * (the words before its first status, which every row answers to, or in the sentence `before` it);
 * no rows when the text is no such table (two rows at least).
 */
export function ageBracketRows(table: string, before = ""): { heads: string; rows: string[] } {
  // most tables have no age brackets: a bracket's words first
  if (!ANY_BRACKET.test(table)) return { heads: "", rows: [] };
  const text = table.replace(/\s+/g, " ");
  const rows: string[] = [];
  let status: string | null = null;
  let heads = "";
  let brackets: string[] = [];
  let dollars = false;
  /** what the amounts are (amountHead) */
  let what: string | undefined;
  let end = 0;
  for (const m of text.matchAll(PIECES)) {
    const between = text.slice(end, m.index);
    end = m.index + m[0].length;
    // words between two pieces start another status (or end the table): its brackets come next
    if (/\p{L}{2}/u.test(between)) {
      brackets = [];
      if (m[1]) status = statusBefore(between);
      if (m[1] && status && !rows.length && !heads)
        heads = between.slice(0, between.lastIndexOf(status)).split(" ").slice(-HEAD_WORDS).join(" ").trim();
    }
    if (m[1]) {
      brackets.push(m[1]);
      continue;
    }
    const bracket = brackets.shift();
    if (!bracket || !status) continue;
    const amount = m[2]!.replace(/\s/g, "");
    if (amount.startsWith("$")) dollars = true;
    // the heads are known by the first row; they may end the sentence before the table ("THEN file a
    // return if your gross income was at least.")
    what ??= amountHead(heads) || amountHead(before);
    rows.push(`${status}, ${bracket}: ${what}${dollars && !amount.startsWith("$") ? `$${amount}` : amount}`);
  }
  return rows.length >= 2 ? { heads, rows } : { heads: "", rows: [] };
}
