/**
 * Tree rows for the webview, built from the session store's envelopes (no body parsing, so a
 * 100k-entry session stays cheap). Pure: no `vscode` import.
 */
import type { TreeNodeDto } from "../shared/protocol.js";
import {
  FLAG_FAILED,
  FLAG_HIDDEN,
  FLAG_ORPHAN,
  FLAG_TOOL_CALLS_ONLY,
  columnString,
  kindCode,
  StringColumnBuilder,
  type StringColumn,
  type TreeColumns,
} from "../shared/tree-columns.js";
import { kindOf } from "../shared/entry-kind.js";

export { kindOf };

/**
 * The fields of the core's `EntryEnvelope` this module reads (structural, so it works with the
 * store's own type without importing its implementation).
 */
export interface EnvelopeLike {
  id: string;
  parentId: string | null;
  type: string;
  role?: string;
  timestamp: string | number;
  preview: string;
  toolName?: string;
  toolCallsOnly?: boolean;
  tokens?: number;
  failed?: boolean;
  hidden?: boolean;
  orphan?: boolean;
  fromId?: string;
}

/** Previews are single-line and bounded whatever the store hands over. */
export function singleLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

function previewOf(p: string | undefined): string {
  if (typeof p !== "string") return "";
  return p.length > 200 || p.includes("\n") ? singleLine(p) : p;
}

function isoTimestamp(t: string | number): string {
  if (typeof t === "string") return t;
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? "" : d.toISOString();
}

/** One envelope as a tree row; `changedFiles` is its badge (src/host/file-counts.ts). */
export function envelopeToDto(env: EnvelopeLike, label?: string, changedFiles?: number): TreeNodeDto {
  const dto: TreeNodeDto = {
    id: env.id,
    parentId: env.parentId,
    kind: kindOf(env.type, env.role),
    timestamp: isoTimestamp(env.timestamp),
    // The store already collapses whitespace and bounds previews; only enforce the bound (cheap).
    preview: previewOf(env.preview),
  };
  if (label !== undefined && label !== "") dto.label = label;
  if (env.toolCallsOnly) dto.toolCallsOnly = true;
  if (env.toolName !== undefined) dto.toolName = env.toolName;
  if (env.tokens !== undefined) dto.tokens = env.tokens;
  if (env.failed) dto.failed = true;
  if (env.orphan) dto.orphan = true;
  if (env.hidden) dto.hidden = true;
  if (env.fromId !== undefined) dto.fromId = env.fromId;
  if (changedFiles !== undefined) dto.changedFiles = changedFiles;
  return dto;
}

/** All envelopes as rows (file order), labels resolved through `getLabel`. */
export function buildTreeNodes(
  envelopes: readonly EnvelopeLike[],
  getLabel: (id: string) => string | undefined,
): TreeNodeDto[] {
  const out = new Array<TreeNodeDto>(envelopes.length);
  for (let i = 0; i < envelopes.length; i++) out[i] = envelopeToDto(envelopes[i], getLabel(envelopes[i].id));
  return out;
}

/**
 * The snapshot's columnar tree straight from the envelopes (no row objects): file order, first occurrence
 * of a duplicated id only, parents as indexes, labels resolved through `getLabel`, badges from `fileCounts`.
 */
export function buildTreeColumns(
  envelopes: readonly EnvelopeLike[],
  getLabel: (id: string) => string | undefined,
  leafId: string | null,
  fileCounts: ReadonlyMap<string, number> = new Map(),
): TreeColumns {
  const total = envelopes.length;
  // Column index of each id's first occurrence; later duplicates are left out (the webview never shows them).
  const indexOf = new Map<string, number>();
  let keep: Uint8Array | undefined;
  for (let e = 0; e < total; e++) {
    const id = envelopes[e].id;
    if (indexOf.has(id)) (keep ??= new Uint8Array(total).fill(1))[e] = 0;
    else indexOf.set(id, indexOf.size);
  }
  const n = indexOf.size;
  const parents = new Array<number>(n);
  const kinds = new Array<number>(n);
  const flags = new Array<number>(n);
  const ids = new StringColumnBuilder();
  const timestamps = new StringColumnBuilder();
  const previews = new StringColumnBuilder();
  const toolNames = new StringColumnBuilder();
  const labels: TreeColumns["labels"] = { at: [], text: [] };
  const tokens: TreeColumns["tokens"] = { at: [], value: [] };
  const fromIds: TreeColumns["fromIds"] = { at: [], id: [] };
  const changedFiles: TreeColumns["changedFiles"] = { at: [], value: [] };
  const anyCounts = fileCounts.size > 0;
  // Sibling order check in the same pass: last child per parent (slot n: the roots) and its timestamp.
  const lastChild = new Int32Array(n + 1).fill(-1);
  const stamps = new Array<string>(n);
  let childrenSorted = true;
  let kindType = "";
  let kindRole: string | undefined;
  let kind = 0;
  for (let e = 0, i = 0; e < total; e++) {
    if (keep !== undefined && keep[e] === 0) continue;
    const env = envelopes[e];
    ids.push(env.id);
    // An orphan is a root even when its parentId names an entry: the store broke a parentId cycle there.
    const p = env.parentId === null || env.orphan === true ? -1 : (indexOf.get(env.parentId) ?? -1);
    parents[i] = p === i ? -1 : p;
    // Runs of the same type/role are common; skip the lookups for them.
    if (env.type !== kindType || env.role !== kindRole) {
      kindType = env.type;
      kindRole = env.role;
      kind = kindCode(kindOf(env.type, env.role));
    }
    kinds[i] = kind;
    flags[i] =
      (env.toolCallsOnly === true ? FLAG_TOOL_CALLS_ONLY : 0) |
      (env.failed === true ? FLAG_FAILED : 0) |
      (env.orphan === true ? FLAG_ORPHAN : 0) |
      (env.hidden === true ? FLAG_HIDDEN : 0);
    const ts = isoTimestamp(env.timestamp);
    timestamps.push(ts);
    stamps[i] = ts;
    const slot = parents[i] < 0 ? n : parents[i];
    if (childrenSorted && lastChild[slot] >= 0 && stamps[lastChild[slot]] > ts) childrenSorted = false;
    lastChild[slot] = i;
    // The store's previews are single-line and bounded; reading each one for "\n" here would flatten
    // 100k strings one by one, so only the bound is checked per entry and the newlines once, below.
    const p0 = env.preview;
    previews.push(typeof p0 !== "string" ? "" : p0.length > 200 ? singleLine(p0) : p0);
    toolNames.push(env.toolName ?? "");
    const label = getLabel(env.id);
    if (label !== undefined && label !== "") {
      labels.at.push(i);
      labels.text.push(label);
    }
    if (env.tokens !== undefined) {
      tokens.at.push(i);
      tokens.value.push(env.tokens);
    }
    if (env.fromId !== undefined) {
      fromIds.at.push(i);
      fromIds.id.push(env.fromId);
    }
    const files = anyCounts ? fileCounts.get(env.id) : undefined;
    if (files !== undefined) {
      changedFiles.at.push(i);
      changedFiles.value.push(files);
    }
    i++;
  }
  let previewColumn = previews.build();
  if (previewColumn.text.includes("\n")) previewColumn = rebuildPreviews(previewColumn);
  return {
    count: n,
    ids: ids.build(),
    parents,
    kinds,
    flags,
    timestamps: timestamps.build(),
    previews: previewColumn,
    toolNames: toolNames.build(),
    labels,
    tokens,
    fromIds,
    changedFiles,
    leaf: leafId === null ? -1 : (indexOf.get(leafId) ?? -1),
    childrenSorted,
  };
}

/** The previews again, each made single-line (for a store that handed over multi-line ones). */
function rebuildPreviews(col: StringColumn): StringColumn {
  const out = new StringColumnBuilder();
  for (let i = 0; i < col.ends.length; i++) out.push(previewOf(columnString(col, i)));
  return out.build();
}

/** A label entry as the tree sees it: which entry's label changed, and to what. */
export interface LabelChange {
  id: string;
  label?: string;
}

/** The label change an appended entry makes, if it is a label entry. */
export function labelChangeOf(entry: { type: string; targetId?: unknown; label?: unknown }): LabelChange | undefined {
  if (entry.type !== "label" || typeof entry.targetId !== "string") return undefined;
  const label = typeof entry.label === "string" && entry.label !== "" ? entry.label : undefined;
  return label === undefined ? { id: entry.targetId } : { id: entry.targetId, label };
}
