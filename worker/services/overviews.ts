// A document's overview: computed once when the indexer has read its pages (recordOverview),
// kept in D1's document_overviews, answered by GET /api/documents/:fileId/overview. A document
// indexed before overviews existed gets one on its first request, from the pages its Library holds.
import { eq } from "drizzle-orm";
import { OVERVIEW_MESSAGES, type DocumentOverview, type OutlineEntry } from "../contract/overview";
import { getDb, type Db } from "../db/client";
import { documentOverviews } from "../db/schema";
import { ApiError } from "../errors";
import { extractiveSummary, firstSentences, headingOutline, openingText, overviewQuestions } from "../answer/overview";
import { library, type LibraryBinding } from "../library/stub";
import type { ChunkHit } from "../library/types";
import { chooseChatProvider, type ChatProvider } from "../providers/llm";
import type { DbDeps } from "./deps";
import { getOwnedDocument } from "./documents";

type Complete = ChatProvider["complete"];
type Overview = Omit<DocumentOverview, "pages">;

const CHUNKS_PER_READ = 90;

const SUMMARY_PROMPT =
  "You summarise a document for a reader deciding whether to read it. Given its opening text, " +
  "write exactly three plain sentences saying what it is, whom it is for and what it covers. No list, no heading, no preamble.";

/** The configured model's one-shot completion, or null in local mode (the Worker's env is the consumer's deps). */
export function overviewModel(env: object): Complete {
  try {
    return chooseChatProvider(env as Env).complete;
  } catch {
    return null;
  }
}

/** The model's three sentences; the extractive ones when there is no model, it fails or writes none. */
async function summaryOf(complete: Complete, pages: readonly string[]): Promise<string> {
  if (complete) {
    try {
      const text = firstSentences(await complete(SUMMARY_PROMPT, openingText(pages), 200));
      if (text) return text;
    } catch (err) {
      console.warn("overview summary: the model failed; using the extractive one", err);
    }
  }
  return extractiveSummary(pages);
}

/** The overview of a document from its pages' text and its own bookmarks (else its headings). */
export async function buildOverview(
  complete: Complete,
  { fileName, pages, bookmarks }: { fileName: string; pages: readonly string[]; bookmarks: OutlineEntry[] },
): Promise<Overview> {
  const outline = bookmarks.length ? bookmarks : headingOutline(pages);
  return { outline, summary: await summaryOf(complete, pages), questions: overviewQuestions(fileName, outline, pages) };
}

async function saveOverview(db: Db, documentId: string, overview: Overview): Promise<void> {
  await db
    .insert(documentOverviews)
    .values({ documentId, ...overview })
    .onConflictDoUpdate({ target: documentOverviews.documentId, set: { ...overview, createdAt: Date.now() } });
}

/** The indexer's step: never fails the indexing (a document without an overview gets one on request). */
export async function recordOverview(
  deps: { DB: D1Database },
  input: { documentId: string; fileName: string; pages: readonly string[]; bookmarks: OutlineEntry[] },
): Promise<void> {
  try {
    await saveOverview(getDb(deps), input.documentId, await buildOverview(overviewModel(deps), input));
  } catch (err) {
    console.error("could not record the document's overview", input.documentId, err);
  }
}

/** A page's text as its chunks hold it: in order, each chunk's overlap with the one before left out. */
export function pagesFromChunks(hits: readonly ChunkHit[], pageCount: number): string[] {
  const pages: string[] = Array.from({ length: pageCount }, () => "");
  const covered: number[] = [];
  for (const hit of [...hits].sort((a, b) => a.page - b.page || a.char_start - b.char_start)) {
    const i = hit.page - 1;
    if (i < 0) continue;
    while (pages.length <= i) pages.push("");
    const from = Math.max(0, (covered[i] ?? 0) - hit.char_start);
    if (from < hit.text.length) pages[i] = `${pages[i]} ${hit.text.slice(from)}`.trim();
    covered[i] = Math.max(covered[i] ?? 0, hit.char_end);
  }
  return pages;
}

/** The caller's document's overview: 404 as every document route, 409 while it is indexed or when it failed. */
export async function documentOverview(
  deps: DbDeps & LibraryBinding & { env: object },
  { userId, documentId }: { userId: string; documentId: string },
): Promise<DocumentOverview> {
  const doc = await getOwnedDocument(deps, { userId, documentId });
  if (doc.status === "failed") throw new ApiError(409, OVERVIEW_MESSAGES.failed);
  if (doc.status !== "indexed" && doc.status !== "needs_ocr") throw new ApiError(409, OVERVIEW_MESSAGES.indexing);
  const stored = await deps.db.select().from(documentOverviews).where(eq(documentOverviews.documentId, doc.id)).get();
  const pages = doc.pageCount ?? 0;
  if (stored) return { pages, outline: stored.outline, summary: stored.summary, questions: stored.questions };
  // indexed before overviews: from the Library's chunks (no bookmarks: the PDF is not read again)
  const userLibrary = library(deps, userId);
  const ids = await userLibrary.chunkIds(doc.id);
  const hits: ChunkHit[] = [];
  // a query binds at most 100 values in a Durable Object's SQLite
  for (let i = 0; i < ids.length; i += CHUNKS_PER_READ)
    hits.push(...(await userLibrary.chunks(ids.slice(i, i + CHUNKS_PER_READ), [doc.id])));
  const overview = await buildOverview(overviewModel(deps.env), {
    fileName: doc.fileName,
    pages: pagesFromChunks(hits, pages),
    bookmarks: [],
  });
  await saveOverview(deps.db, doc.id, overview);
  return { pages, ...overview };
}
