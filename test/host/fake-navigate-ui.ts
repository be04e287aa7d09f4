/** A scripted NavigateUi for host tests: records what was shown and answers from a script. */
import type { NavigateUi, SummaryChoice } from "../../src/host/tree/navigate-flow.js";
import { FakeChoiceUi, type FakeChoiceScript } from "./fake-ui-record.js";

/** Script for one run. */
export type FakeUiScript = FakeChoiceScript<SummaryChoice>;

/** Records every UI call. */
export class FakeNavigateUi extends FakeChoiceUi<SummaryChoice, FakeUiScript> implements NavigateUi {
  progressTitles: string[] = [];
  /** The calls made so far, each time the flow said its questions closed. */
  questionsClosedAfter: string[][] = [];

  constructor(script: FakeUiScript = {}) {
    super(script);
  }

  pickSummaryChoice(): Promise<SummaryChoice | undefined> {
    return this.pick();
  }

  questionsClosed(): void {
    this.questionsClosedAfter.push([...this.calls]);
  }

  async withProgress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.calls.push("progress");
    this.progressTitles.push(title);
    return this.scriptedProgress(task);
  }
}
