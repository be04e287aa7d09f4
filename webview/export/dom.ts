/** Tiny DOM helpers for the export page. Text always goes in as text nodes, never as HTML. */

/** Create an element with classes and children (strings become text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls?: string,
  ...children: (Node | string | undefined | null | false)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return el;
}

/** A collapsible section (`<details>`), closed unless `open`. */
export function collapsible(summary: string, body: Node, cls?: string, open = false): HTMLDetailsElement {
  const d = h("details", cls, h("summary", undefined, summary), h("div", "body", body));
  d.open = open;
  return d;
}

/** Narrow an unknown JSON value to a plain object. */
export function asRecord(v: unknown): Record<string, unknown> | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** A string field, or "" when missing or of another type. */
export function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}
