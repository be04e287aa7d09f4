/**
 * One tree row. Text goes in as text nodes only (Preact escapes it), never as HTML.
 */
import type { JSX } from "preact";
import { isLandmarkKind } from "../../src/core/entries/kind-words.js";
import { rowWords } from "../../src/core/entries/row-words.js";
import type { RowCheck, TreeRow as TreeRowData } from "../../src/core/rows/tree-row.js";
import { EXPANDED, FOLDABLE, guideText, type FlatRows } from "./tree-flatten.js";
import { CONTEXT } from "./tree-filter.js";
import type { RunningBranchDto } from "../../src/shared/protocol.js";
import type { BranchItems } from "./tree-branches.js";

/** Fixed row height in px: windowing depends on it (keep in sync with `.tree-row` in media/webview.css). */
export const ROW_HEIGHT = 22;

/** The badge's tooltip (and accessible name). */
export function filesTitle(count: number): string {
  return count === 1 ? "1 file changed here" : `${count} files changed here`;
}

/** Props of one row. */
export interface TreeRowProps {
  rows: FlatRows;
  row: number;
  node: TreeRowData;
  nodeIdx: number;
  selected: boolean;
  onPath: boolean;
  /** The active row: the leaf, or its nearest shown ancestor when the filter hides the leaf. */
  isLeaf: boolean;
  visibility: number;
  /** In an archived branch (shown dimmed; only when archived branches are shown). */
  archived: boolean;
  /** The first entry of an archived branch (marked "archived"). */
  archivedRoot: boolean;
  /** The row menu's parallel items that apply here (a parallel branch's row, a checked one's, an aside's). */
  branchItems: BranchItems;
  /** The newest row of a branch running beside the user's: a spinner, the current tool, tokens so far. */
  running?: RunningBranchDto;
  /** Whole text once the host sent it; the preview until then. */
  title: string;
  /** A branch summary from elsewhere: what its source node says (the row shows "from: …"). */
  sourceText?: string;
  onSourceClick: (nodeIdx: number) => void;
  onRowClick: (nodeIdx: number) => void;
  onTwistyClick: (nodeIdx: number) => void;
  onHover: (nodeIdx: number) => void;
}

/**
 * Render a row, absolutely positioned at its offset in the scroll area. The row is a one-line flex box that
 * clips (never scrolls) its content: gutter, twisty and markers keep their width, only the entry's text
 * shrinks (with an ellipsis), so `← active` stays visible and nothing inside can shift the row sideways.
 */
export function TreeRow(p: TreeRowProps): JSX.Element {
  const { rows, row, node: d } = p;
  const f = rows.flags[row];
  const foldable = (f & FOLDABLE) !== 0;
  const expanded = (f & EXPANDED) !== 0;
  const level = rows.level[row];
  const g = guideText(rows, row);
  const desc = rowWords(d);
  const dim = !isLandmarkKind(d.kind);
  const cls = ["tree-row", `kind-${d.kind}`];
  if (dim) cls.push("dim");
  if (p.onPath) cls.push("on-path");
  if (p.isLeaf) cls.push("active-leaf");
  if (p.selected) cls.push("selected");
  // A reply the user stopped is marked as such, not in the error colour of a failure.
  if (d.failed === true && d.aborted !== true) cls.push("failed");
  if (p.visibility === CONTEXT) cls.push("search-context");
  if (p.archived) cls.push("archived");
  const context = JSON.stringify({
    webviewSection: "entry",
    entryId: d.id,
    hasLabel: d.label !== undefined && d.label !== "",
    // Only set when true: Unarchive Branch shows for archived rows, Archive Branch for the others.
    ...(p.archived ? { archived: true } : {}),
    // Only set when true: "Go to Source" shows for rows that have one.
    ...(p.sourceText !== undefined ? { hasSource: true } : {}),
    // Only set when true: Adopt This Branch, Archive Other Branches, Run Check Again and Continue as Branch show
    // on the rows they act on (package.json's webview/context menu reads these keys).
    ...p.branchItems,
    preventDefaultContextMenuItems: true,
  });
  return (
    <div
      role="treeitem"
      id={`tree-row-${p.nodeIdx}`}
      class={cls.join(" ")}
      style={{ top: `${row * ROW_HEIGHT}px` }}
      data-entry-id={d.id}
      data-vscode-context={context}
      aria-level={level + 1}
      aria-setsize={rows.setSize[row]}
      aria-posinset={rows.posInSet[row]}
      aria-selected={p.selected}
      aria-expanded={foldable ? expanded : undefined}
      aria-current={p.isLeaf ? "true" : undefined}
      title={p.title}
      // The hover text is no description: the row's name says its text already, and a screen reader would read
      // it twice (a title that does not name an element describes it, unless a description is given).
      aria-description=""
      onClick={() => p.onRowClick(p.nodeIdx)}
      onMouseEnter={() => p.onHover(p.nodeIdx)}
    >
      {level > 0 ? (
        // --levels: the gutter's natural width for the stylesheet, which caps it and shows the depth when capped.
        <span class={g.deep ? "gutter deep" : "gutter"} style={{ "--levels": String(g.levels) }} aria-hidden="true">
          <span class="depth-hint" title={`Nesting depth ${level}`}>
            {level}
          </span>
          <span class="guides-clip">
            <span class="guides">{g.text}</span>
          </span>
        </span>
      ) : null}
      {foldable ? (
        <span
          class={`twisty codicon ${expanded ? "codicon-chevron-down" : "codicon-chevron-right"}`}
          aria-hidden="true"
          onClick={(e) => {
            e.stopPropagation();
            p.onTwistyClick(p.nodeIdx);
          }}
        />
      ) : (
        // Same width as a twisty, so text lines up whether or not a row folds.
        <span class="twisty-spacer" aria-hidden="true" />
      )}
      {d.orphan === true ? <span class="codicon codicon-warning orphan" title="parent entry missing" /> : null}
      {d.kind === "branch_summary" ? <span class="codicon codicon-git-merge kind-icon" aria-hidden="true" /> : null}
      {d.label !== undefined && d.label !== "" ? <span class="label-tag">[{d.label}]</span> : null}
      {p.sourceText !== undefined ? (
        // Goes to the node the summary came from (F12 and "Go to Source" do the same from the keyboard).
        <span
          class="source-tag"
          title={`Summarized from: ${p.sourceText} (click to go there)`}
          onClick={(e) => {
            e.stopPropagation();
            p.onSourceClick(p.nodeIdx);
          }}
        >
          from: {p.sourceText}
        </span>
      ) : null}
      <span class="entry">
        <span class="role">{desc.role}</span>
        {desc.text !== "" ? <span class="text"> {desc.text}</span> : null}
      </span>
      {d.changedFiles !== undefined ? (
        // Named as an image: its words ("3 files changed here"), not the bare count, go into the row's name.
        <span class="files-badge" role="img" aria-label={filesTitle(d.changedFiles)} title={filesTitle(d.changedFiles)}>
          <span class="codicon codicon-diff" aria-hidden="true" />
          {d.changedFiles}
        </span>
      ) : null}
      {d.check !== undefined ? <CheckMark check={d.check} /> : null}
      {d.aborted === true ? (
        <span class="aborted-tag"> (aborted)</span>
      ) : d.failed === true ? (
        <span class="failed-tag"> (failed)</span>
      ) : null}
      {p.archivedRoot ? (
        <span class="archived-tag" title="Archived branch: Unarchive Branch brings it back">
          <span class="codicon codicon-archive" aria-hidden="true" /> archived
        </span>
      ) : null}
      {p.running ? (
        <span class="running-tag" title="This branch is running (Stop Branch stops it)">
          <span class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" />{" "}
          {p.running.tool ?? "streaming"} · {p.running.tokens} tok
        </span>
      ) : null}
      {p.isLeaf ? (
        // The arrow is for the eye; a screen reader hears "active" (and the row's aria-current).
        <span class="active-marker">
          {" "}
          <span aria-hidden="true">←</span> active
        </span>
      ) : null}
    </div>
  );
}

/** What a check mark shows, and says to a screen reader. */
const CHECK_MARKS: Record<RowCheck["state"], { mark: string; words: string }> = {
  running: { mark: "", words: "check running" },
  passed: { mark: "✓", words: "check passed" },
  failed: { mark: "✗", words: "check failed" },
  timedOut: { mark: "✗", words: "check timed out" },
  stopped: { mark: "–", words: "check stopped" },
  error: { mark: "✗", words: "check could not run" },
};

/** A parallel branch's check on the row it checked: ✓ / ✗, or a spinner while it runs; the hover has its output. */
function CheckMark(p: { check: RowCheck }) {
  const { mark, words } = CHECK_MARKS[p.check.state];
  return (
    <span class={`check-mark check-${p.check.state}`} title={p.check.title} aria-label={words}>
      {p.check.state === "running" ? (
        <span class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" />
      ) : (
        mark
      )}
    </span>
  );
}
