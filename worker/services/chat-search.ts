// The owner's history search: each chat row keeps its questions and answers as
// plain text (appended once per turn, capped), each word of a search matched as
// a substring so results come while a word is still being typed. Only the caller's own chats
// are searched; shared chats stay out (their text is another user's).
import { and, desc, eq, or, sql } from "drizzle-orm";
import type { ChatSearchHit } from "../contract/protocol";
import { contains } from "../db/contains";
import { chats } from "../db/schema";
import type { DbDeps } from "./deps";

/** A chat's searchable text is capped: its first this many characters are searched. */
export const SEARCH_TEXT_MAX = 200_000;
const SNIPPET_BEFORE = 40;
const SNIPPET_LENGTH = 140;
const RESULTS = 30;

/** An answer's citation marks ("[2]") and its "See also: [3] [4]" line: numbers, no words anyone searches for. */
const CITATION_MARKS = /^See also:(?: \[\d+\])+$|\s?\[\d+\]/gm;

/** The text a turn adds to its chat's searchable text: what a person reads of it. */
export function turnSearchText(question: string, answer: string): string {
  return `${question}\n${answer.replace(CITATION_MARKS, "")}\n`;
}

/** A search of several words finds the chats holding each of them, anywhere and in any order; at most this many words are read. */
const MAX_WORDS = 8;

export async function searchChats(deps: DbDeps, input: { userId: string; query: string }): Promise<ChatSearchHit[]> {
  const needle = input.query.toLowerCase().trim().replace(/\s+/g, " ");
  const words = [...new Set(needle.split(" "))].slice(0, MAX_WORDS);
  // instr on lower(): SQLite's LIKE ignores ASCII case, so the snippet does too; the snippet shows the
  // words together where the text has them so, else the first word
  const text = sql`lower(${chats.searchText})`;
  const at = sql<number>`coalesce(nullif(instr(${text}, ${needle}), 0), instr(${text}, ${words[0]!}))`;
  const rows = await deps.db
    .select({
      session_id: chats.sessionId,
      updated_at: chats.updatedAt,
      summary: chats.summary,
      at,
      excerpt: sql<string>`substr(${chats.searchText}, max(1, ${at} - ${SNIPPET_BEFORE}), ${SNIPPET_LENGTH})`,
    })
    .from(chats)
    .where(and(eq(chats.userId, input.userId), ...words.map((word) => or(contains(chats.summary, word), contains(chats.searchText, word)))))
    .orderBy(desc(chats.updatedAt))
    .limit(RESULTS)
    .all();
  return rows.map(({ at: found, excerpt, ...chat }) => ({
    ...chat,
    snippet: found > 0 ? snippetOf(excerpt, found > SNIPPET_BEFORE) : null,
  }));
}

/** One line of text around the match, with an ellipsis where it was cut. */
function snippetOf(excerpt: string, cutBefore: boolean): string {
  // chats searched before their marks were left out of the text still hold them
  const line = excerpt.replace(CITATION_MARKS, "").replace(/\s+/g, " ").trim();
  return `${cutBefore ? "…" : ""}${line}${excerpt.length >= SNIPPET_LENGTH ? "…" : ""}`;
}
