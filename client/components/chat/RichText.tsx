// Answer text as markdown (react-markdown + GFM). Links keep react-markdown's
// default rule: only http, https, irc, ircs, mailto and xmpp (or relative
// addresses) become links; any other scheme is shown as plain text. Citations
// like [1] or [1, 2] become links that open the cited file at its page.
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import type { Source } from "../../../worker/contract/protocol";

export interface RichTextProps {
  text: string;
  sources?: readonly Source[];
  onCite?: (source: Source) => void;
}

const CITE_PREFIX = "#cite-";
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

export function RichText({ text, sources = [], onCite }: RichTextProps) {
  const components: Components = {
    a({ href, children }) {
      if (href?.startsWith(CITE_PREFIX)) {
        const source = sources.find((s) => s.n === Number(href.slice(CITE_PREFIX.length)));
        if (!source) return <>{children}</>;
        return (
          <a
            className="citation"
            href={href}
            rel="noopener noreferrer"
            title={`${source.fileName}, p. ${source.page}`}
            onClick={(event) => {
              event.preventDefault();
              onCite?.(source);
            }}
          >
            {children}
          </a>
        );
      }
      // the default URL transform empties disallowed schemes: show those as text
      if (!href) return <>{children}</>;
      // our own pages (e.g. the upgrade link) open in place
      if (href.startsWith("/") && !href.startsWith("//"))
        return (
          <a href={href} rel="noopener noreferrer">
            {children}
          </a>
        );
      return (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      );
    },
    // answers never load remote images
    img: ({ alt }) => <>{alt}</>,
  };
  return (
    <div className="rich-text">
      <Markdown remarkPlugins={[remarkGfm]} components={components}>
        {linkCitations(text, sources)}
      </Markdown>
    </div>
  );
}
