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

/** The script of a UI that asks how to summarize (a choice) and what to focus on (Bring, Navigate). */
export interface FakeChoiceScript<Choice> {
  choice?: Choice;
  focus?: string;
  /** Abort the progress signal as soon as the task starts (the user pressed Cancel/Escape). */
  cancelProgress?: boolean;
}

/** A FakeUiRecord that answers the summary choice and the focus from its script and records busy states. */
export class FakeChoiceUi<Choice, Script extends FakeChoiceScript<Choice>> extends FakeUiRecord {
  readonly busy: boolean[] = [];

  constructor(protected readonly script: Script) {
    super();
  }

  /** The scripted choice, recorded as "pick". */
  protected async pick(): Promise<Choice | undefined> {
    this.calls.push("pick");
    return this.script.choice;
  }

  async inputFocus(): Promise<string | undefined> {
    this.calls.push("input");
    return this.script.focus;
  }

  /** Run a progress task, cancelled at once when the script says so. */
  protected scriptedProgress<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return this.runProgress(this.script.cancelProgress === true, task);
  }

  setBusy(busy: boolean): void {
    this.busy.push(busy);
  }
}
