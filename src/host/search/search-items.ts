/**
 * Quick-pick rows for "Agent: Search Sessions…" results. Pure: plain objects shaped like vscode.QuickPickItem
 * plus the hit they stand for.
 */
import type { SessionSearchHit } from "../../core/search/types.js";
import { kindIcon } from "../../core/entries/kind-words.js";
import { sourceLabel, type PickRow } from "../common/pick-items.js";
import { singleLine } from "../../core/rows/tree-row.js";

/** Longest snippet a row shows. */
const SNIPPET_CHARS = 160;

/** "name of the branch": its label, else its first user message. */
export function branchName(hit: SessionSearchHit): string {
  if (hit.branch.label) return singleLine(hit.branch.label, 60);
  if (hit.branch.firstUserMessage) return `“${singleLine(hit.branch.firstUserMessage, 60)}”`;
  return "(no user message)";
}

/**
 * One result: the snippet (with the kind's icon) as the label, the session and where it comes from as the
 * description, the branch (and whether it is abandoned) and the time as the detail.
 */
export function searchHitRow(hit: SessionSearchHit): PickRow<SessionSearchHit> {
  const icon = kindIcon(hit.kind);
  const time = new Date(hit.timestamp);
  const when = Number.isNaN(time.getTime()) ? "" : time.toLocaleString();
  const session = singleLine(hit.sessionTitle || "(untitled session)", 60);
  const branch = `$(git-branch) ${branchName(hit)}${hit.branch.active ? "" : " (abandoned branch)"}`;
  return {
    label: `$(${icon}) ${singleLine(hit.snippet.text, SNIPPET_CHARS)}`,
    description: [session, sourceLabel(hit)].filter(Boolean).join(" · "),
    detail: [branch, hit.label ? `$(tag) ${singleLine(hit.label, 40)}` : "", when].filter(Boolean).join(" · "),
    value: hit,
  };
}

/** The quick pick's title for a search's state. */
export function searchTitle(state: {
  query: string;
  hits: number;
  sessions: number;
  running: boolean;
  truncated: boolean;
}): string {
  if (state.query.trim() === "") return "Search Sessions";
  if (state.running) return `Search Sessions — ${state.hits} found so far…`;
  if (state.hits === 0) return "Search Sessions — no matches";
  const more = state.truncated ? " (the first ones; add words to narrow)" : "";
  return `Search Sessions — ${state.hits} in ${state.sessions} session${state.sessions === 1 ? "" : "s"}${more}`;
}
