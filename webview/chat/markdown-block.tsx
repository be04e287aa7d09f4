/**
 * Renders markdown through the sanitizing path into a container it owns (Preact never sees the HTML).
 */
import type { JSX } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { renderMarkdown } from "./markdown.js";

/** A block of sanitized markdown. */
export function MarkdownBlock(props: { text: string; class?: string }): JSX.Element {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    ref.current?.replaceChildren(renderMarkdown(props.text));
  }, [props.text]);
  return <div ref={ref} class={`markdown ${props.class ?? ""}`} />;
}
