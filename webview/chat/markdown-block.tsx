/**
 * Renders markdown through the sanitizing path into a container it owns (Preact never sees the HTML).
 * Parsed fragments are cached per message block; each mount inserts a clone. A text that grows while its block is
 * mounted (a streamed reply) is rendered incrementally instead (StreamedMarkdown): only its open end each time.
 */
import type { JSX } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { renderMarkdown } from "../ui/markdown.js";
import { StreamedMarkdown } from "../ui/markdown-stream.js";
import { DerivedTextCache } from "./markdown-cache.js";

/** Enough for every row of a few windows' worth of scrolling back and forth. */
const CACHE_LIMIT = 500;
const cache = new DerivedTextCache<DocumentFragment>(renderMarkdown, CACHE_LIMIT);

/** A block of sanitized markdown; `cacheKey` names the block (message id and part) for the parse cache. */
export function MarkdownBlock(props: { text: string; class?: string; cacheKey?: string }): JSX.Element {
  const ref = useRef<HTMLDivElement>(null);
  const stream = useRef<StreamedMarkdown | undefined>(undefined);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const streamed = stream.current;
    // The same block with more text: a streamed reply's next part.
    if (streamed !== undefined && props.text.startsWith(streamed.shown)) {
      streamed.update(props.text);
      return;
    }
    // Mounted again (scrolled back into the window): the cached fragment stays pristine, the document gets a copy.
    const hit = props.cacheKey !== undefined ? cache.peek(props.cacheKey, props.text) : undefined;
    stream.current = new StreamedMarkdown(el);
    if (hit !== undefined) {
      el.replaceChildren(hit.cloneNode(true));
      stream.current.adopt(props.text);
      return;
    }
    // Rendered in the streamed form from the start, so its blocks stay the same nodes if the text grows.
    stream.current.update(props.text);
    if (props.cacheKey !== undefined) {
      const copy = document.createDocumentFragment();
      for (const node of el.childNodes) copy.append(node.cloneNode(true));
      cache.remember(props.cacheKey, props.text, copy);
    }
  }, [props.text, props.cacheKey]);
  return <div ref={ref} class={`markdown ${props.class ?? ""}`} />;
}
