/** Rows and snapshots for the tree view tests (the pure ones and those in Chromium). */
import { encodeTreeRows } from "../../src/core/rows/row-columns.js";
import type { TreeRow } from "../../src/core/rows/tree-row.js";
import type { HostToWebview } from "../../src/shared/protocol.js";

let clock = 0;

/** A tree row; each one made is a second later than the one before, from 2026-01-01. Preview: "<kind> <id>". */
export function treeRow(
  id: string,
  parentId: string | null,
  kind: TreeRow["kind"],
  extra: Partial<TreeRow> = {},
): TreeRow {
  clock++;
  return {
    id,
    parentId,
    kind,
    timestamp: new Date(Date.UTC(2026, 0, 1) + clock * 1000).toISOString(),
    preview: `${kind} ${id}`,
    ...extra,
  };
}

/**
 * Tree rows from `<id> <parent id or "-"> <kind>: <preview>` lines (each a {@link treeRow}, in order), for trees
 * whose rows differ only by their place, kind and preview.
 */
export function rowsOf(lines: readonly string[]): TreeRow[] {
  return lines.map((line) => {
    const m = /^(\S+) (\S+) (\w+): (.*)$/s.exec(line);
    if (!m) throw new Error(`a row is "<id> <parent id or -> <kind>: <preview>", not "${line}"`);
    return treeRow(m[1], m[2] === "-" ? null : m[2], m[3] as TreeRow["kind"], { preview: m[4] });
  });
}

/** The message that hands the tree view a whole tree. */
export type TreeSnapshot = Extract<HostToWebview, { type: "tree/snapshot" }>;

/** The snapshot the host posts for `rows` with the leaf at `leafId`. */
export function treeSnapshot(rows: readonly TreeRow[], leafId: string | null, sessionId = "s1"): TreeSnapshot {
  return { type: "tree/snapshot", sessionId, rows: encodeTreeRows(rows), leafId };
}
