/**
 * The tree as plain arrays, built once per snapshot and extended in place by appends.
 * Indices (not ids) link nodes so that filtering and flattening 100k nodes stay tight loops.
 */
import type { TreeNodeDto } from "../../src/shared/protocol.js";

/** How long a preview may be for search (pi matches the first 200 characters of content). */
const SEARCH_PREVIEW_CHARS = 200;

/** Extra words a kind answers to in search, so "tool" or "summary" find what the row shows. */
const KIND_WORDS: Record<TreeNodeDto["kind"], string> = {
  user: "user",
  assistant: "assistant",
  toolResult: "toolresult tool",
  bashExecution: "bash",
  custom_message: "custom",
  branch_summary: "branch summary branch_summary",
  compaction: "compaction",
  label: "label",
  custom: "custom",
  model_change: "model model_change",
  thinking_level_change: "thinking thinking_level_change",
  session_info: "session session_info",
  unknown: "unknown",
};

/** Node arrays indexed by insertion order; `parent[i] === -1` marks a root. */
export class TreeIndex {
  readonly nodes: TreeNodeDto[];
  readonly idToIdx = new Map<string, number>();
  readonly parent: number[];
  /** Children oldest first; undefined for leaves (saves 100k empty arrays). */
  readonly children: (number[] | undefined)[];
  readonly roots: number[] = [];
  private readonly searchText: (string | undefined)[];
  private leafIdx = -1;
  private pathMarks: Uint8Array = new Uint8Array(0);

  /** Build from a snapshot. Nodes may come in any order; children are sorted by timestamp. */
  constructor(nodes: readonly TreeNodeDto[], leafId: string | null) {
    const n = nodes.length;
    this.nodes = nodes.slice();
    // Reverse order so that for a duplicated id the first occurrence wins, with one hash operation per node.
    for (let i = n - 1; i >= 0; i--) this.idToIdx.set(nodes[i].id, i);
    // Sized once: pushing 100k times into three arrays showed up in snapshot profiles.
    this.parent = new Array<number>(n).fill(-1);
    this.children = new Array<number[] | undefined>(n).fill(undefined);
    this.searchText = new Array<string | undefined>(n).fill(undefined);
    let duplicates: Uint8Array | undefined;
    for (let i = 0; i < n; i++) {
      // A later duplicate stays unlinked: it is never reachable, so it is never displayed.
      if (this.idToIdx.get(nodes[i].id) === i) this.link(i, false);
      else (duplicates ??= new Uint8Array(n))[i] = 1;
    }
    for (let i = 0; i < n; i++) {
      const c = this.children[i];
      if (c !== undefined && c.length > 1) this.sortChildren(c);
    }
    this.breakCycles(duplicates);
    if (this.roots.length > 1) this.sortChildren(this.roots);
    this.setLeaf(leafId);
  }

  /** Number of nodes. */
  get size(): number {
    return this.nodes.length;
  }

  /** Index of the leaf node, or -1. */
  get leaf(): number {
    return this.leafIdx;
  }

  /** 1 for nodes on the root→leaf path. */
  get onPath(): Uint8Array {
    return this.pathMarks;
  }

  /** Add entries in file order; an id seen before replaces that node's fields (same parent kept). */
  append(nodes: readonly TreeNodeDto[]): void {
    for (const dto of nodes) {
      const existing = this.idToIdx.get(dto.id);
      if (existing !== undefined) {
        this.nodes[existing] = dto;
        this.searchText[existing] = undefined;
        continue;
      }
      const i = this.nodes.length;
      this.idToIdx.set(dto.id, i);
      this.nodes.push(dto);
      this.parent.push(-1);
      this.children.push(undefined);
      this.searchText.push(undefined);
      this.link(i, true);
    }
    // The path array must cover new indices even when the leaf did not move.
    if (this.pathMarks.length < this.nodes.length) this.setLeaf(this.leafIdx >= 0 ? this.nodes[this.leafIdx].id : null);
  }

  /** Move the leaf and recompute the active path. */
  setLeaf(leafId: string | null): void {
    const idx = leafId === null ? -1 : (this.idToIdx.get(leafId) ?? -1);
    this.leafIdx = idx;
    const marks = new Uint8Array(this.nodes.length);
    // Bounded by the node count, so a corrupt parent cycle cannot loop forever.
    for (let i = idx, guard = 0; i >= 0 && guard <= marks.length; i = this.parent[i], guard++) marks[i] = 1;
    this.pathMarks = marks;
  }

  /** Apply label changes; unknown ids are ignored. */
  setLabels(changes: readonly { id: string; label?: string }[]): void {
    for (const ch of changes) {
      const i = this.idToIdx.get(ch.id);
      if (i === undefined) continue;
      const dto = { ...this.nodes[i] };
      if (ch.label === undefined || ch.label === "") delete dto.label;
      else dto.label = ch.label;
      this.nodes[i] = dto;
      this.searchText[i] = undefined;
    }
  }

  /** Lower-case text a search token is matched against: kind, label, preview start, tool name. */
  search(i: number): string {
    let s = this.searchText[i];
    if (s === undefined) {
      const d = this.nodes[i];
      s =
        `${KIND_WORDS[d.kind] ?? d.kind} ${d.label ?? ""} ${d.preview.slice(0, SEARCH_PREVIEW_CHARS)} ${d.toolName ?? ""}`.toLowerCase();
      this.searchText[i] = s;
    }
    return s;
  }

  /** Fill the search cache ahead of the first keystroke, in slices so the UI stays responsive. */
  warmSearch(budgetMs = 8): void {
    let next = 0;
    const step = (): void => {
      const end = performance.now() + budgetMs;
      while (next < this.nodes.length && performance.now() < end) {
        for (let k = 0; k < 500 && next < this.nodes.length; k++) this.search(next++);
      }
      if (next < this.nodes.length) setTimeout(step, 0);
    };
    setTimeout(step, 0);
  }

  private link(i: number, sorted: boolean): void {
    const pid = this.nodes[i].parentId;
    const p = pid === null ? -1 : (this.idToIdx.get(pid) ?? -1);
    // A node naming itself (or a later node that would close a cycle) is treated as a root.
    const safe = p === i ? -1 : p;
    this.parent[i] = safe;
    let list: number[];
    if (safe < 0) list = this.roots;
    else {
      let c = this.children[safe];
      if (c === undefined) {
        c = [];
        this.children[safe] = c;
      }
      list = c;
    }
    if (!sorted) {
      list.push(i);
      return;
    }
    // Appends are nearly always the newest child: scan back only past younger siblings.
    const ts = this.nodes[i].timestamp;
    let at = list.length;
    while (at > 0 && this.nodes[list[at - 1]].timestamp > ts) at--;
    list.splice(at, 0, i);
  }

  /** Nodes in a parent cycle are unreachable from any root: detach them and show them as roots. */
  private breakCycles(duplicates: Uint8Array | undefined): void {
    const n = this.nodes.length;
    const seen = duplicates ?? new Uint8Array(n);
    let dupCount = 0;
    if (duplicates !== undefined) for (let i = 0; i < n; i++) dupCount += duplicates[i];
    const stack = [...this.roots];
    let reached = 0;
    const visit = (): void => {
      while (stack.length > 0) {
        const i = stack.pop() as number;
        if (seen[i]) continue;
        seen[i] = 1;
        reached++;
        const c = this.children[i];
        if (c !== undefined) for (let k = 0; k < c.length; k++) stack.push(c[k]);
      }
    };
    visit();
    if (reached + dupCount === n) return;
    for (let i = 0; i < n; i++) {
      if (seen[i]) continue;
      const p = this.parent[i];
      const siblings = p >= 0 ? this.children[p] : undefined;
      if (siblings !== undefined) siblings.splice(siblings.indexOf(i), 1);
      this.parent[i] = -1;
      this.roots.push(i);
      stack.push(i);
      visit();
    }
  }

  private sortChildren(list: number[]): void {
    for (let k = 1; k < list.length; k++) {
      if (this.nodes[list[k - 1]].timestamp > this.nodes[list[k]].timestamp) {
        // Stable: equal timestamps keep file order.
        list.sort((a, b) => {
          const ta = this.nodes[a].timestamp;
          const tb = this.nodes[b].timestamp;
          return ta < tb ? -1 : ta > tb ? 1 : a - b;
        });
        return;
      }
    }
  }
}
