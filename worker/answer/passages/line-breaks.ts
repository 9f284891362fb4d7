// Words a PDF broke at line ends ("execu- tion"): found whole when matching, made whole when quoted.

const CONJUNCTION = /^(and|or|to|nor)$/; // "short- and long-term"

/**
 * The words broken at a line end in a text ("execu- tion": start "execu", end "tion"), found from
 * each "- " (one pattern over the whole text tried a run of letters at every position).
 */
function* brokenWords(text: string): Generator<{ at: number; start: string; end: string }> {
  for (let dash = text.indexOf("- "); dash >= 0; dash = text.indexOf("- ", dash + 2)) {
    const start = /\p{L}+$/u.exec(text.slice(Math.max(0, dash - 40), dash))?.[0];
    const end = start && /^\p{Ll}+/u.exec(text.slice(dash + 2, dash + 42))?.[0];
    if (start && end && !CONJUNCTION.test(end)) yield { at: dash - start.length, start, end };
  }
}

const isLetter = (char: string | undefined) => char !== undefined && /\p{L}/u.test(char);

/** A passage (in lower case) writes this word whole somewhere. */
function writesWhole(lower: string, word: string): boolean {
  for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1))
    if (!isLetter(lower[at - 1]) && !isLetter(lower[at + word.length])) return true;
  return false;
}

/**
 * How a passage spells the words broken at its line ends: in lower case, and whether its PDF
 * breaks words anywhere ("execu- tion" beside "execution", as the 1040 instructions do) rather
 * than only at a compound's own hyphen ("self- employed", as Pub 17 does).
 */
function lineBreaks(passage: string): { lower: string; breaksWords: boolean } {
  const lower = passage.toLowerCase();
  const breaksWords = [...brokenWords(passage)].some(({ start, end }) => writesWhole(lower, `${start}${end}`.toLowerCase()));
  return { lower, breaksWords };
}

/**
 * A quote with the words its PDF broke at line ends whole ("execu- tion" -> "execution") where
 * its passage writes them whole or breaks words, else with their hyphen ("self- employed" ->
 * "self-employed"). Only for what is quoted: it reads the whole passage.
 */
export function withWholeWords(quote: string, passage: string): string {
  const breaks = [...brokenWords(quote)];
  if (breaks.length === 0) return quote;
  const { lower, breaksWords } = lineBreaks(passage);
  let whole = quote;
  // from the last break back, so the positions found stay true
  for (const { at, start, end } of breaks.reverse()) {
    const joined = writesWhole(lower, `${start}${end}`.toLowerCase()) || (breaksWords && !passage.includes(`${start}-${end}`));
    whole = `${whole.slice(0, at)}${start}${joined ? "" : "-"}${end}${whole.slice(at + start.length + 2 + end.length)}`;
  }
  return whole;
}

/** A text with every word broken at a line end joined ("De- cember 31" -> "December 31"): for reading its figures. */
export function joinedBrokenWords(text: string): string {
  const flat = text.replace(/-\s*\n\s*/g, "- ");
  let joined = flat;
  for (const { at, start, end } of [...brokenWords(flat)].reverse())
    joined = `${joined.slice(0, at)}${start}${end}${joined.slice(at + start.length + 2 + end.length)}`;
  return joined;
}

/**
 * A sentence in lower case for finding question terms in, with each word its PDF broke at a line
 * end also written whole: "the amount with- held" holds "withheld" as well as "with" and "held".
 */
export function forMatching(sentence: string): string {
  const lower = sentence.toLowerCase();
  const whole = [...brokenWords(lower)].map(({ start, end }) => start + end);
  return whole.length ? `${lower} ${whole.join(" ")}` : lower;
}
