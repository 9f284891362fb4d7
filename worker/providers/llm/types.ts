// One interface for every answer provider: Workers AI, an OpenAI-compatible
// endpoint, or the built-in local extractive responder (the default).
import type { AnswerMode } from "../../contract/protocol";

/** A retrieved piece of a document, as an answer cites it. */
export interface Passage {
  chunkId: string;
  documentId: string;
  fileName: string;
  page: number;
  text: string;
  /** the passage's span in its page's normalised text, for the viewer's highlight */
  charStart: number;
  charEnd: number;
  /** read from a scanned page by text recognition, not from the PDF's text layer */
  recognised?: boolean;
  /** the column heads of the table the passage starts inside ("2018 2017 2016"), held by an earlier passage of its page */
  columnHeads?: string;
}

export interface ChatTurnInput {
  question: string;
  /** numbered sources: passages[i] is source [i + 1] */
  passages: Passage[];
  /** earlier turns of this chat, oldest first */
  history: { role: "user" | "assistant"; content: string }[];
  /** signed out: there are no documents to search */
  anonymous: boolean;
  /** the chat's documents, when it has some: only they were searched */
  documentNames?: string[];
}

export interface ChatProvider {
  readonly mode: AnswerMode;
  streamAnswer(input: ChatTurnInput): AsyncIterable<string>;
  /** one non-streamed completion (titles, memos); null for the local responder, which writes no free text */
  complete: ((system: string, user: string, maxTokens: number) => Promise<string>) | null;
}
