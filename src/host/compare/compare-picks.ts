/**
 * Quick-pick rows for "Agent: Compare Branches…": the tips of the branches first (the current leaf, then the
 * others newest first), each with its label, its text and the request it answers, then every node as the
 * Switch Branch picker lists them. Pure: plain objects the VS Code side turns into QuickPickItems.
 */
import { nodeRows, type PickRow } from "../pick-items.js";
import { kindOf, singleLine, type EnvelopeLike } from "../tree-dto.js";

/** A row of the branch picker, or a separator line above a group. */
export type BranchPickRow = PickRow<string> | { separator: string };

/** How far up a tip's path the picker looks for the request it answers (bounded: paths can be long). */
const REQUEST_LOOKUP_STEPS = 200;

/** Entries that hang off a node without making it a branch point (labels, leaf markers, extension state). */
function bookkeeping(e: EnvelopeLike): boolean {
  return e.type === "label" || e.type === "custom";
}

const WORDS: Record<string, string> = {
  user: "user",
  assistant: "assistant",
  toolResult: "tool result",
  bashExecution: "bash",
  custom_message: "hook",
  branch_summary: "branch summary",
  compaction: "compaction",
};

/** "role: text" of an entry for a picker row. */
function describe(e: EnvelopeLike): string {
  const kind = kindOf(e.type, e.role);
  const word = WORDS[kind] ?? kind.replace(/_/g, " ");
  const text = e.toolCallsOnly && e.toolName ? `[tool calls: ${e.toolName}]` : singleLine(e.preview, 100);
  return text ? `${word}: ${text}` : word;
}

/**
 * Rows for picking one end of a comparison (see the file comment). `exclude` leaves out the end picked already.
 */
export function branchPickRows(
  envelopes: readonly EnvelopeLike[],
  leafId: string | null,
  getLabel: (id: string) => string | undefined,
  exclude?: string,
): BranchPickRow[] {
  const byId = new Map<string, EnvelopeLike>();
  const hasContentChild = new Set<string>();
  for (const e of envelopes) byId.set(e.id, e);
  for (const e of envelopes) if (e.parentId !== null && !bookkeeping(e)) hasContentChild.add(e.parentId);
  const tips = envelopes.filter((e) => !bookkeeping(e) && !hasContentChild.has(e.id) && e.id !== exclude);
  // The current leaf first (it may be an inner node after a move), then the other tips, newest first.
  const leaf = leafId !== null && leafId !== exclude ? byId.get(leafId) : undefined;
  const others = tips
    .filter((e) => e.id !== leafId)
    .sort((a, b) => String(b.timestamp).localeCompare(String(a.timestamp)));
  const ordered = leaf ? [leaf, ...others] : others;

  const rows: BranchPickRow[] = [];
  if (ordered.length > 0) rows.push({ separator: "Branch tips" });
  for (const e of ordered) {
    const label = getLabel(e.id);
    const request = requestOf(e, byId);
    // The detail line is always shown (a group's separator label can cover the description).
    const detail = [
      e.id === leafId ? "← active" : "",
      request && request !== e ? `answers: ${singleLine(request.preview, 120)}` : "",
    ].filter(Boolean);
    rows.push({
      label: `$(git-branch) ${describe(e)}`,
      description: label ? `[${label}]` : undefined,
      detail: detail.join(" · ") || undefined,
      value: e.id,
    });
  }
  const all = nodeRows(envelopes, leafId, getLabel).filter((r) => r.value !== exclude);
  if (all.length > 0) rows.push({ separator: "All nodes" }, ...all);
  return rows;
}

/** The nearest user message at or above `e`, within a bounded walk. */
function requestOf(e: EnvelopeLike, byId: ReadonlyMap<string, EnvelopeLike>): EnvelopeLike | undefined {
  let at: EnvelopeLike | undefined = e;
  for (let step = 0; at && step < REQUEST_LOOKUP_STEPS; step++) {
    if (at.type === "message" && at.role === "user") return at;
    at = at.parentId === null ? undefined : byId.get(at.parentId);
  }
  return undefined;
}
