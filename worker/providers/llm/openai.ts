// Any OpenAI-compatible endpoint (AI Gateway, OpenAI, Ollama...): streaming
// chat completions over server-sent events.
import { ModelBusy } from "./busy";
import { chatMessages } from "./prompt";
import { sseText } from "./sse";
import type { ChatProvider } from "./types";

const MAX_ANSWER_TOKENS = 1536;

export interface OpenAiConfig {
  baseUrl: string;
  apiKey?: string;
  model: string;
}

export function openAiProvider(config: OpenAiConfig): ChatProvider {
  const endpoint = `${config.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  async function post(body: object): Promise<Response> {
    const response = await fetch(endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {}) },
      body: JSON.stringify({ model: config.model, ...body }),
    });
    if (response.status === 429 || response.status === 503) throw new ModelBusy(`LLM endpoint answered ${response.status}`);
    if (!response.ok || !response.body) throw new Error(`LLM endpoint answered ${response.status}`);
    return response;
  }
  return {
    mode: "model",
    async *streamAnswer(input) {
      const response = await post({ messages: chatMessages(input), stream: true, max_tokens: MAX_ANSWER_TOKENS });
      yield* sseText(response.body!, (json) => json?.choices?.[0]?.delta?.content);
    },
    async complete(system, user, maxTokens) {
      const response = await post({
        messages: [
          { role: "system", content: system },
          { role: "user", content: user },
        ],
        max_tokens: maxTokens,
      });
      const json = (await response.json()) as { choices?: { message?: { content?: string } }[] };
      return json.choices?.[0]?.message?.content ?? "";
    },
  };
}
