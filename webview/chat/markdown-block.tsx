/**
 * Renders markdown through the sanitizing path into a container it owns (Preact never sees the HTML).
 * Parsed fragments are cached per message block; each mount inserts a clone.
 */
import type { JSX } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { renderMarkdown } from "../ui/markdown.js";
import { DerivedTextCache } from "./markdown-cache.js";

/** Enough for every row of a few windows' worth of scrolling back and forth. */
const CACHE_LIMIT = 500;
const cache = new DerivedTextCache<DocumentFragment>(renderMarkdown, CACHE_LIMIT);

/** A block of sanitized markdown; `cacheKey` names the block (message id and part) for the parse cache. */
export function MarkdownBlock(props: { text: string; class?: string; cacheKey?: string }): JSX.Element {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    // The cached fragment stays pristine: the document gets a copy.
    const fragment =
      props.cacheKey !== undefined ? cache.get(props.cacheKey, props.text).cloneNode(true) : renderMarkdown(props.text);
    ref.current?.replaceChildren(fragment);
  }, [props.text, props.cacheKey]);
  return <div ref={ref} class={`markdown ${props.class ?? ""}`} />;
}
