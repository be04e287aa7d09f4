/**
 * The tree's filters, written once: the list, and which rows each one shows (pi's rules). The tree view, the
 * exported page and the Switch Branch picker (the "no tools" filter) all ask here.
 */
import { ENTRY_KINDS, isConversationKind } from "../session/entry-kinds.js";
import { FLAG_HIDDEN, FLAG_TOOL_CALLS_ONLY, kindCode } from "./row-columns.js";

/** Every filter, in the order the tree's dropdown lists them. */
export const TREE_FILTERS = ["default", "no-tools", "user-only", "labeled-only", "all"] as const;

/** A filter of the tree (the webview's dropdown; the exported page's). */
export type TreeFilter = (typeof TREE_FILTERS)[number];

/** What the filter dropdowns call each filter. */
export const TREE_FILTER_LABELS: Readonly<Record<TreeFilter, string>> = {
  default: "Default",
  "no-tools": "No tools",
  "user-only": "User only",
  "labeled-only": "Labeled only",
  all: "All",
};

/** True for a string naming a filter. */
export function isTreeFilter(value: unknown): value is TreeFilter {
  return typeof value === "string" && (TREE_FILTERS as readonly string[]).includes(value);
}

/** Kinds only the "all" filter shows (pi 1.5's usage records: cost, not conversation). */
const USAGE = kindCode("usage");
const ASSISTANT = kindCode("assistant");

/** Per filter, which kind codes pass (before the hidden / tool-calls-only rules). */
const KIND_PASSES: Readonly<Record<Exclude<TreeFilter, "all" | "labeled-only">, Uint8Array>> = {
  default: Uint8Array.from(ENTRY_KINDS, (k) => (isConversationKind(k) ? 1 : 0)),
  "no-tools": Uint8Array.from(ENTRY_KINDS, (k) => (isConversationKind(k) && k !== "toolResult" ? 1 : 0)),
  "user-only": Uint8Array.from(ENTRY_KINDS, (k) => (k === "user" ? 1 : 0)),
};

/**
 * Whether a row passes the filter alone, from its kind code and FLAG_* bits (no row object needed): "all" shows
 * everything; the others hide display:false hook messages and tool-call-only assistant turns (the leaf always
 * shows) and pass kinds as KIND_PASSES says; "labeled-only" shows labelled rows but usage records.
 */
export function passesFilter(
  filter: TreeFilter,
  kind: number,
  flags: number,
  labeled: boolean,
  isLeaf: boolean,
): boolean {
  if (filter === "all") return true;
  if (!isLeaf && ((flags & FLAG_HIDDEN) !== 0 || ((flags & FLAG_TOOL_CALLS_ONLY) !== 0 && kind === ASSISTANT)))
    return false;
  if (filter === "labeled-only") return labeled && kind !== USAGE;
  return KIND_PASSES[filter][kind] === 1;
}
