// Answer text as markdown (react-markdown + GFM), loaded with the first answer
// rather than with the page. Links keep react-markdown's default rule: only
// http, https, irc, ircs, mailto and xmpp (or relative addresses) become links;
// any other scheme is shown as plain text. Citations like [1] or [1, 2] become
// links that open the cited source. Sentences the answer's check did not find
// on their cited pages are marked (lib/uncheckedMarks.ts: no raw HTML involved).
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { sourcePage } from "../../lib/answer";
import { fenceUnchecked, rehypeUncheckedMarks } from "../../lib/uncheckedMarks";
import { UncheckedMark } from "./AnswerCheck";
import { CITE_PREFIX, linkCitations, type RichTextProps } from "./RichText";

const REHYPE_PLUGINS = [rehypeUncheckedMarks];

export default function MarkdownText({ text, sources = [], onCite, checks = [] }: RichTextProps) {
  const components: Components = {
    // markdown cannot write a <mark>: each one is a fenced sentence (rehypeUncheckedMarks)
    mark({ node, children }) {
      const check = checks[Number(node?.properties.dataCheck)];
      if (!check) return <>{children}</>;
      return (
        <UncheckedMark check={check} sources={sources}>
          {children}
        </UncheckedMark>
      );
    },
    a({ href, children }) {
      if (href?.startsWith(CITE_PREFIX)) {
        const source = sources.find((s) => s.n === Number(href.slice(CITE_PREFIX.length)));
        if (!source) return <>{children}</>;
        return (
          <a
            className="citation"
            href={href}
            rel="noopener noreferrer"
            title={`${source.fileName}, ${sourcePage(source)}`}
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
    <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={REHYPE_PLUGINS} components={components}>
      {linkCitations(fenceUnchecked(text, checks), sources)}
    </Markdown>
  );
}
