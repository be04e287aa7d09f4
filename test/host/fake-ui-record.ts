/** What the scripted host UIs (FakeBringUi, FakeNavigateUi, FakeRestoreUi) have in common. */

/** Records the UI calls in order and the messages shown; runs progress tasks the way the script says. */
export class FakeUiRecord {
  readonly calls: string[] = [];
  readonly errors: string[] = [];
  readonly infos: string[] = [];

  showError(message: string): void {
    this.errors.push(message);
  }

  showInfo(message: string): void {
    this.infos.push(message);
  }

  /** Run a progress task; its signal is already aborted when `cancel` (the user pressed Cancel at once). */
  protected runProgress<T>(cancel: boolean, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    if (cancel) controller.abort();
    return task(controller.signal);
  }
}
