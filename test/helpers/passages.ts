// Passages as retrieval gives them to a writer, and the local writer's lead, for tests of the
// answer engine.
import type { Passage } from "../../worker/providers/llm/types";
import { localAnswer } from "../../worker/answer/writer/local-writer";

/** A passage of one page of a file, starting at `charStart` in its page. */
export const passage = (page: number, text: string, fileName = "doc.pdf", charStart = 0): Passage => ({
  chunkId: `${fileName}:${page}:${charStart}`,
  documentId: fileName,
  fileName,
  page,
  text,
  charStart,
  charEnd: charStart + text.length,
});

/** The local writer's answer to a signed-in user. */
export const answer = (question: string, passages: Passage[]) => localAnswer({ question, passages, history: [], anonymous: false });

/** The answer's lead without its citation. */
export const lead = (question: string, passages: Passage[]) =>
  answer(question, passages)
    .split("\n")[0]!
    .replace(/\s*\[\d+\]$/, "");
