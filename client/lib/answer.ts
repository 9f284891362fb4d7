// An answer as text to copy: the shared writer in worker/contract/answer-text.ts (the chat export
// writes answers the same way), kept here under the names the chat imports.
export { answerAsMarkdown, sourcePage } from "../../worker/contract/answer-text";
