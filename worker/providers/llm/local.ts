// The local default provider: the extractive writer (answer/writer/local-writer.ts) streamed a few
// words at a time, paced like a model writing. No keys, no network.
import { localAnswer } from "../../answer/writer/local-writer";
import type { ChatProvider } from "./types";

/** Words per stream frame: the pace a reader sees is the same, with a third of the frames to send. */
const WORDS_PER_PIECE = 3;

export function localProvider(wordDelayMs = 8): ChatProvider {
  return {
    mode: "local",
    async *streamAnswer(input) {
      const words = localAnswer(input).split(/(?<=\s)/);
      for (let i = 0; i < words.length; i += WORDS_PER_PIECE) {
        // paced like a model writing, but the first words go out at once: the answer is ready
        if (wordDelayMs > 0 && i > 0) await new Promise((resolve) => setTimeout(resolve, wordDelayMs * WORDS_PER_PIECE));
        yield words.slice(i, i + WORDS_PER_PIECE).join("");
      }
    },
    complete: null,
  };
}
