// A change asked ("Was there any drop in cash between year end and Q2?", "How did
// revenue change from 2022 to 2023?") is what lies between two figures of a table
// row. The local answer quotes the row as a labelled line ("Cash and cash
// equivalents: July 29, 2023 $1,093; January 28, 2023 $1,874; ...") and works the
// change out for the reader ("from January 28, 2023 to July 29, 2023: down $781, or
// 42%"): the subtraction and the percent are the answer asked, and both come from
// the quoted figures alone.
import { rowFiguresText, rowLabelText } from "../passages/labelled-rows";

/**
 * A change in a quantity asked: "any drop in", "did wages increase", "did it go down", "how did
 * revenue change", "compared with", "vs"; whether it held ("are margins consistent", "stable", "did it fluctuate").
 */
const CHANGE_ASKED =
  /\b(drop|decline|decrease|increase|rise|growth|grow|change|fall|shrink|differ(ence)?|compared?|comparison|vs|versus|year[- ]over[- ]year|yoy|fluctuat|volatil|consistent|stable|steady)\w*\b|\b(rose|fell|shrank)\b|\b(go|goes|gone|went|going) (up|down)\b|\bhow (much|far) (did|has|have)\b.*\b(go|gone|went|move|moved)\b/i;

export const asksChange = (question: string) => CHANGE_ASKED.test(question);

/**
 * A column head of a labelled row: a year ("2023") or a calendar date ("July 29, 2023"), after the
 * period it ends when the table has periods of different lengths ("Six months ended July 2, 2023").
 */
const HEADED_FIGURE =
  /^((?:([A-Z][a-z]+(?:-[a-z]+)?|\d{1,2}) (?:months|weeks) ended )?((?:19|20)\d\d|[A-Z][a-z]+ \d{1,2}, (?:19|20)\d\d)) (\$?\(?\$?-?\d[\d,]*(?:\.\d+)?\)?%?)$/;

interface Figure {
  head: string;
  /** the length of the period the figure ends in months ("three", "six"; "13 weeks" is "three"), when the table has several; "" for none */
  period: string;
  /** the year or the date the head ends with */
  end: string;
  /** the head's point in time, to tell which figure came first */
  time: number;
  value: number;
  decimals: number;
  money: boolean;
  percent: boolean;
}

function figureOf(written: string): Figure | null {
  const m = HEADED_FIGURE.exec(written);
  if (!m) return null;
  const [, head, period = "", end, amount] = m as unknown as [string, string, string | undefined, string, string];
  const digits = amount.replace(/[^\d.]/g, "");
  const negative = amount.includes("(") || amount.includes("-");
  const time = /^\d{4}$/.test(end) ? Date.UTC(Number(end), 11, 31) : Date.parse(`${end} UTC`);
  if (Number.isNaN(time) || !digits) return null;
  return {
    head,
    period: PERIOD_LENGTHS[period.toLowerCase()] ?? period.toLowerCase(),
    end,
    time,
    value: (negative ? -1 : 1) * Number(digits),
    decimals: digits.split(".")[1]?.length ?? 0,
    money: amount.includes("$"),
    percent: amount.endsWith("%"),
  };
}

/** The figures of a labelled row by column head, or null when its figures have no heads. */
function rowFigures(row: string): Figure[] | null {
  const text = rowFiguresText(row);
  if (text === null) return null;
  const figures = text.split("; ").map(figureOf);
  return figures.length >= 2 && figures.every((f) => f !== null) ? (figures as Figure[]) : null;
}

const YEARS = /\b(?:19|20)\d\d\b/g;

/** A period counted in weeks, as the months it spans: a retailer's quarter is 13 (or 14) weeks, its year 52 (or 53). */
const PERIOD_LENGTHS: Record<string, string> = {
  "13": "three",
  thirteen: "three",
  "14": "three",
  fourteen: "three",
  "26": "six",
  "39": "nine",
  "52": "twelve",
  "53": "twelve",
  "fifty-two": "twelve",
  "fifty-three": "twelve",
};

/** How a question names a period's length. */
const PERIOD_NAMES: Record<string, RegExp> = {
  three: /\b(three|3)[- ]months?\b|\bquarter(ly)?\b|\bQ[1-4]\b/i,
  six: /\b(six|6)[- ]months?\b|\b(first |1st )?half\b|\bH[12]\b/i,
  nine: /\b(nine|9)[- ]months?\b/i,
  twelve: /\b(twelve|12)[- ]months?\b|\b(full|whole)[- ]year\b|\bannual\b/i,
};

/**
 * The two figures a change is read between: those of the two dates the question names ("between
 * January 28, 2023 and July 29, 2023"), or of the two heads its years name ("from 2021 to 2023");
 * otherwise the latest and the one before it (a statement's current period and the period it is
 * compared with).
 */
function comparedFigures(all: Figure[], question: string): [Figure, Figure] | null {
  // a table of periods of different lengths: the period the question names ("the first six months",
  // "the half year"), else the first (a quarterly report's quarter)
  const periods = [...new Set(all.map((f) => f.period))];
  const asked = periods.find((p) => p && PERIOD_NAMES[p]?.test(question)) ?? periods[0];
  const figures = all.filter((f) => f.period === asked);
  if (figures.length < 2) return null;
  const dates = figures.filter((f) => !/^\d{4}$/.test(f.end) && question.includes(f.end));
  const years = new Set(question.match(YEARS));
  const named = dates.length === 2 ? dates : figures.filter((f) => years.has(f.end.slice(-4)));
  const pair = named.length === 2 ? named : [...figures].sort((a, b) => b.time - a.time).slice(0, 2);
  const [later, earlier] = [...pair].sort((a, b) => b.time - a.time) as [Figure, Figure];
  return later.time === earlier.time ? null : [earlier, later];
}

const written = (value: number, decimals: number, money: boolean) =>
  `${money ? "$" : ""}${value.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals })}`;

/** A percent change as a reader says it: whole from 10% up ("42%"), to a tenth below ("1.3%"). */
const percentWritten = (share: number) => `${share >= 10 ? Math.round(share) : Math.round(share * 10) / 10}%`;

/**
 * What a row's figures say of the change asked, to follow the quoted row: " (from January 28, 2023
 * to July 29, 2023: down $781, or 42%)"; a row of percents changes by points. Null for a row
 * without column heads or with one figure, where no change can be read, and for figures below nothing.
 */
export function rowChange(row: string, question: string): string | null {
  const figures = rowFigures(row);
  const pair = figures && comparedFigures(figures, question);
  if (!pair) return null;
  const [from, to] = pair;
  // figures below nothing are a loss's or a decrease's ("Decrease in cash: $(762); $(2,053)"): their change reads backwards
  if (from.value < 0 || to.value < 0) return null;
  const decimals = Math.max(from.decimals, to.decimals);
  const difference = Math.round((to.value - from.value) * 10 ** decimals) / 10 ** decimals;
  // one period's two ends: "from Three months ended July 3, 2022 to July 2, 2023"
  const span = `from ${from.head} to ${from.period ? to.end : to.head}`;
  if (difference === 0) return ` (${span}: unchanged)`;
  const direction = difference < 0 ? "down" : "up";
  const size = Math.abs(difference);
  if (from.percent || to.percent)
    return ` (${span}: ${direction} ${written(size, decimals, false)} percentage point${size === 1 ? "" : "s"})`;
  const amount = written(size, decimals, from.money || to.money);
  // a percent of nothing means nothing
  return from.value > 0
    ? ` (${span}: ${direction} ${amount}, or ${percentWritten((size / from.value) * 100)})`
    : ` (${span}: ${direction} ${amount})`;
}

/**
 * Whether a labelled row is a part of another: the same label over the same fiscal years, each
 * figure of the other as large or larger, of the same sign, one larger. A segment's "Revenue:
 * 2023 $42,794; ..." is part of the company's "Revenue: January 28, 2023 $46,298; ...": the whole
 * of same-signed parts is at least each of them.
 */
export function isPartOf(part: string, whole: string): boolean {
  // the same label in any case: "Operating income", "Operating Income"
  if (rowLabelText(part).toLowerCase().trim() !== rowLabelText(whole).toLowerCase().trim()) return false;
  const [a, b] = [rowFigures(part), rowFigures(whole)];
  if (!a || !b || a.length !== b.length) return false;
  const year = (f: Figure) => f.end.slice(-4);
  if (a.some((f, i) => year(f) !== year(b[i]!) || f.period !== b[i]!.period || f.percent || b[i]!.percent)) return false;
  const sameSign = a.every((f, i) => Math.sign(f.value) === Math.sign(b[i]!.value));
  return (
    sameSign && a.every((f, i) => Math.abs(b[i]!.value) >= Math.abs(f.value)) && a.some((f, i) => Math.abs(b[i]!.value) > Math.abs(f.value))
  );
}
