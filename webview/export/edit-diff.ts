/**
 * An `edit` result's diff, coloured as pi's export shows it: the tool records it in `details.diff` (pi's edit tool
 * and ours alike, with context lines around the change; older sessions of ours hold the replaced region only), one
 * line per row, `+` added, `-` removed,
 * anything else context. The page only classes the lines it is given; it computes no diff of its own.
 */
import { asRecord, h } from "./dom.js";

/** The recorded diff of an edit result's `details`, or undefined when there is none. */
export function editDiffOf(toolName: string | undefined, details: unknown): string | undefined {
  const diff = asRecord(details)?.diff;
  return toolName === "edit" && typeof diff === "string" && diff !== "" ? diff : undefined;
}

/** "+3 −1": the lines added and removed, for the fold's summary. */
export function diffCounts(diff: string): string {
  let added = 0;
  let removed = 0;
  for (const line of diff.split("\n")) {
    if (line.startsWith("+")) added++;
    else if (line.startsWith("-")) removed++;
  }
  return `+${added} −${removed}`;
}

/** `<pre class="out diff">` with one row per line of `diff`, as text. */
export function diffBlock(diff: string): HTMLElement {
  const pre = h("pre", "out diff");
  for (const line of diff.split("\n")) {
    const cls = line.startsWith("+") ? "diff-added" : line.startsWith("-") ? "diff-removed" : "diff-context";
    pre.appendChild(h("span", cls, line === "" ? " " : line));
  }
  return pre;
}
