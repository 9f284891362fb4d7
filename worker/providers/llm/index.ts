// Chooses the answer provider once per turn from bindings and vars: an
// OpenAI-compatible endpoint when LLM_BASE_URL is set, else Workers AI when the
// AI binding exists, else the local extractive responder. A model busy before its
// first word hands the question to the local responder (busy.ts).
import { optionalSecrets } from "../../config";
import { withLocalFallback } from "./busy";
import { localProvider } from "./local";
import { openAiProvider } from "./openai";
import type { ChatProvider } from "./types";
import { workersAiProvider } from "./workers-ai";

export function chooseChatProvider(env: Env): ChatProvider {
  const s = optionalSecrets(env);
  if (s.LLM_BASE_URL)
    return withLocalFallback(openAiProvider({ baseUrl: s.LLM_BASE_URL, apiKey: s.LLM_API_KEY, model: s.LLM_MODEL ?? "gpt-4o-mini" }));
  if (env.AI) return withLocalFallback(workersAiProvider(env.AI, s.LLM_MODEL));
  return localProvider();
}

export type { ChatProvider, ChatTurnInput } from "./types";
