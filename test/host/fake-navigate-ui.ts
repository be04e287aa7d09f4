/** A scripted NavigateUi for host tests: records what was shown and answers from a script. */
import type { NavigateUi, SummaryChoice } from "../../src/host/navigate-flow.js";
import { FakeUiRecord } from "./fake-ui-record.js";

/** Script for one run. */
export interface FakeUiScript {
  choice?: SummaryChoice;
  focus?: string;
  /** Abort the progress signal as soon as the task starts (the user pressed Cancel/Escape). */
  cancelProgress?: boolean;
}

/** Records every UI call. */
export class FakeNavigateUi extends FakeUiRecord implements NavigateUi {
  readonly busy: boolean[] = [];
  progressTitles: string[] = [];

  constructor(private readonly script: FakeUiScript = {}) {
    super();
  }

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
    return this.runProgress(this.script.cancelProgress === true, task);
  }

  setBusy(busy: boolean): void {
    this.busy.push(busy);
  }
}
