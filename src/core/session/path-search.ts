/**
 * Finding the newest entry of a kind on a path (the thinking level, plan mode and todo list in force at a leaf are
 * each "the newest such entry on the path"). A SessionManager answers from its index and keeps the answers per
 * entry (EntryIndex.newestOnPath), so a chat update after a move reads only the part of the path that changed; a
 * plain list of envelopes (searchEnvelopes) walks it back from its end.
 */

/**
 * Whether an entry of a path counts: from its envelope, reading its body (`entry()`, undefined when it cannot be
 * read) only when the envelope cannot say. Must answer the same for an entry every time (a SessionManager keeps
 * the answers): define it once, as a module constant.
 */
export type PathTest<E> = (env: E, entry: () => unknown) => boolean;

/** Searches a path, newest entry first. */
export interface PathSearch<E extends { id: string }> {
  /**
   * The newest entry that `test` accepts on the path from the root to `fromId` (included; default: the end of the
   * path), or undefined.
   */
  newestOnPath(test: PathTest<E>, fromId?: string): E | undefined;
  /** An entry's body (may throw when it cannot be read). */
  getEntry(id: string): unknown;
}

/** A PathSearch over a root-first list of envelopes (walks back from the end on every call). */
export function searchEnvelopes<E extends { id: string }>(
  envelopes: readonly E[],
  entry: (id: string) => unknown,
): PathSearch<E> {
  const read = (id: string): unknown => {
    try {
      return entry(id);
    } catch {
      return undefined;
    }
  };
  return {
    newestOnPath(test, fromId) {
      let i = envelopes.length - 1;
      if (fromId !== undefined) while (i >= 0 && envelopes[i].id !== fromId) i--;
      for (; i >= 0; i--) {
        const env = envelopes[i];
        if (test(env, () => read(env.id))) return env;
      }
      return undefined;
    },
    getEntry: entry,
  };
}
