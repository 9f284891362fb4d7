// A model that is over its rate limit or out of capacity (HTTP 429/503, Workers AI's "capacity
// temporarily exceeded") before it wrote a word: the question is answered by the local writer
// instead, from the same passages and checked the same way, with a note saying so, rather than
// ending the turn with "Sorry, I couldn't process your request." (docs/scale.md: generation is the
// first limit a launch meets).
import { localProvider } from "./local";
import type { ChatProvider } from "./types";

export const MODEL_BUSY_NOTE = "_The model is busy right now, so this answer quotes your documents directly._\n\n";

/** The model refused for load, not for a fault: worth answering without it. */
export class ModelBusy extends Error {}

/** Whether an error thrown by the Workers AI binding is a rate limit or capacity refusal. */
export const isBusyError = (err: unknown) => /\b(?:429|503|3040)\b|capacity|rate.?limit|too many requests/i.test(String(err));

/** The provider, answering locally when it is busy before its first word (later failures stay failures). */
export function withLocalFallback(model: ChatProvider, local: ChatProvider = localProvider()): ChatProvider {
  return {
    ...model,
    async *streamAnswer(input) {
      let wrote = false;
      try {
        for await (const text of model.streamAnswer(input)) {
          wrote = true;
          yield text;
        }
      } catch (err) {
        if (wrote || !(err instanceof ModelBusy)) throw err;
        console.warn("model busy, answering locally", err.message);
        yield MODEL_BUSY_NOTE;
        yield* local.streamAnswer(input);
      }
    },
  };
}
