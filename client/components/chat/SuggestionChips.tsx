// Questions offered as chips (follow-ups under the last answer, a document overview's questions): one click asks it.
import { sendQuestion } from "../../state/chatMessages";

export function SuggestionChips({ questions, label }: { questions: readonly string[]; label: string }) {
  return (
    <ul className="chat-suggestions" aria-label={label}>
      {questions.map((question) => (
        <li key={question}>
          <button type="button" className="suggestion-chip" onClick={() => sendQuestion(question)}>
            {question}
          </button>
        </li>
      ))}
    </ul>
  );
}
