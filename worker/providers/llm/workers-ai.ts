// Workers AI (production): streaming chat completions through the AI binding.
import { isBusyError, ModelBusy } from "./busy";
import { chatMessages } from "./prompt";
import { sseText } from "./sse";
import type { ChatProvider } from "./types";

export const DEFAULT_WORKERS_AI_MODEL = "@cf/meta/llama-3.1-8b-instruct-fast";
const MAX_ANSWER_TOKENS = 1536;

export function workersAiProvider(ai: Ai, model = DEFAULT_WORKERS_AI_MODEL): ChatProvider {
  const call = ai.run.bind(ai) as unknown as (model: string, input: object) => Promise<unknown>;
  const run = (model: string, input: object) =>
    call(model, input).catch((err: unknown) => {
      throw isBusyError(err) ? new ModelBusy(String(err)) : err;
    });
  return {
    mode: "model",
    async *streamAnswer(input) {
      const stream = (await run(model, {
        messages: chatMessages(input),
        stream: true,
        max_tokens: MAX_ANSWER_TOKENS,
      })) as ReadableStream<Uint8Array>;
      yield* sseText(stream, (json) => (typeof json?.response === "string" ? json.response : undefined));
    },
    async complete(system, user, maxTokens) {
      const result = (await run(model, {
        messages: [
          { role: "system", content: system },
          { role: "user", content: user },
        ],
        max_tokens: maxTokens,
      })) as { response?: string };
      return result?.response ?? "";
    },
  };
}
