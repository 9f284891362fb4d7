// A follow-up that leans on the question before it ("And in 2017?", "What about
// for a married couple?") names too little to search for: what it asks is the
// earlier question with its own words put in. The search and the local writer
// read that whole question; the chat shows and stores the follow-up as typed, and
// a model, which reads the chat's history, gets it as typed too.
import { documentNames, squeezed } from "./named-files";
import { queryTerms } from "./terms";

/** A question opening on from the one before ("And in 2017?", "What about Pfizer?"), with the words it opens with. */
const GOES_ON = /^\W*(?:and what about|and|or|also|plus|then|what about|how about|what if|same)\b\s*/i;
/** A question opening with what it changes ("In 2017?", "For a married couple?"), asking nothing of its own (no "what", no "do I"). */
const ONLY_CHANGES =
  /^\W*(?:in|for|during|at|by|with|without|as of)\b(?!.*\b(?:what|which|who|whom|whose|where|when|why|how|do|does|did|is|are|was|were|can|could|should|must|may|will|would)\b)/i;
const leansOnEarlier = (question: string) => GOES_ON.test(question) || ONLY_CHANGES.test(question);
/** A follow-up naming what it changes by its preposition: "in 2017", "for a married couple". */
const CHANGED_PHRASE = /^(in|for|during|at|by|with|without)\s/i;
/** A follow-up names at most this many terms of its own; more make a question of its own. */
const MAX_OWN_TERMS = 3;
/** A year ("2017", "FY2018", "fiscal 2023"): a follow-up naming one asks about it in place of the earlier question's. */
const YEAR = /\b(?:fy|fiscal\s+)?(?:19|20)\d\d\b/gi;

/**
 * The question to search for: the follow-up read with the question before it (its year, or the
 * company or form it names, replaced by the follow-up's), or the question itself when it stands
 * alone or none came before. `history`: the chat's messages, read only when needed.
 */
export function withEarlierQuestion(question: string, history: () => readonly { role: "user" | "assistant"; content: string }[]): string {
  // the chat's history is read only for a question that leans on it: most stand alone
  if (!leansOnEarlier(question) || queryTerms(question).length > MAX_OWN_TERMS) return question;
  const earlier = history().findLast((m) => m.role === "user")?.content;
  if (!earlier) return question;
  let before = question.match(YEAR) ? earlier.replace(YEAR, " ") : earlier;
  // "And for married filing jointly?" asks for them in place of the earlier question's "for a single filer"
  const changed = question.replace(GOES_ON, "").match(CHANGED_PHRASE)?.[1];
  if (changed) before = before.replace(new RegExp(`\\b${changed}\\b(?![\\s\\S]*\\b${changed}\\b)[^?.!,;]*`, "i"), " ");
  // a follow-up naming another company or form ("What about Pfizer?") asks it in place of the earlier one's
  const named = documentNames(question);
  if (named.length) {
    const earlierNames = documentNames(earlier).filter((name) => !named.includes(name));
    before = before.replace(/[\p{L}\p{N}&-]+(?:['’]s)?/gu, (word) =>
      earlierNames.includes(squeezed(word.replace(/['’]s$/, ""))) ? " " : word,
    );
  }
  return `${before.trim()} ${question.trim()}`;
}
