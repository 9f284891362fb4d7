// The rewrites of real corpus sentences a reader allows, which the check must pass (#43): currency,
// percent and month abbreviations written out, grouping dropped, number words, reordered, one clause
// kept, reworded, two sentences joined, verbatim (bench/verify-set.ts builds the labelled set).
import { of, replaceAt, pick, SHORT_MONTH, WORDS, UNIT, figuresIn, type Change } from "./verify-set-changes";

// ---- the faithful rewrites ----------------------------------------------------------------------

export const dollarsWritten: Change = (s, random) => {
  const targets = of(s, ["money"]).filter((f) => f.text.startsWith("$"));
  if (!targets.length) return null;
  const f = pick(targets, random);
  const bare = f.text.replace(/^\$\s?/, "");
  const text = /(?:thousand|million|billion|trillion)$/.test(bare) ? bare : `${bare} dollars`;
  return { sentence: replaceAt(s, f, text), change: `${f.text} -> ${text}` };
};

export const percentWritten: Change = (s, random) => {
  const targets = of(s, ["percent"]);
  if (!targets.length) return null;
  const f = pick(targets, random);
  const text = f.text.endsWith("%") ? `${f.text.slice(0, -1)} percent` : `${f.text.replace(/ percent$/, "")}%`;
  return { sentence: replaceAt(s, f, text), change: `${f.text} -> ${text}` };
};

export const monthAbbreviated: Change = (s, random) => {
  const targets = of(s, ["date"]).filter((f) => SHORT_MONTH[f.text.split(" ")[0]!]);
  if (!targets.length) return null;
  const f = pick(targets, random);
  const month = f.text.split(" ")[0]!;
  const text = f.text.replace(month, SHORT_MONTH[month]!);
  return { sentence: replaceAt(s, f, text), change: `${f.text} -> ${text}` };
};

export const groupingDropped: Change = (s) => {
  if (!/\d,\d{3}/.test(s)) return null;
  const changed = s.replace(/(\d{1,3})((?:,\d{3})+)(?!\d)/g, (_, head: string, rest: string) => head + rest.replace(/,/g, ""));
  return { sentence: changed, change: "grouping commas dropped" };
};

const NUMBER_BEFORE_UNIT = new RegExp(
  String.raw`(?<![\d.,$])\b(\d{1,2}|${WORDS.join("|")})([ -])(${UNIT.slice(3, -1)}|percent|times)\b`,
  "g",
);
/** "3 years" -> "three years", or "two weeks" -> "2 weeks". */
export const numberAsWord: Change = (s, random) => {
  const places = [...s.matchAll(NUMBER_BEFORE_UNIT)].filter((m) => !/^\d+$/.test(m[1]!) || Number(m[1]) <= 20);
  if (!places.length) return null;
  const m = pick(places, random);
  const word = /^\d+$/.test(m[1]!) ? WORDS[Number(m[1])]! : String(WORDS.indexOf(m[1]!.toLowerCase()));
  if (word === "-1") return null;
  const text = `${word}${m[2]}${m[3]}`;
  return { sentence: s.slice(0, m.index) + text + s.slice(m.index + m[0].length), change: `${m[0]} -> ${text}` };
};

const COMMON_OPENERS = new Set(
  "the our we net total this these it its you your a an there such cash sales revenue income operating gross capital if in for as when they he she each any all however also under after before during because".split(
    " ",
  ),
);
const lowerFirst = (s: string) => (COMMON_OPENERS.has(s.split(" ")[0]!.toLowerCase()) ? s[0]!.toLowerCase() + s.slice(1) : s);
const upperFirst = (s: string) => s[0]!.toUpperCase() + s.slice(1);
/** An opening "In 2018, ..." moved to the end, or a closing "... in fiscal 2023." to the front. */
export const reordered: Change = (s) => {
  const front = s.match(/^(In|During|For|As of|Through|By|At) ([^,]{3,40}), (.{20,})\.$/);
  if (front && /\d/.test(front[2]!)) {
    return { sentence: `${upperFirst(front[3]!)} ${front[1]!.toLowerCase()} ${front[2]}.`, change: "opening phrase moved to the end" };
  }
  const back = s.match(/^(.{20,}?),? (in|during|for|as of) ((?:fiscal |the (?:first|second|third|fourth) quarter of )?(?:19|20)\d\d)\.$/);
  if (back)
    return { sentence: `${upperFirst(back[2]!)} ${back[3]}, ${lowerFirst(back[1]!)}.`, change: "closing phrase moved to the front" };
  return null;
};

const CLAUSE_BREAKS =
  /; |, and |, but |, while |, which |, primarily |, partially |, partly |, reflecting |, compared (?:to|with) |, as |, including |, except /;
/** The sentence's first clause, when it is a statement of its own; with figures when `figures`. */
function firstClause(s: string, figures: boolean): string | null {
  const parts = s.split(CLAUSE_BREAKS);
  if (parts.length < 2) return null;
  const clause = parts[0]!.replace(/[,:]$/, "");
  // a list's last ", and" ("healthcare, pet care, cheese, and coffee") ends no statement
  if (s.startsWith(`${clause}, and `) && clause.includes(", ")) return null;
  // a condition ("If you made joint payments for 2024") states nothing on its own
  if (/\b(?:If|When|Although|Unless|Because|Since|Before|After|Once|Whether)\b/.test(clause.split(" ").slice(0, 4).join(" "))) return null;
  const open = (clause.match(/\(/g) ?? []).length !== (clause.match(/\)/g) ?? []).length;
  if (open || clause.split(" ").length < 6 || (figures && !figuresIn(clause).length) || (!figures && /\d/.test(clause))) return null;
  return `${clause}.`;
}
export const clauseKept: Change = (s) => {
  const clause = firstClause(s, true);
  return clause ? { sentence: clause, change: "first clause kept" } : null;
};

const SYNONYMS: [RegExp, string][] = [
  [/\bapproximately\b/, "about"],
  [/\bpurchased\b/, "bought"],
  [/\bpurchase\b/, "buy"],
  [/\b(we|you|they|he|she) received\b/, "$1 got"],
  [/\breceive\b/, "get"],
  [/\bincreased\b/, "rose"],
  [/\bdecreased\b/, "fell"],
  [/\bprimarily\b/, "mainly"],
  [/\badditional\b/, "extra"],
  [/\bare required to\b/, "have to"],
  [/\bis required to\b/, "has to"],
  [/\brequired\b/, "needed"],
  [/\brequire\b/, "need"],
  [/\b(?:when )?compared (?:to|with)\b/, "versus"],
  [/\bgenerated\b/, "produced"],
  [/\bexpect to\b/, "plan to"],
  [/\bexpect\b/, "anticipate"],
  [/\breported\b/, "recorded"],
  [/\bin order to\b/, "to"],
  [/\bhowever, /i, ""],
  [/\bIn addition, /, ""],
  [/\bGenerally, /, ""],
  [/\bindividuals\b/, "people"],
  [/\bobtain\b/, "get"],
  [/\bprovide\b(?! for)/, "give"],
  [/\bsubmit\b/, "send"],
  [/\bassist\b/, "help"],
  [/\bcommence\b/, "begin"],
  [/\btherefore\b/, "so"],
  [/\bcan[’']t\b/, "cannot"],
  [/\bdoes not\b/, "doesn't"],
  [/\bdo not\b/, "don't"],
  [/\bdon[’']t\b/, "do not"],
  [/\bis not\b/, "isn't"],
];
/** The sentence in a reader's own words: every synonym of the list that applies. */
export const reworded: Change = (s) => {
  const used: string[] = [];
  let out = s;
  for (const [pattern, word] of SYNONYMS)
    if (pattern.test(out)) {
      used.push(`${out.match(pattern)![0].trim()} -> ${word || "(dropped)"}`);
      out = out.replace(pattern, word);
    }
  return used.length ? { sentence: upperFirst(out), change: used.join("; ") } : null;
};
export const verbatim: Change = (s) => ({ sentence: s, change: "verbatim" });
/** Two sentences that follow each other on the page, joined into one as a summary would ("A; b."). */
export const joined: Change = (s, _random, _passage, next) =>
  next ? { sentence: `${s.slice(0, -1)}; ${lowerFirst(next)}`, change: "next sentence joined" } : null;

/** A sentence without figures in a reader's words: one clause kept, or reworded. */
export const wordsReworded: Change = (s, random) => {
  const clause = firstClause(s, false);
  const words = reworded(clause ?? s, random, "");
  if (words) return { sentence: words.sentence, change: clause ? `first clause kept; ${words.change}` : words.change };
  return clause ? { sentence: clause, change: "first clause kept" } : null;
};
