// Answer text as markdown (react-markdown + GFM), loaded with the first answer
// rather than with the page. Links keep react-markdown's default rule: only
// http, https, irc, ircs, mailto and xmpp (or relative addresses) become links;
// any other scheme is shown as plain text. Citations like [1] or [1, 2] become
// links that open the cited source. Sentences the answer's check did not find
// on their cited pages are marked (lib/uncheckedMarks.ts: no raw HTML involved).
import { useMemo, useRef, type RefObject } from "react";
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { sourcePage } from "../../lib/answer";
import { fenceUnchecked, rehypeUncheckedMarks } from "../../lib/uncheckedMarks";
import { UncheckedMark } from "./AnswerCheck";
import { CITE_PREFIX, linkCitations, type RichTextProps } from "./RichText";

const REHYPE_PLUGINS = [rehypeUncheckedMarks];

export default function MarkdownText({ text, sources = [], onCite, checks = [] }: RichTextProps) {
  // the renderers are made once and read the latest props: a renderer made anew on every render is
  // a new kind of element to React, which would redraw every link (a focused citation lost its focus)
  const latest = useRef({ sources, checks, onCite });
  latest.current = { sources, checks, onCite };
  const components = useMemo(() => answerRenderers(latest), []);
  return (
    <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={REHYPE_PLUGINS} components={components}>
      {linkCitations(fenceUnchecked(text, checks), sources)}
    </Markdown>
  );
}

type Latest = RefObject<Required<Pick<RichTextProps, "sources" | "checks">> & Pick<RichTextProps, "onCite">>;

function answerRenderers(latest: Latest): Components {
  return {
    // markdown cannot write a <mark>: each one is a fenced sentence (rehypeUncheckedMarks)
    mark({ node, children }) {
      const { checks, sources } = latest.current;
      const check = checks[Number(node?.properties.dataCheck)];
      if (!check) return <>{children}</>;
      return (
        <UncheckedMark check={check} sources={sources}>
          {children}
        </UncheckedMark>
      );
    },
    a({ href, children }) {
      const { sources, onCite } = latest.current;
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
}
