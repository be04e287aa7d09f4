/**
 * View state of the tree outside Preact: index, filter, search, folds, selection and the flattened rows.
 * Components read it and call `changed()` subscribers; nothing here touches the DOM. Whether archived branches
 * show is the host's (src/host/archive/archived-visibility.ts): the model shows what the host's messages say and asks
 * the host to change it.
 */
import type { HostToWebview, RunningBranchDto, TreeFilter, WebviewToHost } from "../../src/shared/protocol.js";
import { archivedNodes, computeVisibility, HIDDEN, passesFilterAt, queryTokens } from "./tree-filter.js";
import { flatten, type FlatRows } from "./tree-flatten.js";
import { TreeIndex } from "./tree-index.js";
import { encodeTreeRows } from "../../src/core/rows/row-columns.js";
import { isTreeFilter } from "../../src/core/rows/row-filter.js";

/** What survives a reload of the view (webview getState/setState). */
export interface PersistedTreeState {
  filter: TreeFilter;
  sessionId?: string;
  folded: string[];
  selectedId?: string;
}

/** Read persisted state defensively: it may come from an older version of the view. */
export function readPersisted(raw: Record<string, unknown> | undefined): PersistedTreeState {
  const filter = isTreeFilter(raw?.filter) ? raw.filter : "default";
  const folded = Array.isArray(raw?.folded) ? raw.folded.filter((x): x is string => typeof x === "string") : [];
  const sessionId = typeof raw?.sessionId === "string" ? raw.sessionId : undefined;
  const selectedId = typeof raw?.selectedId === "string" ? raw.selectedId : undefined;
  return { filter, folded, sessionId, selectedId };
}

const EMPTY_INDEX = (): TreeIndex => new TreeIndex(encodeTreeRows([]), null);
const EMPTY_ROWS: FlatRows = flatten(EMPTY_INDEX(), new Uint8Array(0), new Set(), false);

/** The tree view's model. */
export class TreeModel {
  index: TreeIndex = EMPTY_INDEX();
  rows: FlatRows = EMPTY_ROWS;
  /** Per node: HIDDEN, SHOWN or CONTEXT (a search hit's ancestor). */
  visibility: Uint8Array = new Uint8Array(0);
  /** Per node: 1 when it is in an archived branch. */
  archived: Uint8Array = new Uint8Array(0);
  /** Whether archived branches are shown (dimmed); hidden otherwise. As the host last said. */
  showArchived = false;
  /** Bumped when the host's answer to `requestShowArchived` arrived: the view scrolls the selection into view. */
  archivedAnswerSeq = 0;
  /** Asked the host to show or hide archived branches; its answer has not arrived yet. */
  private awaitingArchived = false;
  /** An entry to select once archived branches show (it is in one, and they were hidden). */
  private revealWhenShown: string | undefined;
  /** First entries of the archived branches (from the host). */
  private archivedRoots: readonly string[] = [];
  filter: TreeFilter;
  query = "";
  sessionId: string | undefined;
  sessionName: string | undefined;
  readOnly = false;
  loaded = false;
  /** Node index of the selected row, or -1. */
  selected = -1;
  busy = false;
  /** First row in the viewport, kept up to date by the view (scroll anchoring). */
  viewTopRow = 0;
  /** Rows the view should scroll by after the next render (set by anchored updates). */
  scrollAdjustRows = 0;
  /** Bumped when an update moved the leaf: the view brings the active row into view (webview/tree/tree-follow.ts). */
  leafMoves = 0;
  busyMessage: string | undefined;
  /** Branches running beside the user's, by their newest row's entry id. */
  running = new Map<string, RunningBranchDto>();
  private folded: Set<string>;
  private pendingSelectedId: string | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    persisted: PersistedTreeState,
    /** Posts to the host (the request to show or hide archived branches). */
    private readonly post: (msg: WebviewToHost) => void = () => undefined,
  ) {
    this.filter = persisted.filter;
    this.sessionId = persisted.sessionId;
    this.folded = new Set(persisted.folded);
    this.pendingSelectedId = persisted.selectedId;
  }

  /** Subscribe to changes; returns an unsubscribe function. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** What to persist now. */
  persisted(): PersistedTreeState {
    return {
      filter: this.filter,
      sessionId: this.sessionId,
      folded: [...this.folded],
      selectedId: this.selected >= 0 ? this.index.id(this.selected) : undefined,
    };
  }

  /** Apply a tree message from the host. Returns true when it was a tree message. */
  apply(msg: HostToWebview): boolean {
    switch (msg.type) {
      case "tree/snapshot": {
        // Marks let the benchmark split first paint into index / flatten / render.
        performance.mark("tree:snapshot:received");
        const sameSession = msg.sessionId === this.sessionId;
        const keepId = this.selected >= 0 ? this.index.id(this.selected) : this.pendingSelectedId;
        this.index = new TreeIndex(msg.rows, msg.leafId);
        performance.mark("tree:snapshot:indexed");
        if (!sameSession) this.folded.clear();
        this.sessionId = msg.sessionId;
        this.sessionName = msg.sessionName;
        this.readOnly = msg.readOnly === true;
        this.archivedRoots = msg.archived ?? [];
        this.showArchived = msg.showArchived === true;
        this.loaded = true;
        this.recompute();
        performance.mark("tree:snapshot:flattened");
        const keep = sameSession && keepId !== undefined ? this.index.idToIdx.get(keepId) : undefined;
        this.selected = keep !== undefined && this.rows.rowOf[keep] >= 0 ? keep : this.defaultSelection();
        this.pendingSelectedId = undefined;
        this.index.warmSearch();
        break;
      }
      case "tree/update": {
        const leafBefore = this.index.leaf;
        const sizeBefore = this.index.size;
        // A selection on the active row stays on it as the leaf moves (a deliberate one elsewhere stays put).
        const selectionOnActive = this.selected < 0 || this.selected === this.activeNode();
        // All parts first, then one flatten: a flatten walks every node (tens of thousands in a big session).
        if (msg.rows !== undefined) this.index.append(msg.rows);
        if (msg.labels !== undefined) this.index.setLabels(msg.labels);
        if (msg.archived !== undefined) this.archivedRoots = msg.archived;
        if (msg.leafId !== undefined) this.index.setLeaf(msg.leafId);
        if (msg.showArchived !== undefined) this.showArchived = msg.showArchived;
        // A move's update holds its leaf marker's row besides the leaf: a row the filter hides, as a label line's is.
        const rowsAndLeaf = msg.labels === undefined && msg.archived === undefined && msg.showArchived === undefined;
        if (
          !rowsAndLeaf ||
          !this.appendsHidden(sizeBefore, msg.rows?.count ?? 0) ||
          !this.rowsKeptByLeafMove(leafBefore)
        )
          this.recomputeAnchored();
        if (msg.archived !== undefined || msg.showArchived !== undefined) this.keepSelectionVisible();
        if (msg.showArchived !== undefined) this.archivedStateArrived();
        if (this.index.leaf !== leafBefore) {
          this.leafMoves++;
          const active = this.activeNode();
          if (selectionOnActive && active >= 0) this.selected = active;
        }
        break;
      }
      case "tree/reveal":
        this.reveal(msg.entryId);
        break;
      case "tree/busy":
        this.busy = msg.busy;
        this.busyMessage = msg.busy ? msg.message : undefined;
        break;
      case "tree/running":
        this.running = new Map(msg.branches.map((b) => [b.tipId, b]));
        break;
      default:
        return false;
    }
    this.changed();
    return true;
  }

  /** Change the filter. */
  setFilter(filter: TreeFilter): void {
    if (filter === this.filter) return;
    this.filter = filter;
    this.narrowed();
  }

  /**
   * Ask the host to show archived branches (dimmed) or hide them (the toolbar toggle). Nothing changes here until
   * the host answers with the new state (`tree/update` `showArchived`).
   */
  requestShowArchived(show: boolean): void {
    this.awaitingArchived = true;
    this.post({ type: "tree/showArchived", show });
  }

  /** True when the branch this node is in was archived. */
  isArchived(nodeIdx: number): boolean {
    return this.archived[nodeIdx] === 1;
  }

  /** Change the search query. */
  setQuery(query: string): void {
    if (query === this.query) return;
    this.query = query;
    this.narrowed();
  }

  /** After the filter or the query changed: the rows again, the selection kept in view, the view told. */
  private narrowed(): void {
    this.recompute();
    this.keepSelectionVisible();
    this.changed();
  }

  /** Whether a search is narrowing the tree (folds are opened for display meanwhile). */
  get searching(): boolean {
    return queryTokens(this.query).length > 0;
  }

  /** Fold or unfold a node's descendants. */
  setFolded(nodeIdx: number, fold: boolean): void {
    const id = this.index.id(nodeIdx);
    if (fold === this.folded.has(id)) return;
    if (fold) this.folded.add(id);
    else this.folded.delete(id);
    this.recompute();
    this.changed();
  }

  /** Select a node by index (must be displayed). */
  select(nodeIdx: number): void {
    if (nodeIdx === this.selected) return;
    this.selected = nodeIdx;
    this.changed();
  }

  /**
   * Select an entry, unfolding it. The leaf (a move's reveal) the filter hides is not shown by changing the filter:
   * its active row is selected instead. Another entry the filter hides is shown with the _all_ filter. An entry in
   * a hidden archived branch is selected once the host, asked to show archived branches, says they show.
   */
  reveal(entryId: string): void {
    const i = this.index.idToIdx.get(entryId);
    if (i === undefined) return;
    // Unfold the folded ancestors, compared by node index: after a move the entry is the leaf, whose ancestors
    // are the whole path (33k in a 300 MB session), and decoding each one's id cost 50 ms per move there.
    let refolded = false;
    if (this.folded.size > 0) {
      const foldAt = new Map<number, string>();
      for (const id of this.folded) {
        const f = this.index.idToIdx.get(id);
        if (f !== undefined) foldAt.set(f, id);
      }
      for (let a = this.index.parent[i]; a >= 0 && foldAt.size > 0; a = this.index.parent[a]) {
        const id = foldAt.get(a);
        if (id === undefined) continue;
        foldAt.delete(a);
        this.folded.delete(id);
        refolded = true;
      }
    }
    if (refolded) this.recompute();
    if (this.rows.rowOf[i] < 0 && this.query !== "") {
      this.query = "";
      this.recompute();
    }
    if (this.rows.rowOf[i] < 0 && this.archived[i] === 1 && !this.showArchived) {
      this.revealWhenShown = entryId;
      this.requestShowArchived(true);
      return;
    }
    this.revealWhenShown = undefined;
    if (this.rows.rowOf[i] < 0 && i === this.index.leaf) {
      // A move's leaf the filter hides (a leaf marker, a model change, the session name before the first message
      // when that message is edited and resent): the filter the user chose stays, as in pi; the active row — the
      // nearest shown ancestor — is selected, and when none is shown the view says where the leaf is.
      const active = this.activeNode();
      if (active >= 0) this.selected = active;
      else this.keepSelectionVisible();
      return;
    }
    if (this.rows.rowOf[i] < 0) {
      // Another row asked for by name (a search hit, a summary's source) that the filter hides: shown with all.
      this.filter = "all";
      this.recompute();
    }
    this.selected = i;
  }

  /**
   * True when no shown row is on the path to the leaf: the leaf is before the first message (reset, or on the
   * bookkeeping the filter hides, as after editing the first message of a named session). The view shows a cue
   * above the rows instead of a marker.
   */
  get activeHidden(): boolean {
    // A search hides the path on purpose (only hits and their paths show): no cue, whose button would not help.
    return this.loaded && this.rows.count > 0 && !this.searching && this.activeNode() < 0;
  }

  /** The host said whether archived branches show: a reveal waiting for them completes, a request is answered. */
  private archivedStateArrived(): void {
    const waiting = this.revealWhenShown;
    this.revealWhenShown = undefined;
    if (waiting !== undefined && this.showArchived) this.reveal(waiting);
    if (this.awaitingArchived) {
      this.awaitingArchived = false;
      this.archivedAnswerSeq++;
    }
  }

  /**
   * Recompute, keeping the row at the top of the viewport where it is: rows inserted above it would
   * otherwise shift what the user is reading. The view applies `scrollAdjustRows` after rendering.
   */
  private recomputeAnchored(): void {
    const top = this.viewTopRow;
    const anchor = top > 0 && top < this.rows.count ? this.rows.node[top] : -1;
    this.recompute();
    if (anchor >= 0 && this.rows.rowOf[anchor] >= 0) this.scrollAdjustRows += this.rows.rowOf[anchor] - top;
  }

  /**
   * True when a move of the leaf from `before` leaves the displayed rows as they are, so the move skips the
   * recompute (a flatten walks every node: 20–30 ms per move in a 300 MB session on a busy machine). Only the
   * two leaves can change: the filter always shows the leaf. A search (a hit's path) or hidden archived
   * branches (the active path shows through them) depend on more, and are recomputed.
   */
  private rowsKeptByLeafMove(before: number): boolean {
    if (this.searching || (!this.showArchived && this.archivedRoots.length > 0)) return false;
    const after = this.index.leaf;
    if (this.visibility.length !== this.index.size) return false;
    for (const i of [before, after]) {
      if (i < 0) continue;
      const shown = passesFilterAt(this.index, i, this.filter, i === after);
      if (shown !== (this.visibility[i] !== HIDDEN)) return false;
    }
    return true;
  }

  /**
   * True when an update's `count` rows are all new nodes the filter hides (nodes from `sizeBefore` on): the displayed
   * rows stay as they are, and the per-node arrays grow to cover them, so the update skips the recompute (a flatten
   * walks every node: in a 30,000-entry session that was most of the view's work per move, whose leaf marker is such
   * a row). A row sent again (a badge), a search or hidden archived branches recompute.
   */
  private appendsHidden(sizeBefore: number, count: number): boolean {
    const n = this.index.size;
    if (count === 0) return true;
    if (count !== n - sizeBefore || this.searching || this.visibility.length !== sizeBefore) return false;
    if (!this.showArchived && this.archivedRoots.length > 0) return false;
    for (let i = sizeBefore; i < n; i++)
      if (passesFilterAt(this.index, i, this.filter, i === this.index.leaf)) return false;
    const visibility = new Uint8Array(n);
    visibility.set(this.visibility);
    this.visibility = visibility;
    // A new node is in an archived branch when its parent is (an archive line would have come with `archived`).
    const archived = new Uint8Array(n);
    archived.set(this.archived.subarray(0, sizeBefore));
    for (let i = sizeBefore; i < n; i++) {
      const p = this.index.parent[i];
      archived[i] = p >= 0 ? archived[p] : 0;
    }
    this.archived = archived;
    const rowOf = new Int32Array(n).fill(-1);
    rowOf.set(this.rows.rowOf.subarray(0, sizeBefore));
    this.rows = { ...this.rows, rowOf };
    return true;
  }

  private recompute(): void {
    // The last flatten's time, for the tests (an update that keeps the displayed rows must not flatten the tree); one
    // mark is kept, not one per recompute.
    performance.clearMarks("tree:flatten");
    performance.mark("tree:flatten");
    const folds = new Set<number>();
    for (const id of this.folded) {
      const i = this.index.idToIdx.get(id);
      if (i !== undefined) folds.add(i);
    }
    this.archived = archivedNodes(this.index, this.archivedRoots);
    // The active path always shows, even when it runs into an archived branch (pi moved there).
    let excluded: Uint8Array | undefined;
    if (!this.showArchived && this.archivedRoots.length > 0) {
      const onPath = this.index.onPath;
      excluded = this.archived.map((a, i) => (a === 1 && onPath[i] !== 1 ? 1 : 0));
    }
    this.visibility = computeVisibility(this.index, this.filter, queryTokens(this.query), excluded);
    this.rows = flatten(this.index, this.visibility, folds, this.searching);
  }

  /** After the displayed set changed: keep the selection, else move it to the nearest displayed ancestor. */
  private keepSelectionVisible(): void {
    if (this.selected >= 0 && this.rows.rowOf[this.selected] >= 0) return;
    let a = this.selected;
    while (a >= 0 && this.rows.rowOf[a] < 0) a = this.index.parent[a];
    this.selected = a >= 0 ? a : this.rows.count > 0 ? this.rows.node[0] : -1;
  }

  /**
   * The node of the active row: the leaf, or its nearest displayed ancestor when the filter hides it (the row a
   * move lands on). -1 when none is displayed.
   */
  activeNode(): number {
    let a = this.index.leaf;
    // Bounded by the node count, so a corrupt parent cycle cannot loop forever.
    for (let guard = 0; a >= 0 && this.rows.rowOf[a] < 0 && guard <= this.index.size; guard++) a = this.index.parent[a];
    return a >= 0 && this.rows.rowOf[a] >= 0 ? a : -1;
  }

  private defaultSelection(): number {
    const a = this.activeNode();
    if (a >= 0) return a;
    return this.rows.count > 0 ? this.rows.node[this.rows.count - 1] : -1;
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }
}
