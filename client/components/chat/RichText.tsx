// Answer text: markdown once its renderer has loaded (MarkdownText, a chunk of
// its own that the first answer brings), plain text until then, or if it cannot
// be fetched (unsupported sentences are marked once the markdown is in).
import { lazy, Suspense } from "react";
import type { SentenceCheck } from "../../../worker/contract/checks";
import { LoadBoundary } from "../LoadBoundary";
import type { Source } from "../../../worker/contract/protocol";

export interface RichTextProps {
  text: string;
  sources?: readonly Source[];
  onCite?: (source: Source) => void;
  /** the answer's checks: its unsupported sentences are marked */
  checks?: readonly SentenceCheck[];
}

export const CITE_PREFIX = "#cite-";
// [1] or [1, 2], not followed by "(" (that would be a markdown link)
const CITATION = /\[(\d{1,2}(?:\s*,\s*\d{1,2})*)\](?!\()/g;

/** Rewrites citations of known sources into links the renderer recognises; unknown numbers stay text. */
export function linkCitations(text: string, sources: readonly Source[] = []): string {
  const known = new Set(sources.map((s) => s.n));
  return text.replace(CITATION, (whole, list: string) => {
    const numbers = list.split(",").map((n) => Number(n.trim()));
    if (!numbers.every((n) => known.has(n))) return whole;
    return numbers.map((n) => `[[${n}]](${CITE_PREFIX}${n})`).join("");
  });
}

const MarkdownText = lazy(() => import("./MarkdownText"));

export function RichText(props: RichTextProps) {
  const plain = <p className="rich-text-plain">{props.text}</p>;
  return (
    <div className="rich-text">
      {/* the renderer's chunk not arriving leaves the answer as plain text */}
      <LoadBoundary fallback={plain}>
        <Suspense fallback={plain}>
          <MarkdownText {...props} />
        </Suspense>
      </LoadBoundary>
    </div>
  );
}
