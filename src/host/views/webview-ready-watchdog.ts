/**
 * Recovery of a webview view that never completes its `ready` handshake. code-server serves every webview
 * from one origin, and each webview's outer frame registers its own service worker there when VS Code
 * creates it. When two frames start together (both Agent views on a reload or when the sidebar shows the
 * Agent container), one worker can replace the other in the middle of the other frame's version check; that
 * frame then waits forever and never loads its content: a blank view. Setting the HTML again does not help,
 * because the content waits on that same check: only a new outer frame does. A view that is not ready
 * `timeoutMs` after it was shown is therefore re-created (by the view, see `recreate`), one view at a time so
 * that the new frame registers its worker alone, a bounded number of times; then the view gives up visibly.
 *
 * A busy extension host is not a blank view. Opening a big session can keep the host's event loop busy for
 * seconds on a loaded machine; the view's `ready` then waits in the host's queue, and Node runs the expired
 * timer before it. Re-creating that healthy view cost the user the whole timeout again (a 14 s open instead of
 * 6 s). So an expired timer first lets the queue be handled (one turn of the event loop), and a timer that fired
 * late — the host could not answer meanwhile — gives the view its full time again instead of re-creating it.
 * Pure: no `vscode` import, so the policy is unit-tested with mock timers.
 */

/** A timer this late means the host's event loop was busy: the view is given its time again. */
const BUSY_HOST_LATE_MS = 1000;

/** Runs tasks one after the other: two views re-created together would race again. */
export class OneAtATime {
  private tail: Promise<void> = Promise.resolve();

  /** Runs `task` after every task queued before it; resolves when it is done (errors are the caller's). */
  run(task: () => Promise<void>): Promise<void> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** What a {@link ReadyWatchdog} needs from its view. */
export interface ReadyWatchdogOptions {
  /** How long a shown view may take to say `ready` (per attempt). */
  timeoutMs: number;
  /** How many times the view is re-created before {@link giveUp}. */
  maxAttempts: number;
  /** Shared by the views of a window, so that only one is re-created at a time. */
  queue: OneAtATime;
  /** True while the view is on screen (a hidden view has no frame and is not expected to be ready). */
  isVisible(): boolean;
  /** Re-creates the view's frame; `attempt` counts from 1. */
  recreate(attempt: number): Promise<void>;
  /** Every attempt failed: tell the user (the view stays as it is until {@link ReadyWatchdog.retry}). */
  giveUp(): void;
  /** The clock the timers' lateness is read from (tests); default Date.now. */
  now?: () => number;
}

/** One view's watchdog; see the file comment. */
export class ReadyWatchdog {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The turn of the event loop an expired timer waits for (see arm). */
  private turn: ReturnType<typeof setImmediate> | undefined;
  private attempts = 0;
  private recovering = false;
  private failed = false;
  private isReady = false;
  /** Resolves the wait of the attempt under way when the view says `ready`. */
  private wake: (() => void) | undefined;

  constructor(private readonly o: ReadyWatchdogOptions) {}

  /** The view was shown (resolved, or visible again) and has no ready frame: start the clock. */
  expect(): void {
    this.isReady = false;
    if (this.recovering || this.failed) return;
    this.arm();
  }

  /** Waits `timeoutMs` for `ready`; see the file comment for a timer that fires late. */
  private arm(): void {
    this.clearTimer();
    const now = this.o.now ?? Date.now;
    const deadline = now() + this.o.timeoutMs;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const late = now() - deadline;
      // Whatever waited in the queue while the timer was due (the view's `ready`) is handled first.
      this.turn = setImmediate(() => {
        this.turn = undefined;
        if (this.isReady || this.recovering || this.failed) return;
        if (late > BUSY_HOST_LATE_MS) this.arm();
        else void this.recover();
      });
    }, this.o.timeoutMs);
  }

  /** The view said `ready`. */
  ready(): void {
    this.isReady = true;
    this.attempts = 0;
    this.failed = false;
    this.clearTimer();
    this.wake?.();
  }

  /** The view was hidden or disposed: its frame is gone, nothing to wait for. */
  pause(): void {
    this.isReady = false;
    this.clearTimer();
  }

  /** The user asked to reload the view ("Reload View"): re-create it now, with a fresh set of attempts. */
  retry(): Promise<void> {
    this.clearTimer();
    this.isReady = false;
    this.failed = false;
    this.attempts = 0;
    return this.recover();
  }

  /** Stops the clock for good (extension deactivation). */
  dispose(): void {
    this.clearTimer();
    this.failed = true;
    this.wake?.();
  }

  private async recover(): Promise<void> {
    if (this.recovering) return;
    this.recovering = true;
    try {
      while (!this.isReady && !this.failed && this.o.isVisible()) {
        if (this.attempts >= this.o.maxAttempts) {
          this.failed = true;
          this.o.giveUp();
          return;
        }
        const attempt = ++this.attempts;
        await this.o.queue.run(async () => {
          if (this.isReady) return;
          await this.o.recreate(attempt);
          // Keep the queue until this view is ready or its time is up, so the other view is not
          // re-created while this one's new frame registers its service worker.
          await this.readyOrTimeout();
        });
      }
    } finally {
      this.recovering = false;
    }
  }

  private readyOrTimeout(): Promise<void> {
    if (this.isReady) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(finish, this.o.timeoutMs);
      this.wake = finish;
    });
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.turn !== undefined) clearImmediate(this.turn);
    this.timer = undefined;
    this.turn = undefined;
  }
}
