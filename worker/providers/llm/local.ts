// The local default: a deterministic extractive responder. It quotes the
// best-matching sentence of each of the retrieved passages that match the
// question best (best first, one per passage), each with its [n] citation, and
// streams them word by word. With nothing relevant it says so plainly; it never
// writes anything that is not in the documents.
import { queryTerms } from "../../services/retrieval";
import type { ChatProvider, ChatTurnInput } from "./types";

/** One quote per source, from this many distinct sources at most. */
const MAX_SOURCES = 5;
const MAX_SENTENCE_CHARS = 400;

interface Candidate {
  n: number;
  order: number;
  text: string;
  score: number;
}

export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=["'(\[]?[\p{Lu}\p{N}])/u)
    .map((s) => s.trim())
    .filter((s) => s.length >= 20);
}

/**
 * The best-matching sentence of each of the best-matching sources, best first:
 * one quote per source, so the answer points at up to MAX_SOURCES distinct
 * places. Sentences are scored by the rarity of the question terms they contain.
 */
export function pickSentences(question: string, input: Pick<ChatTurnInput, "passages">): Candidate[] {
  const terms = queryTerms(question);
  if (terms.length === 0) return [];
  const candidates: Omit<Candidate, "score">[] = [];
  input.passages.forEach((p, i) => splitSentences(p.text).forEach((text) => candidates.push({ n: i + 1, order: candidates.length, text })));
  const lower = candidates.map((c) => c.text.toLowerCase());
  const idf = new Map(terms.map((t) => [t, Math.log(1 + candidates.length / (1 + lower.filter((s) => s.includes(t)).length))]));
  const best = new Map<number, Candidate>();
  candidates.forEach((c, i) => {
    // rare matched terms count most; earlier (better-ranked) sources break ties
    const score =
      terms.reduce((s, t) => s + (new RegExp(`(^|[^\\p{L}\\p{N}])${t}`, "u").test(lower[i]!) ? idf.get(t)! : 0), 0) - c.n * 0.01;
    if (score > 0 && score > (best.get(c.n)?.score ?? 0)) best.set(c.n, { ...c, score });
  });
  return [...best.values()].sort((a, b) => b.score - a.score).slice(0, MAX_SOURCES);
}

function clip(sentence: string): string {
  return sentence.length <= MAX_SENTENCE_CHARS ? sentence : `${sentence.slice(0, MAX_SENTENCE_CHARS).replace(/\s+\S*$/, "")}…`;
}

export function localAnswer(input: ChatTurnInput): string {
  const picked = pickSentences(input.question, input);
  if (picked.length === 0) {
    if (input.anonymous) {
      return "I could not find this in your documents: you have none yet. Log in and upload a PDF, then ask about it and I will answer with the page it came from.";
    }
    return input.passages.length === 0
      ? "I could not find this in your documents. Upload or attach the PDF that covers it, or try other words."
      : "I could not find a passage that answers this in your documents. Try other words, or attach the document that covers it.";
  }
  const lines = picked.map((c) => `- ${clip(c.text)} [${c.n}]`);
  return `Here is what your documents say:\n\n${lines.join("\n")}`;
}

export function localProvider(wordDelayMs = 8): ChatProvider {
  return {
    mode: "local",
    async *streamAnswer(input) {
      const words = localAnswer(input).split(/(?<=\s)/);
      for (const word of words) {
        if (wordDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, wordDelayMs));
        yield word;
      }
    },
    complete: null,
  };
}
