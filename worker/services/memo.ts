// The chat memo: a summary of a chat session, written by the model when there is
// one, otherwise an extractive summary (the questions asked and the key cited
// answers), rendered as plain text and HTML for e-mail, and sent to the owner, a
// member, or an address they give.
import { chatSession } from "../chat/stub";
import { uncheckedNote } from "../contract/checks";
import { MEMO_MESSAGES, SHARE_MESSAGES, recipientCapMessage } from "../contract/mail";
import type { ChatFile, Source, StoredMessage } from "../contract/protocol";
import { getDb } from "../db/client";
import { ApiError } from "../errors";
import { chooseChatProvider, type ChatProvider } from "../providers/llm";
import { findChat, sessionAccess } from "./chats";
import type { EnvDeps } from "./deps";
import { emailHtml, escapeHtml, recipientUnderDailyCap, sendMail, senderUnderDailyCap } from "./mail";

const MEMO_PROMPT = `Write a concise business memo summarising the chat below between a user and a document assistant.
Start with a one-sentence overview, then list the key findings as short bullet points ("- ") with the file and page they came from in parentheses, then any open questions.
Use only what the chat says; do not add facts.`;

const ANSWER_SENTENCES = 2;

/** "[1]" citations written out as "(file, p. N)" so the memo stands on its own. */
export function spellOutCitations(text: string, sources: readonly Source[] = []): string {
  return text.replace(/\[(\d{1,2})\]/g, (whole, n: string) => {
    const source = sources.find((s) => s.n === Number(n));
    return source ? `(${source.fileName}, p. ${source.page})` : whole;
  });
}

function turns(transcript: readonly StoredMessage[]) {
  const pairs: { question: string; answer?: StoredMessage }[] = [];
  for (const m of transcript) {
    if (m.role === "user") pairs.push({ question: m.content });
    else if (pairs.length) pairs[pairs.length - 1]!.answer = m;
  }
  return pairs;
}

/** An answer's sentences not found on the pages they cite, each in words (the chat marks them). */
function uncheckedNotes(answer: StoredMessage): string[] {
  return (answer.checks ?? []).filter((c) => c.status === "unsupported").map((c) => uncheckedNote(c, answer.sources));
}

/** A line the chat set before an answer in italics: which documents were still being indexed or read. */
const NOTE_LINE = /^_[^_].*_$/;

/**
 * The first quoted points (or sentences) of an answer, citations written out; a note on documents
 * still being indexed follows them in plain words (it is no answer, but says what the answer used).
 */
function keyAnswer(answer: StoredMessage): string {
  const lines = answer.content.split("\n").map((l) => l.replace(/^[-*]\s+/, "").trim());
  const notes = lines.filter((l) => NOTE_LINE.test(l)).map((l) => ` (${l.slice(1, -1)})`);
  const points = lines.filter((l) => l && !NOTE_LINE.test(l) && !/^(here is what your documents say|also in your documents):?$/i.test(l));
  // a citation like "[1]" stays with the sentence before it
  const sentences = points.length > 1 ? points : (points[0] ?? "").split(/(?<=[.!?](?:\s*\[\d{1,2}\])*)\s+(?=[\p{Lu}\p{N}"])/u);
  const key = sentences.slice(0, ANSWER_SENTENCES).join(" ").trim();
  const said = spellOutCitations(key.length > 600 ? `${key.slice(0, 600)}…` : key, answer.sources);
  return said ? `${said}${notes.join("")}` : "No answer was given.";
}

/** The line naming the documents the chat searched (none attached: all of the owner's files). */
function documentsLine(files: readonly Pick<ChatFile, "fileName">[]): string {
  return files.length
    ? `Documents in this chat: ${files.map((f) => f.fileName).join(", ")}.`
    : "Documents in this chat: all of the owner's files.";
}

export function extractiveMemo(
  title: string,
  transcript: readonly StoredMessage[],
  files: readonly Pick<ChatFile, "fileName">[] = [],
): string {
  const pairs = turns(transcript);
  if (pairs.length === 0) return "";
  const lines = [`Summary of the chat "${title}".`, documentsLine(files), "", "Questions asked:"];
  pairs.forEach((p, i) => lines.push(`${i + 1}. ${p.question}`));
  lines.push("", "Key answers:");
  for (const p of pairs) {
    lines.push(`- ${p.question}`, `  ${p.answer ? keyAnswer(p.answer) : "No answer was given."}`);
    if (p.answer) lines.push(...uncheckedNotes(p.answer).map((note) => `  ${note}`));
  }
  const cited = new Map<string, Source>();
  for (const m of transcript) for (const s of m.sources ?? []) cited.set(`${s.fileId}:${s.page}`, s);
  if (cited.size) {
    lines.push("", "Sources cited:");
    for (const s of cited.values()) lines.push(`- ${s.fileName}, page ${s.page}`);
  }
  return lines.join("\n");
}

async function writeMemo(
  provider: ChatProvider,
  title: string,
  transcript: readonly StoredMessage[],
  files: readonly Pick<ChatFile, "fileName">[] = [],
): Promise<string> {
  if (!provider.complete || transcript.length === 0) return extractiveMemo(title, transcript, files);
  const chat = transcript
    .map((m) => `${m.role === "user" ? "User" : "Assistant"}: ${spellOutCitations(m.content, m.sources)}`)
    .join("\n\n");
  const memo = (await provider.complete(MEMO_PROMPT, `Chat title: ${title}\n${documentsLine(files)}\n\n${chat}`, 1024)).trim();
  // the model summarises; what the chat marked as not found on its cited pages is said in our words after it
  const unchecked = transcript.flatMap((m) => (m.role === "assistant" ? uncheckedNotes(m) : []));
  return unchecked.length ? `${memo}\n\nChecked against the cited pages:\n${unchecked.map((note) => `- ${note}`).join("\n")}` : memo;
}

/** The memo as e-mail HTML: escaped, with "- " lines as a list and blank lines as paragraph breaks. */
export function memoHtml(title: string, memo: string): string {
  const blocks = memo.split(/\n{2,}/).map((block) => {
    const lines = block.split("\n");
    if (lines.every((l) => /^\s*([-*]|\d+\.)\s/.test(l) || /^\s{2,}\S/.test(l))) {
      return `<ul>${lines.map((l) => `<li>${escapeHtml(l.replace(/^\s*([-*]|\d+\.)\s/, "").trim())}</li>`).join("")}</ul>`;
    }
    return `<p>${lines.map(escapeHtml).join("<br>")}</p>`;
  });
  return emailHtml(`Chat memo: ${title}`, blocks.join("\n"));
}

/**
 * Writes the memo of a chat the caller owns or was shared and e-mails it (to
 * `to`, or to the caller). Any other chat is the same 404 as a missing one.
 * Returns the memo text.
 */
export async function sendChatMemo(
  { env, beforeSending = async () => {} }: EnvDeps & { beforeSending?: () => Promise<void> },
  { caller, ...input }: { caller: { id: string; email: string }; sessionId: string; to?: string | null },
): Promise<string> {
  const db = getDb(env);
  const chat = await findChat({ db }, { sessionId: input.sessionId });
  if (!chat || (await sessionAccess({ db }, { sessionId: input.sessionId, user: caller })) === "denied")
    throw new ApiError(404, SHARE_MESSAGES.notFound);
  await beforeSending();
  const to = input.to || caller.email;
  if (!(await senderUnderDailyCap({ env }, { senderId: caller.id }))) throw new ApiError(429, MEMO_MESSAGES.dailySenderCap);
  if (!(await recipientUnderDailyCap({ env }, { address: to }))) throw new ApiError(429, recipientCapMessage(to));

  const title = chat.summary || "Untitled Chat";
  let memo: string;
  try {
    const session = chatSession(env, input.sessionId);
    const [transcript, files] = await Promise.all([session.transcript(), session.documents()]);
    memo = await writeMemo(chooseChatProvider(env), title, transcript, files);
  } catch (err) {
    console.error("memo generation failed", err);
    throw new ApiError(500, MEMO_MESSAGES.generationFailed);
  }
  if (!memo) throw new ApiError(422, MEMO_MESSAGES.empty);

  const sent = await sendMail(
    { env },
    {
      kind: "memo",
      to,
      senderId: caller.id,
      subject: `Chat memo: ${title}`,
      text: memo,
      html: memoHtml(title, memo),
    },
  );
  // a memo sent at the same moment took the last of a cap
  if (sent.capReached) throw new ApiError(429, sent.capReached === "sender" ? MEMO_MESSAGES.dailySenderCap : recipientCapMessage(to));
  if (!sent.ok) throw new ApiError(502, MEMO_MESSAGES.sendFailed);
  return memo;
}
