/**
 * Which branch run beside the user's a tree row is on, for the row menu's items that apply there only (Adopt This
 * Branch, Archive Other Branches, Run Check Again, Continue as Branch; docs/parallel.md). The host marks each run
 * line's row (src/core/parallel/branch-run-lines.ts, `branchRun`); the branch is the run line's parent and every
 * row below it, down to a branch started inside it — the nearest marked ancestor-or-self, passing over asides
 * continued as ordinary branches, as the host's `branchRunOf` finds it when the command runs.
 */
import type { BranchRunMark } from "../../src/core/parallel/branch-run-lines.js";

/** The row menu's parallel items that apply to a row (only the true ones are set). */
export interface BranchItems {
  /** On a branch of Explore in Parallel or Replay with Model: Adopt This Branch, Archive Other Branches. */
  parallelBranch?: true;
  /** On such a branch that has a check mark: Run Check Again. */
  checkedBranch?: true;
  /** On an aside not yet continued: Continue as Branch. */
  aside?: true;
}

/** Not worked out yet (a node's branch in the cache). */
const UNKNOWN = -2;

/** Rows' branches, worked out for the rows that are drawn and cached until a run line or a check arrives. */
export class TreeBranches {
  /** Each branch's newest mark, by its first node (the run line's parent). */
  private readonly marks = new Map<number, BranchRunMark>();
  /** Nodes with a check mark. */
  private readonly checked = new Set<number>();
  /** Node → first node of its branch, -1 for none, UNKNOWN until asked. */
  private branchOf = new Int32Array(0);

  /** A node arrived or came again: a run line marks its parent's branch, a check mark its own node. */
  note(i: number, parent: number, row: { branchRun?: BranchRunMark; check?: unknown }): void {
    if (row.branchRun !== undefined && parent >= 0) {
      // File order: a later line of the same branch (ended, continued) replaces an earlier one.
      this.marks.set(parent, row.branchRun);
      this.branchOf = new Int32Array(0);
    }
    if (row.check !== undefined) this.checked.add(i);
  }

  /** What applies to node `i`; `parent` is the index's parent array over `size` nodes. */
  itemsOf(i: number, parent: Int32Array, size: number): BranchItems {
    if (this.marks.size === 0) return {};
    const b = this.branchAt(i, parent, size);
    const mark = b >= 0 ? this.marks.get(b) : undefined;
    if (mark === "aside") return { aside: true };
    if (mark !== "group") return {};
    for (const c of this.checked)
      if (this.branchAt(c, parent, size) === b) return { parallelBranch: true, checkedBranch: true };
    return { parallelBranch: true };
  }

  /** The first node of the branch holding `i`, or -1; fills the cache along the walk (amortised O(nodes)). */
  private branchAt(i: number, parent: Int32Array, size: number): number {
    if (this.branchOf.length < size) {
      const grown = new Int32Array(Math.max(size, 16)).fill(UNKNOWN);
      grown.set(this.branchOf);
      this.branchOf = grown;
    }
    const walked: number[] = [];
    let found = -1;
    // Bounded by the node count, so a corrupt parent cycle cannot loop forever.
    for (let a = i, guard = 0; a >= 0 && a < size && guard <= size; a = parent[a], guard++) {
      const known = this.branchOf[a];
      if (known !== UNKNOWN) {
        found = known;
        break;
      }
      const mark = this.marks.get(a);
      if (mark !== undefined && mark !== "continued") {
        found = a;
        this.branchOf[a] = a;
        break;
      }
      walked.push(a);
    }
    for (const a of walked) this.branchOf[a] = found;
    return found;
  }
}
