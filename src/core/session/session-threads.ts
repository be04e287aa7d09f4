/**
 * Sessions forked from one another, as threads: a fork (its header's `parentSession` names the file it was
 * forked from) goes under that session, the newest activity first.
 *
 * - A thread's activity is the newest `modified` of any session in it, so a fresh fork brings its whole
 *   thread to the top; forks of one session are ordered the same way (ties: by path).
 * - A fork whose parent is not among the sessions (deleted, or in a folder not listed) is a thread of its own.
 * - A link that would close a cycle (a damaged or hand-edited header) is ignored: sessions are linked newest
 *   first, and a link to a session that already hangs below the fork stays out.
 */
import { resolve } from "node:path";

/** What threading needs of a session. */
export interface ThreadableSession {
  path: string;
  /** Path of the session this one was forked from (header `parentSession`). */
  parentSessionPath?: string;
  /** Last activity. */
  modified: Date;
}

/** A session with the forks made from it. */
export interface SessionThread<T extends ThreadableSession> {
  session: T;
  /** Forks of this session, newest activity first. */
  forks: SessionThread<T>[];
  /** Newest `modified` in this thread (ms since the epoch). */
  activity: number;
}

interface Node<T extends ThreadableSession> {
  session: T;
  parent: Node<T> | undefined;
  kids: Node<T>[];
  activity: number;
}

function byActivity<T extends ThreadableSession>(a: Node<T>, b: Node<T>): number {
  const pa = a.session.path;
  const pb = b.session.path;
  return b.activity - a.activity || (pa < pb ? -1 : pa > pb ? 1 : 0);
}

function depthOf<T extends ThreadableSession>(n: Node<T>): number {
  let d = 0;
  for (let p = n.parent; p !== undefined; p = p.parent) d++;
  return d;
}

function toThread<T extends ThreadableSession>(n: Node<T>): SessionThread<T> {
  return { session: n.session, activity: n.activity, forks: n.kids.map(toThread) };
}

/** The sessions as threads (see the file comment). Every session appears exactly once. */
export function buildSessionThreads<T extends ThreadableSession>(sessions: readonly T[]): SessionThread<T>[] {
  const nodes: Node<T>[] = sessions.map((session) => ({
    session,
    parent: undefined,
    kids: [],
    activity: session.modified.getTime(),
  }));
  const byPath = new Map<string, Node<T>>();
  for (const n of nodes) if (!byPath.has(resolve(n.session.path))) byPath.set(resolve(n.session.path), n);
  for (const n of [...nodes].sort(byActivity)) {
    const from = n.session.parentSessionPath;
    const parent = from === undefined ? undefined : byPath.get(resolve(from));
    if (parent === undefined) continue;
    // n under parent would close a cycle when n is parent itself or already above it.
    let above: Node<T> | undefined = parent;
    while (above !== undefined && above !== n) above = above.parent;
    if (above === n) continue;
    n.parent = parent;
    parent.kids.push(n);
  }
  // Activity flows up, deepest sessions first, so each one passes on its forks' newest too.
  for (const n of [...nodes].sort((a, b) => depthOf(b) - depthOf(a)))
    if (n.parent) n.parent.activity = Math.max(n.parent.activity, n.activity);
  for (const n of nodes) n.kids.sort(byActivity);
  return nodes
    .filter((n) => n.parent === undefined)
    .sort(byActivity)
    .map(toThread);
}

/** One session of flattened threads. */
export interface ThreadRow<T extends ThreadableSession> {
  session: T;
  /** 0 for a thread's first session, 1 for its forks, … */
  depth: number;
  /** The session it was forked from (for depth > 0). */
  forkOf?: T;
}

/** Threads in display order: each session right before its forks. */
export function flattenThreads<T extends ThreadableSession>(threads: readonly SessionThread<T>[]): ThreadRow<T>[] {
  const out: ThreadRow<T>[] = [];
  const stack: { thread: SessionThread<T>; depth: number; forkOf?: T }[] = [];
  for (let i = threads.length - 1; i >= 0; i--) stack.push({ thread: threads[i], depth: 0 });
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { thread, depth, forkOf } = top;
    out.push(forkOf === undefined ? { session: thread.session, depth } : { session: thread.session, depth, forkOf });
    for (let i = thread.forks.length - 1; i >= 0; i--)
      stack.push({ thread: thread.forks[i], depth: depth + 1, forkOf: thread.session });
  }
  return out;
}
