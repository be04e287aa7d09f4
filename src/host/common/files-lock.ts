/**
 * Exclusive use of the workspace's files: one lock, one object per window, that every operation changing the
 * files takes (a branch switch whose files follow, Restore Files to This Point, Undo File Restore, the files of
 * Bring Conclusions Here), so two of them never write the same files at once. Pure: no `vscode` import.
 */

/** See the file comment. */
export class FilesLock {
  private holder: string | undefined;

  /** What holds the files now ("file restore", "branch switch", …), or undefined when they are free. */
  get heldBy(): string | undefined {
    return this.holder;
  }

  /**
   * Takes the lock for `what`; undefined when another operation holds it. The returned release may be called
   * more than once (only the first call counts), so every path out of an operation can call it.
   */
  acquire(what: string): (() => void) | undefined {
    if (this.holder !== undefined) return undefined;
    this.holder = what;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holder = undefined;
    };
  }

  /** Runs `task` holding the lock; `{ ran: false }` (task not run) when another operation holds it. */
  async run<T>(
    what: string,
    task: () => Promise<T>,
  ): Promise<{ ran: true; value: T } | { ran: false; heldBy: string }> {
    const release = this.acquire(what);
    if (!release) return { ran: false, heldBy: this.holder as string };
    try {
      return { ran: true, value: await task() };
    } finally {
      release();
    }
  }
}

/** What the user is told when the files are in use: `heldBy` is what holds them. */
export function filesBusyText(heldBy: string): string {
  return `A ${heldBy} is already in progress.`;
}
