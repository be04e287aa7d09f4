/**
 * Which branch a matching entry is on, and the session's title, from the shape of its tree (see SearchBranch
 * in types.ts for the definition). Walks go up from each hit and stop at the first entry already walked, so
 * many hits in one session cost one pass over their paths; no entry's body is read except the user message
 * that names a branch.
 */
import type { SearchBranch } from "./types.js";

/** What the walk needs of an entry: read from an index, not from the entry's line. */
export interface EntryHead {
  parentId: string | null;
  type: string;
  role?: string;
}

/** A session's tree as the branch walk reads it. */
export interface SessionTreeReader {
  head(id: string): EntryHead | undefined;
  childIds(id: string): readonly string[];
  label(id: string): string | undefined;
  /** One line of a message's text (at most 200 characters). */
  preview(id: string): string;
  /** The session's current leaf. */
  leafId: string | null;
}

/** Per entry, computed root first along each walked path. */
interface PathFacts {
  label: string | undefined;
  /** First entry of the stretch below the nearest fork (or the root). */
  segmentStart: string;
  /** First user message of that stretch. */
  segmentUser: string | undefined;
  /** Last user message at or above the entry. */
  lastUser: string | undefined;
  /** First user message on the path. */
  firstUser: string | undefined;
}

/** Children that make a fork: labels and leaf markers hang off the leaf without branching. */
const NOT_BRANCHES: ReadonlySet<string> = new Set(["label", "custom"]);

/** See the file comment. One instance per opened session. */
export class BranchResolver {
  private readonly facts = new Map<string, PathFacts>();
  private readonly forks = new Map<string, boolean>();
  private active: Set<string> | undefined;

  constructor(private readonly tree: SessionTreeReader) {}

  /** The branch of entry `id` (which must be in the tree). */
  branchOf(id: string): SearchBranch {
    const f = this.factsOf(id);
    const userId = f.segmentUser ?? this.lastUserAbove(this.parentIn(f.segmentStart));
    const branch: SearchBranch = { active: this.activePath().has(id) };
    if (f.label !== undefined) branch.label = f.label;
    if (userId !== undefined) {
      branch.firstUserMessageId = userId;
      branch.firstUserMessage = this.tree.preview(userId);
    }
    return branch;
  }

  /** The first user message on the path to `id`, one line, or "". */
  firstUserOnPath(id: string): string {
    const first = this.factsOf(id).firstUser;
    return first === undefined ? "" : this.tree.preview(first);
  }

  private lastUserAbove(id: string | undefined): string | undefined {
    return id === undefined ? undefined : this.factsOf(id).lastUser;
  }

  /** The parent when it is in the tree (an orphan's parent is not). */
  private parentIn(id: string): string | undefined {
    const p = this.tree.head(id)?.parentId;
    return p !== null && p !== undefined && this.tree.head(p) !== undefined ? p : undefined;
  }

  private isFork(id: string): boolean {
    let fork = this.forks.get(id);
    if (fork === undefined) {
      let branches = 0;
      for (const c of this.tree.childIds(id)) {
        const t = this.tree.head(c)?.type;
        if (t !== undefined && !NOT_BRANCHES.has(t) && ++branches > 1) break;
      }
      fork = branches > 1;
      this.forks.set(id, fork);
    }
    return fork;
  }

  private factsOf(id: string): PathFacts {
    const known = this.facts.get(id);
    if (known) return known;
    // Up to the first entry already known (or the root); a parent cycle ends the walk where it closes.
    const chain: string[] = [];
    const seen = new Set<string>();
    let above: PathFacts | undefined;
    for (let cur: string | undefined = id; cur !== undefined && !seen.has(cur); cur = this.parentIn(cur)) {
      above = this.facts.get(cur);
      if (above) break;
      seen.add(cur);
      chain.push(cur);
    }
    for (let k = chain.length - 1; k >= 0; k--) {
      const cur = chain[k];
      const head = this.tree.head(cur);
      const user = head?.type === "message" && head.role === "user" ? cur : undefined;
      const parent = k === chain.length - 1 ? above : this.facts.get(chain[k + 1]);
      const parentId = k === chain.length - 1 ? (above ? this.parentIn(cur) : undefined) : chain[k + 1];
      const startsSegment = parent === undefined || parentId === undefined || this.isFork(parentId);
      const f: PathFacts = {
        label: this.tree.label(cur) ?? parent?.label,
        segmentStart: startsSegment ? cur : (parent as PathFacts).segmentStart,
        segmentUser: startsSegment ? user : ((parent as PathFacts).segmentUser ?? user),
        lastUser: user ?? parent?.lastUser,
        firstUser: parent?.firstUser ?? user,
      };
      this.facts.set(cur, f);
    }
    return this.facts.get(id) as PathFacts;
  }

  private activePath(): Set<string> {
    if (!this.active) {
      this.active = new Set();
      for (
        let cur = this.tree.leafId ?? undefined;
        cur !== undefined && !this.active.has(cur);
        cur = this.parentIn(cur)
      )
        this.active.add(cur);
    }
    return this.active;
  }
}
