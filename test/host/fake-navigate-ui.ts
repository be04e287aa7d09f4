/** A scripted NavigateUi for host tests: records what was shown and answers from a script. */
import type { NavigateUi, SummaryChoice } from "../../src/host/navigate-flow.js";

/** Script for one run. */
export interface FakeUiScript {
  choice?: SummaryChoice;
  focus?: string;
  /** Abort the progress signal as soon as the task starts (the user pressed Cancel/Escape). */
  cancelProgress?: boolean;
}

/** Records every UI call. */
export class FakeNavigateUi implements NavigateUi {
  readonly calls: string[] = [];
  readonly errors: string[] = [];
  readonly infos: string[] = [];
  readonly busy: boolean[] = [];
  progressTitles: string[] = [];

  constructor(private readonly script: FakeUiScript = {}) {}

  async pickSummaryChoice(): Promise<SummaryChoice | undefined> {
    this.calls.push("pick");
    return this.script.choice;
  }

  async inputFocus(): Promise<string | undefined> {
    this.calls.push("input");
    return this.script.focus;
  }

  async withProgress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.calls.push("progress");
    this.progressTitles.push(title);
    const controller = new AbortController();
    if (this.script.cancelProgress) controller.abort();
    return task(controller.signal);
  }

  showError(message: string): void {
    this.errors.push(message);
  }

  showInfo(message: string): void {
    this.infos.push(message);
  }

  setBusy(busy: boolean): void {
    this.busy.push(busy);
  }
}
