/**
 * The work going on in one session, and the one answer to "may this start?" (docs/architecture.md, "One busy").
 * Every agent run (AgentRun: the leaf's turns, a parallel branch, an aside, a subagent), every command the user
 * typed, every move, compaction and fork, and every operation the host holds the leaf for registers here while it
 * runs; everyone who must know whether something is busy asks `busyAt` (or `busyWithin`) instead of keeping a flag.
 *
 * Where a piece of work is "at":
 * - **leaf** work (the leaf's run, a command the user typed, a move, a compaction, a fork, a hook's command, an
 *   operation the host holds) is at every entry of the current path, root to leaf, and at "no entry" (an operation
 *   without an entry acts at the leaf);
 * - an **off-leaf** run (appends under a given entry without moving the leaf) is at its own entries: its first
 *   entry and everything under it. The entries above where it started are not its: it read them once and never
 *   writes there.
 *
 * Pure: no I/O; the tree is read through the session's envelopes.
 */
import type { SessionManager } from "../session/session-manager.js";
import type { AgentRun } from "./agent-run.js";

/** What a piece of work is. */
export type WorkKind =
  /** An agent run (AgentRun): the leaf's prompt, a parallel branch, an aside, a subagent. */
  | "run"
  /** A command the user typed (`!command`). */
  | "command"
  /** A move of the leaf, a compaction, a fork, bringing conclusions, a hook's command (AgentSession's own). */
  | "session"
  /** An operation of the host that holds the leaf while it asks and works (a branch switch with its questions). */
  | "operation";

/** One piece of work registered with a session. */
export interface SessionWork {
  readonly kind: WorkKind;
  /** Leaf work is at the current path; off-leaf work at its own entries (see the file comment). */
  readonly place: "leaf" | "off-leaf";
  /** How the user is told about it: "a reply", "a navigation", "Branch 2 of 3", "the aside". */
  readonly label: string;
  /** Off-leaf work: the entry it appends under (null: a new root). */
  readonly parentId?: string | null;
  /** Off-leaf work: its first entry, once written. */
  readonly firstEntryId: string | undefined;
  /** The run, when the work is an agent run. */
  readonly run?: AgentRun;
}

/** What `begin` registers. */
export interface WorkInit {
  kind: WorkKind;
  place: "leaf" | "off-leaf";
  label: string;
  parentId?: string | null;
  run?: AgentRun;
}

/** A registered piece of work: name its first entry once written, end it when it is done. */
export interface WorkHandle {
  readonly work: SessionWork;
  /** Off-leaf work: its first entry (the branch it is at). */
  setFirstEntry(id: string): void;
  /** Unregisters; calling it again does nothing. */
  end(): void;
}

/** A change of the registry: work began or ended, or an off-leaf run's first entry is known. */
export type WorkChange = { type: "begin" | "end" | "first-entry"; work: SessionWork };

class Work implements SessionWork {
  firstEntryId: string | undefined;
  readonly kind: WorkKind;
  readonly place: "leaf" | "off-leaf";
  readonly label: string;
  readonly parentId?: string | null;
  readonly run?: AgentRun;

  constructor(init: WorkInit) {
    this.kind = init.kind;
    this.place = init.place;
    this.label = init.label;
    if (init.parentId !== undefined) this.parentId = init.parentId;
    if (init.run !== undefined) this.run = init.run;
  }
}

/** See the file comment. One per AgentSession (`AgentSession.runs`). */
export class SessionRuns {
  private readonly works: Work[] = [];
  private readonly listeners = new Set<(change: WorkChange) => void>();

  constructor(private readonly sm: Pick<SessionManager, "getLeafId" | "getEnvelope" | "getEntryCount">) {}

  /** Registers a piece of work until its handle's `end()`. */
  begin(init: WorkInit): WorkHandle {
    const work = new Work(init);
    this.works.push(work);
    this.notify({ type: "begin", work });
    let ended = false;
    return {
      work,
      setFirstEntry: (id) => {
        if (work.firstEntryId !== undefined || ended) return;
        work.firstEntryId = id;
        this.notify({ type: "first-entry", work });
      },
      end: () => {
        if (ended) return;
        ended = true;
        const i = this.works.indexOf(work);
        if (i >= 0) this.works.splice(i, 1);
        this.notify({ type: "end", work });
      },
    };
  }

  /** Everything registered now, oldest first. */
  list(): readonly SessionWork[] {
    return [...this.works];
  }

  /** The leaf work registered now, oldest first. */
  atLeaf(): readonly SessionWork[] {
    return this.works.filter((w) => w.place === "leaf");
  }

  /** The off-leaf runs registered now, oldest first. */
  offLeaf(): readonly SessionWork[] {
    return this.works.filter((w) => w.place === "off-leaf");
  }

  /**
   * The first work at `entryId` (undefined: at the leaf), or undefined when nothing is: leaf work when the entry is
   * on the current path, an off-leaf run when the entry is one of its own (see the file comment).
   */
  busyAt(entryId?: string): SessionWork | undefined {
    if (this.works.length === 0) return undefined;
    let onPath: boolean | undefined;
    for (const w of this.works) {
      if (w.place === "leaf") {
        onPath ??= entryId === undefined || this.isAncestorOrSelf(entryId, this.sm.getLeafId());
        if (onPath) return w;
      } else if (
        entryId !== undefined &&
        w.firstEntryId !== undefined &&
        this.isAncestorOrSelf(w.firstEntryId, entryId)
      )
        return w;
    }
    return undefined;
  }

  /**
   * The first work at `entryId` or anywhere below it (an archive or a deletion of the branch from `entryId` would
   * take its entries): leaf work when the entry is on the current path, an off-leaf run that starts under the entry
   * or whose own entries hold it.
   */
  busyWithin(entryId: string): SessionWork | undefined {
    for (const w of this.works) {
      if (w.place === "leaf") {
        if (this.isAncestorOrSelf(entryId, this.sm.getLeafId())) return w;
      } else if (
        (w.parentId !== undefined && w.parentId !== null && this.isAncestorOrSelf(entryId, w.parentId)) ||
        (w.firstEntryId !== undefined && this.isAncestorOrSelf(w.firstEntryId, entryId))
      )
        return w;
    }
    return undefined;
  }

  /** Told of every change (begin, end, an off-leaf run's first entry); returns the unsubscribe function. */
  subscribe(listener: (change: WorkChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(change: WorkChange): void {
    for (const l of [...this.listeners]) {
      try {
        l(change);
      } catch {
        // A broken listener must not stop the work it is told about.
      }
    }
  }

  /** True when `ancestor` is `id` or above it. */
  private isAncestorOrSelf(ancestor: string, id: string | null): boolean {
    let at = id;
    // Bounded: a damaged file's parent cycle must not loop forever.
    const bound = this.sm.getEntryCount() + 1;
    for (let guard = 0; at !== null && guard <= bound; guard++) {
      if (at === ancestor) return true;
      at = this.sm.getEnvelope(at)?.parentId ?? null;
    }
    return false;
  }
}
