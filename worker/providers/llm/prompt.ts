// What a real model is told. The users are business people; answers must be
// grounded in their documents and cite only the numbered sources given.
import { withColumnHeads } from "../../answer/passages/column-heads";
import type { ChatProvider, ChatTurnInput } from "./types";

export const SYSTEM_PROMPT = `You are DocChat, an assistant for business professionals working on HR, tax, legal, business development and strategy questions.
Answer from the numbered sources taken from the user's own documents. After each statement that uses a source, cite it as [n] with the source's number.
Every sentence that states a figure (an amount, a percentage, a count, a year, a date, a duration) or a quote must carry the [n] of the source that states it, and give the figure exactly as that source writes it.
Cite only numbers that appear in the source list; never invent a citation, a figure or a quote. Each answer is checked against the pages it cites, and a figure not on its cited page is marked to the reader.
If the sources do not answer the question, say first: "I could not find this in your documents." Then you may give a short general answer, clearly labelled as general knowledge and without citations.
Start with one sentence that directly answers the question (the figure, the date, yes or no, the rule), with its [n]. Then give the details that matter, each with its [n], in short paragraphs or bullet points.
Be concise and precise. Quote exact figures and dates from the sources. You do not give binding legal or tax advice; suggest checking with a qualified professional when the stakes are high.`;

const MAX_HISTORY_TURNS = 6;

export function sourcesBlock(input: ChatTurnInput): string {
  if (input.passages.length === 0) {
    return input.documentNames?.length
      ? `Sources: none were found in this chat's documents (${input.documentNames.join(", ")}) for this question.`
      : "Sources: none were found in the user's documents for this question.";
  }
  return `Sources:\n${input.passages.map((p, i) => `[${i + 1}] ${p.fileName}, page ${p.page}:\n${withColumnHeads(p)}`).join("\n\n")}`;
}

export function chatMessages(input: ChatTurnInput): { role: "system" | "user" | "assistant"; content: string }[] {
  return [
    { role: "system", content: SYSTEM_PROMPT },
    ...input.history.slice(-MAX_HISTORY_TURNS * 2),
    { role: "user", content: `${sourcesBlock(input)}\n\nQuestion: ${input.question}` },
  ];
}

export const TITLE_PROMPT =
  "Write a title of at most six words for a chat that starts with the question below. Reply with the title only, no quotes or punctuation at the end.";

/** The local title: the first question, shortened at a word boundary. */
export function titleFromQuestion(question: string, max = 60): string {
  const text = question.replace(/\s+/g, " ").trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > 20 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, "")}…`;
}

export function cleanTitle(raw: string, question: string): string {
  const title = raw
    .replace(/^["'\s]+|["'\s.]+$/g, "")
    .split("\n")[0]!
    .trim();
  return title && title.length <= 80 ? title : titleFromQuestion(question);
}

/** A chat's title: written by the model when there is one, else the first question shortened. */
export async function chatTitle(provider: Pick<ChatProvider, "complete">, question: string): Promise<string> {
  if (!provider.complete) return titleFromQuestion(question);
  try {
    return cleanTitle(await provider.complete(TITLE_PROMPT, question, 24), question);
  } catch {
    return titleFromQuestion(question);
  }
}
