/** A scripted BringUi for host tests: answers from a script and records what was shown. */
import type { BroughtConflict, BringFilesQuestion } from "../../src/host/compare/bring-files.js";
import type { BringChoice, BringFilesAnswer, BringUi } from "../../src/host/compare/bring-flow.js";
import { FakeUiRecord } from "./fake-ui-record.js";

/** Script for one run. */
export interface FakeBringScript {
  choice?: BringChoice;
  focus?: string;
  /** The answer to "Also bring its file changes?" (undefined: dismissed). */
  files?: BringFilesAnswer;
  /** Abort the summary's progress as soon as it starts (the user pressed Cancel). */
  cancelProgress?: boolean;
}

/** See the file comment. */
export class FakeBringUi extends FakeUiRecord implements BringUi {
  readonly busy: boolean[] = [];
  readonly fileQuestions: BringFilesQuestion[] = [];
  readonly brought: { message: string; conflicts: readonly BroughtConflict[] }[] = [];

  constructor(private readonly script: FakeBringScript = {}) {
    super();
  }

  async pickChoice(): Promise<BringChoice | undefined> {
    this.calls.push("pick");
    return this.script.choice;
  }

  async inputFocus(): Promise<string | undefined> {
    this.calls.push("input");
    return this.script.focus;
  }

  async askFiles(question: BringFilesQuestion): Promise<BringFilesAnswer | undefined> {
    this.calls.push("files?");
    this.fileQuestions.push(question);
    return this.script.files;
  }

  filesBrought(message: string, conflicts: readonly BroughtConflict[]): void {
    this.calls.push("filesBrought");
    this.brought.push({ message, conflicts });
  }

  async withProgress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.calls.push(`progress: ${title}`);
    return this.runProgress(this.script.cancelProgress === true, task);
  }

  setBusy(busy: boolean): void {
    this.busy.push(busy);
  }
}
