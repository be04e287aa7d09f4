/**
 * Quick-pick rows for the session picker and the node picker (Switch Branch commands). Pure: returns
 * plain objects shaped like vscode.QuickPickItem plus the value they stand for.
 */
import * as path from "node:path";
import type { AnySessionInfo, PiSessionFolder, SessionSource } from "../../core/import/session-sources.js";
import { buildSessionThreads, flattenThreads } from "../../core/session/session-threads.js";
import type { SessionInfo, SkippedSessionFile } from "../../core/session/types.js";
import { kindCode, rowFlags } from "../../core/rows/row-columns.js";
import { passesFilter } from "../../core/rows/row-filter.js";
import { rowWords } from "../../core/entries/row-words.js";
import { singleLine, type TreeRow } from "../../core/rows/tree-row.js";
import { shapeTree } from "../../core/session/tree-shape.js";

/** A quick-pick row carrying its value. */
export interface PickRow<T> {
  label: string;
  description?: string;
  detail?: string;
  value: T;
}

/** "1.2 MB" style sizes. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Session picker rows: name (or first message), date and size, first message as detail. */
export function sessionRows(sessions: readonly SessionInfo[], current?: string): PickRow<SessionInfo>[] {
  return sessions.map((s) => {
    const first = singleLine(s.firstMessage || "(no messages)", 120);
    const when = s.modified.toLocaleString();
    const marker = s.path === current ? " (open)" : "";
    return {
      label: (s.name ? singleLine(s.name, 80) : first) + marker,
      description: `${when} · ${s.messageCount} messages · ${formatSize(s.sizeBytes)}`,
      detail: s.name ? first : undefined,
      value: s,
    };
  });
}

const SOURCE_ORDER: Record<SessionSource, number> = { workspace: 0, pi: 1, claude: 2 };

/** Where a session comes from, as the picker says it ("" for the workspace's own folder). */
export function sourceLabel(s: Pick<AnySessionInfo, "source" | "path">): string {
  if (s.source === "claude") return "Claude Code";
  if (s.source === "pi") return `pi · ${path.basename(path.dirname(s.path))}`;
  return "";
}

/** A session's name as a picker shows it: its name, else its first message. */
function sessionName(s: Pick<AnySessionInfo, "name" | "firstMessage">, max: number): string {
  return s.name ? singleLine(s.name, max) : singleLine(s.firstMessage || "(no messages)", max);
}

/** Indentation of a fork row per level (em spaces: the quick pick keeps them). */
const FORK_INDENT = "\u2003\u2003";

/**
 * Rows for sessions of every source, as threads (src/core/session/session-threads.ts): a fork right below the
 * session it was forked from, indented, with a `$(git-branch)` icon and "fork of …"; threads newest activity
 * first, the workspace's before pi's other folder before Claude Code's (a thread goes where its first session
 * comes from). Each row says where the session comes from.
 */
export function anySessionRows(sessions: readonly AnySessionInfo[], current?: string): PickRow<AnySessionInfo>[] {
  const threads = buildSessionThreads(sessions).sort(
    (a, b) => SOURCE_ORDER[a.session.source] - SOURCE_ORDER[b.session.source],
  );
  return flattenThreads(threads).map(({ session: s, depth, forkOf }) => {
    const first = singleLine(s.firstMessage || "(no messages)", 120);
    const marker = s.path === current ? " (open)" : "";
    const facts = [
      forkOf ? `fork of ${sessionName(forkOf, 60)}` : "",
      sourceLabel(s),
      s.modified.toLocaleString(),
      `${s.messageCount} messages`,
      formatSize(s.sizeBytes),
    ].filter(Boolean);
    const fork = depth > 0 ? `${FORK_INDENT.repeat(Math.min(depth, 8))}$(git-branch) ` : "";
    return {
      label: fork + (s.name ? singleLine(s.name, 80) : first) + marker,
      description: facts.join(" · "),
      detail: s.name ? first : undefined,
      value: s,
    };
  });
}

/** How many skipped files the picker's row names before it says "and N more". */
const SKIPPED_NAMED = 3;

/**
 * The picker's last row when files of the session folders are no session (empty, no header, a folder): how many,
 * the first few with their reasons; picking it shows the log, which has every one. None: no row.
 */
export function skippedFilesRow(skipped: readonly SkippedSessionFile[]): PickRow<"skippedFiles"> | undefined {
  if (skipped.length === 0) return undefined;
  const named = skipped.slice(0, SKIPPED_NAMED).map((s) => `${path.basename(s.path)}: ${singleLine(s.reason, 80)}`);
  const more = skipped.length - named.length;
  return {
    label: `$(warning) ${skipped.length === 1 ? "1 file is" : `${skipped.length} files are`} not listed: not a session`,
    description: "show the log",
    detail: named.join("; ") + (more > 0 ? `; and ${more} more` : ""),
    value: "skippedFiles",
  };
}

/** Rows for pi's session folders of other workspaces: every folder but the `exclude`d ones (resolved paths). */
export function piFolderRows(
  folders: readonly PiSessionFolder[],
  exclude: readonly string[],
): PickRow<PiSessionFolder>[] {
  const skip = new Set(exclude.map((p) => path.resolve(p)));
  return folders
    .filter((f) => !skip.has(path.resolve(f.path)))
    .map((f) => ({ label: f.cwdGuess, description: path.basename(f.path), value: f }));
}

/** Rows the node picker lists: the tree's "no tools" filter (tool-call-only turns shown only at the leaf). */
function listed(r: TreeRow, leafId: string | null): boolean {
  return passesFilter("no-tools", kindCode(r.kind), rowFlags(r), r.label !== undefined, r.id === leafId);
}

/** "role: text" of a row, as the tree shows it, for a picker (shortened). */
export function pickerText(r: TreeRow, max = 100): string {
  const { role, text } = rowWords(r);
  return text === "" ? role : `${role} ${singleLine(text, max)}`;
}

/**
 * Node picker rows in depth-first order, the tree's shape as the core decides it (src/core/session/tree-shape.ts:
 * siblings in pi's order, cycles broken). Only branch points indent, as in pi's tree; the active path is marked
 * with ● and the leaf with "← active".
 */
export function nodeRows(rows: readonly TreeRow[], leafId: string | null): PickRow<string>[] {
  const { parents, roots, children } = shapeTree(rows);
  const onPath = new Uint8Array(rows.length);
  const leaf = leafId === null ? -1 : rows.findIndex((r) => r.id === leafId);
  for (let i = leaf; i >= 0; i = parents[i]) onPath[i] = 1;

  const out: PickRow<string>[] = [];
  // Iterative DFS: sessions can be deep enough to overflow recursion.
  const stack: { i: number; depth: number }[] = [];
  for (let k = roots.length - 1; k >= 0; k--) stack.push({ i: roots[k], depth: roots.length > 1 ? 1 : 0 });
  while (stack.length > 0) {
    const { i, depth } = stack.pop()!;
    const r = rows[i];
    if (listed(r, leafId)) {
      const mark = onPath[i] === 1 ? "● " : "";
      out.push({
        label: `${"\u2003".repeat(Math.min(depth, 20))}${mark}${pickerText(r)}`,
        description:
          [r.label ? `[${r.label}]` : "", r.id === leafId ? "← active" : ""].filter(Boolean).join(" ") || undefined,
        value: r.id,
      });
    }
    const kids = children[i] ?? [];
    // Label and marker entries hang off the leaf; they must not make a branch point indent.
    const branching = kids.filter((k) => !isBookkeepingChild(rows[k])).length > 1;
    const childDepth = branching ? depth + 1 : depth;
    for (let k = kids.length - 1; k >= 0; k--) stack.push({ i: kids[k], depth: childDepth });
  }
  return out;
}

/** Entries that hang off a node without making it a branch point (labels, leaf markers, extension state). */
export function isBookkeepingChild(r: TreeRow): boolean {
  return r.kind === "label" || r.kind === "custom";
}
