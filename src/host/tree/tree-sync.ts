/**
 * Keeps the tree webview in step with the session store: one snapshot on `ready`, then the store's change
 * events, gathered per tick into one `tree/update` (new rows, labels, archived branches, leaf), so a streamed
 * turn does not flood the webview and a move (its leaf marker and the leaf) redraws the tree once; a rewrite of
 * the file (a deleted branch) sends a new snapshot. A checkpoint entry gives the row it hangs off a badge: that
 * row is sent again with its count; a parallel branch's check record gives the row it checked its mark (✓ / ✗,
 * running) the same way. Pure: no `vscode` import.
 */
import { branchCheckOf, rowCheckOf } from "../../core/parallel/branch-check.js";
import { liveCheckIds } from "../../core/parallel/check-runner.js";
import { branchRunMarkOf, type BranchRunMark } from "../../core/parallel/branch-run-lines.js";
import { encodeEnvelopes, encodeTreeRows } from "../../core/rows/row-columns.js";
import { treeRowOf, type RowCheck, type TreeRow } from "../../core/rows/tree-row.js";
import { ARCHIVE_MARKER_TYPE } from "../../core/session/entry-kinds.js";
import type { EntryEnvelope, SessionEntry } from "../../core/session/types.js";
import type { HostToWebview } from "../../shared/protocol.js";
import { badgeOf, changedFileCounts } from "../checkpoints/file-counts.js";

/** A store change as the tree needs it (structural subset of the core's SessionChange). */
export type TreeChange =
  | { type: "append"; entry: { id: string; type: string; parentId: string | null; timestamp: string } }
  | { type: "leaf"; leafId: string | null }
  | { type: "rewrite" };

/** What the sync reads from a SessionManager. */
export interface TreeSource {
  getEnvelopes(): readonly EntryEnvelope[];
  getEnvelope(id: string): EntryEnvelope | undefined;
  /** Whole entries: only checkpoint entries are read (for the badges). */
  getEntry(id: string): SessionEntry | undefined;
  /** Cheap: no envelope is read (a session's previews may still be loading). */
  hasEntry(id: string): boolean;
  getLabel(id: string): string | undefined;
  /** First entries of the archived branches. */
  getArchivedBranches(): string[];
  getLeafId(): string | null;
  getSessionId(): string;
  getSessionName(): string | undefined;
  getSessionFile(): string | undefined;
  isReadOnly(): boolean;
  subscribe(listener: (change: TreeChange) => void): () => void;
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

/** The tree view's snapshot message. */
type TreeSnapshot = Extract<HostToWebview, { type: "tree/snapshot" }>;

/** Changes waiting to go out as one `tree/update` (rows are encoded when it is flushed). */
interface PendingUpdate {
  rows: TreeRow[];
  /** Position of each id in `rows`. */
  at: Map<string, number>;
  /** The last label change per entry. */
  labels: Map<string, LabelChange>;
  archived?: string[];
  /** Only the final leaf of a burst matters. */
  leafId?: string | null;
}

/** Mirrors one session into the tree view. */
export class TreeSync {
  /** A snapshot after a rewrite of the file, then what changed after it; both go out on the next flush. */
  private pendingSnapshot: Extract<HostToWebview, { type: "tree/snapshot" }> | undefined;
  private pending: PendingUpdate | undefined;
  private scheduled = false;
  private readonly unsubscribe: () => void;
  /** Badge counts by entry id (file-counts.ts), rebuilt by every snapshot. */
  private fileCounts = new Map<string, number>();
  /** Check marks by the checked entry's id (src/core/parallel/branch-check.ts), rebuilt by every snapshot. */
  private checkMarks = new Map<string, RowCheck>();
  /** A snapshot encoded ahead (prepare()) and what it was made from besides the store, until one is asked for. */
  private prepared: { msg: TreeSnapshot; made: string } | undefined;

  constructor(
    private readonly source: TreeSource,
    private readonly post: (msg: HostToWebview) => void,
    /** Whether archived branches are shown: the host's choice (archived-visibility.ts), sent in every snapshot. */
    private readonly showArchived: () => boolean = () => false,
  ) {
    this.unsubscribe = source.subscribe((c) => this.onChange(c));
  }

  /** True when the session has this entry (message validation). */
  hasEntry(id: string): boolean {
    return this.source.hasEntry(id);
  }

  /**
   * Encodes the snapshot now, while the tree view loads, so that the view's `ready` gets it at once: in a
   * 30,000-entry session the encoding costs 100–200 ms, which the view would otherwise wait for. The next
   * snapshot() returns it unless the session changed since (or what else it shows: archived branches, read-only,
   * running checks); else it encodes a new one.
   */
  prepare(): void {
    this.prepared = undefined;
    this.prepared = { msg: this.encode(), made: this.madeFrom() };
  }

  /** The whole tree; pending incremental updates are dropped since the snapshot includes them. */
  snapshot(): TreeSnapshot {
    this.pendingSnapshot = undefined;
    this.pending = undefined;
    const ahead = this.prepared;
    this.prepared = undefined;
    return ahead !== undefined && ahead.made === this.madeFrom() ? ahead.msg : this.encode();
  }

  /** What a snapshot shows besides the store's entries (whose changes drop a prepared one in onChange). */
  private madeFrom(): string {
    return JSON.stringify([this.showArchived(), this.source.isReadOnly(), [...liveCheckIds()]]);
  }

  private encode(): TreeSnapshot {
    const s = this.source;
    const leafId = s.getLeafId();
    const envelopes = s.getEnvelopes();
    this.fileCounts = changedFileCounts(envelopes, (id) => s.getEntry(id));
    this.checkMarks = new Map();
    // Run lines' marks: the row menu offers a branch's items (Adopt This Branch, …) on its rows only.
    const runMarks = new Map<string, BranchRunMark>();
    const live = liveCheckIds();
    const entryOf = (id: string): SessionEntry | undefined => s.getEntry(id);
    for (const env of envelopes) {
      const check = branchCheckOf(env, entryOf, live);
      if (check) this.checkMarks.set(check.rowId, rowCheckOf(check));
      // Run lines are custom entries: no closure is made for the rest (a 30k-entry snapshot encodes every row).
      if (env.type !== "custom") continue;
      const mark = branchRunMarkOf(env, () => s.getEntry(env.id));
      if (mark) runMarks.set(env.id, mark);
    }
    const msg: TreeSnapshot = {
      type: "tree/snapshot",
      sessionId: s.getSessionId(),
      rows: encodeEnvelopes(envelopes, (id) => s.getLabel(id), this.fileCounts, this.checkMarks, runMarks),
      leafId,
    };
    const name = s.getSessionName();
    if (name !== undefined) msg.sessionName = name;
    const archived = s.getArchivedBranches();
    if (archived.length > 0) msg.archived = archived;
    if (this.showArchived()) msg.showArchived = true;
    const file = s.getSessionFile();
    if (file !== undefined) msg.sessionFile = file;
    if (s.isReadOnly()) msg.readOnly = true;
    return msg;
  }

  /** Post everything queued now (tests; before a snapshot of the chat that must follow it). */
  flush(): void {
    this.scheduled = false;
    const snapshot = this.pendingSnapshot;
    const p = this.pending;
    this.pendingSnapshot = undefined;
    this.pending = undefined;
    if (snapshot) this.post(snapshot);
    if (!p) return;
    const msg: Extract<HostToWebview, { type: "tree/update" }> = { type: "tree/update" };
    if (p.rows.length > 0) msg.rows = encodeTreeRows(p.rows);
    if (p.labels.size > 0) msg.labels = [...p.labels.values()];
    if (p.archived !== undefined) msg.archived = p.archived;
    if (p.leafId !== undefined) msg.leafId = p.leafId;
    this.post(msg);
  }

  dispose(): void {
    this.unsubscribe();
    this.prepared = undefined;
    this.pendingSnapshot = undefined;
    this.pending = undefined;
  }

  private onChange(c: TreeChange): void {
    this.prepared = undefined;
    if (c.type === "rewrite") {
      this.pendingSnapshot = this.snapshot();
    } else if (c.type === "leaf") {
      this.update().leafId = c.leafId;
    } else {
      const p = this.update();
      this.enqueueRow(p, this.rowOf(c.entry));
      this.enqueueBadge(p, c.entry.id);
      this.enqueueCheck(p, c.entry.id);
      const change = labelChangeOf(c.entry as { type: string; targetId?: unknown; label?: unknown });
      if (change) p.labels.set(change.id, change);
      if (isArchiveLine(c.entry)) p.archived = this.source.getArchivedBranches();
      // Appends advance the store's leaf without a separate "leaf" change; tell the webview.
      if (this.source.getLeafId() === c.entry.id) p.leafId = c.entry.id;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(() => this.flush());
    }
  }

  /** The update being gathered for the next flush. */
  private update(): PendingUpdate {
    this.pending ??= { rows: [], at: new Map(), labels: new Map() };
    return this.pending;
  }

  /** The tick's rows go out as one batch; a row sent again within it (a badge) replaces its earlier copy. */
  private enqueueRow(p: PendingUpdate, row: TreeRow): void {
    const at = p.at.get(row.id);
    if (at !== undefined) p.rows[at] = row;
    else p.at.set(row.id, p.rows.push(row) - 1);
  }

  /** An appended checkpoint entry gives its parent row a badge: that row goes again, with the count. */
  private enqueueBadge(p: PendingUpdate, id: string): void {
    const env = this.source.getEnvelope(id);
    const badge = env && badgeOf(env, (entryId) => this.source.getEntry(entryId));
    if (!badge) return;
    this.fileCounts.set(badge.rowId, badge.count);
    const row = this.source.getEnvelope(badge.rowId);
    if (row) this.enqueueRow(p, this.rowOf(row));
  }

  /** An appended check record gives the row it checked its mark: that row goes again, with it. */
  private enqueueCheck(p: PendingUpdate, id: string): void {
    const env = this.source.getEnvelope(id);
    const check = env && branchCheckOf(env, (entryId) => this.source.getEntry(entryId), liveCheckIds());
    if (!check) return;
    this.checkMarks.set(check.rowId, rowCheckOf(check));
    const row = this.source.getEnvelope(check.rowId);
    if (row) this.enqueueRow(p, this.rowOf(row));
  }

  private rowOf(entry: { id: string; type: string; parentId: string | null; timestamp: string }): TreeRow {
    const env = this.source.getEnvelope(entry.id);
    if (env)
      return treeRowOf(
        env,
        this.source.getLabel(entry.id),
        this.fileCounts.get(entry.id),
        this.checkMarks.get(entry.id),
        branchRunMarkOf(env, () => this.source.getEntry(entry.id)),
      );
    // The store should always have the envelope; fall back to the bare entry rather than drop the row.
    const { id, type, parentId, timestamp } = entry;
    return treeRowOf({ id, type, parentId, timestamp, preview: "" });
  }
}

/** True for an archive or unarchive line (the tree's archived branches changed). */
function isArchiveLine(entry: { type: string }): boolean {
  return entry.type === "custom" && (entry as { customType?: unknown }).customType === ARCHIVE_MARKER_TYPE;
}
