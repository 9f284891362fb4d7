// Up to three follow-up questions under an answer. With a model, it proposes
// them from the question and the answer; the local responder (and a model that
// gives none) builds them from the headings in the cited passages: the short
// verbless phrases documents set before a section ("How to get a TIN.",
// "Exemption from FATCA reporting code.").
import type { ChatProvider, Passage } from "../providers/llm/types";
import { queryTerms } from "./question/terms";
import { sentencePieces } from "./passages/sentences";

export const MAX_SUGGESTIONS = 3;
const MAX_SUGGESTION_CHARS = 120;

// words that make a short sentence a statement rather than a heading
const CLAUSE_WORDS = new Set(
  (
    "is are was were be been being am must may might can could will would shall should do does did has have had " +
    "get gets got give gives gave take takes took make makes made pay pays paid need needs use uses mean means " +
    "include includes apply applies receive receives start starts begin begins " +
    "you your we our it its this that these those they their he she there here"
  ).split(" "),
);
const QUESTION_START = /^(how|what|when|where|who|whom|which|why|can|do|does|is|are|should)\b/i;

/** A heading among a passage's sentences: 2-8 words, a capital first, no digits or inner stops, no verb-like word. */
export function isSectionHeading(sentence: string): boolean {
  const text = sentence.replace(/[.:?]$/, "").trim();
  const words = text.split(/\s+/);
  if (words.length < 2 || words.length > 8) return false;
  // digits, list letters ("G—A ..."), abbreviations and inner stops mark list items and run-together lines
  if (!/^\p{Lu}/u.test(text) || /[\d,;:()"“”*.—/]/.test(text)) return false;
  if (words.filter((w) => /\p{L}{3,}/u.test(w)).length < 2) return false;
  if (!QUESTION_START.test(text) && !words.some((w) => /\p{L}{5,}/u.test(w))) return false; // "See Pub."
  // "How to get a TIN", "Who must file": a wh-word heading may hold a verb
  return /^(how|what|when|where|who|why|which)\b/i.test(text) || !words.some((w) => CLAUSE_WORDS.has(w.toLowerCase()));
}

/** Verbs a heading opens with to tell the reader what to do ("Keep the receipts for the finance team"). */
const IMPERATIVES = new Set(
  "apply ask attach call check choose claim complete contact enter file fill follow get give include keep list mail make note notify pay provide read report request return review save see select send sign submit take update use".split(
    " ",
  ),
);

/**
 * A heading as a question a person would ask: "How to get a TIN" -> "How do I get a TIN?", "Keep the
 * receipts for the finance team" -> "What does Handbook.pdf say about how to keep the receipts for
 * the finance team?", "Remote work" -> "What does Handbook.pdf say about remote work?".
 */
function asQuestion(heading: string, fileName: string): string {
  const text = heading.replace(/[.:?]$/, "").trim();
  if (/^how to /i.test(text)) return `How do I ${text.slice("how to ".length)}?`;
  if (QUESTION_START.test(text)) return `${text}?`;
  // sentence case reads as a phrase ("exemption from FATCA reporting code"); Title Case stays a title
  const sentenceCase = /^\p{Lu}\p{Ll}*$/u.test(text.split(" ")[0]!) && !/\s\p{Lu}\p{Ll}/u.test(text);
  const first = text.split(" ")[0]!.toLowerCase();
  if (IMPERATIVES.has(first)) return `What does ${fileName} say about how to ${first}${text.slice(first.length)}?`;
  const phrase = sentenceCase ? text[0]!.toLowerCase() + text.slice(1) : text;
  return `What does ${fileName} say about ${phrase}?`;
}

/** Questions from the headings of the cited passages, skipping what was just asked. */
export function headingSuggestions(question: string, passages: readonly Passage[]): string[] {
  const asked = new Set(queryTerms(question));
  const seen = new Set<string>();
  const suggestions: string[] = [];
  for (const passage of passages) {
    for (const sentence of sentencePieces(passage.text)) {
      if (!isSectionHeading(sentence)) continue;
      const terms = queryTerms(sentence);
      const key = terms.join(" ");
      if (!terms.length || seen.has(key) || terms.every((t) => asked.has(t))) continue;
      seen.add(key);
      suggestions.push(asQuestion(sentence, passage.fileName));
      if (suggestions.length === MAX_SUGGESTIONS) return suggestions;
    }
  }
  return suggestions;
}

const SUGGEST_PROMPT =
  "You suggest follow-up questions. Given a user's question about their documents and the answer they got, " +
  `write up to ${MAX_SUGGESTIONS} short follow-up questions the user may want to ask next, answerable from the same documents. ` +
  "One question per line, nothing else: no numbering, no quotes.";

/** The model's follow-up questions, cleaned; [] when it gives none or fails. */
async function modelSuggestions(complete: NonNullable<ChatProvider["complete"]>, question: string, answer: string): Promise<string[]> {
  try {
    const text = await complete(SUGGEST_PROMPT, `Question: ${question}\n\nAnswer: ${answer.slice(0, 2000)}`, 150);
    return text
      .split("\n")
      .map((line) =>
        line
          .replace(/^\s*(?:[-*•]|\d+[.)])\s*/, "")
          .replace(/^["“]|["”]$/g, "")
          .trim(),
      )
      .filter((line) => line.length >= 8 && line.length <= MAX_SUGGESTION_CHARS && line.endsWith("?"))
      .slice(0, MAX_SUGGESTIONS);
  } catch (err) {
    console.warn("follow-up suggestions failed", err);
    return [];
  }
}

/** Follow-up questions for an answer that cites `cited` (none when it cites nothing). */
export async function followUpQuestions(
  provider: Pick<ChatProvider, "complete">,
  question: string,
  answer: string,
  cited: readonly Passage[],
): Promise<string[]> {
  if (cited.length === 0) return [];
  const fromModel = provider.complete ? await modelSuggestions(provider.complete, question, answer) : [];
  return fromModel.length ? fromModel : headingSuggestions(question, cited);
}
