/** A scripted BringUi for host tests: answers from a script and records what was shown. */
import type { BroughtConflict, BringFilesQuestion } from "../../src/host/compare/bring-files.js";
import type { BringChoice, BringFilesAnswer, BringUi } from "../../src/host/compare/bring-flow.js";
import { FakeChoiceUi, type FakeChoiceScript } from "./fake-ui-record.js";

/** Script for one run (`cancelProgress`: the user pressed Cancel on the summary's progress). */
export interface FakeBringScript extends FakeChoiceScript<BringChoice> {
  /** The answer to "Also bring its file changes?" (undefined: dismissed). */
  files?: BringFilesAnswer;
}

/** See the file comment. */
export class FakeBringUi extends FakeChoiceUi<BringChoice, FakeBringScript> implements BringUi {
  readonly fileQuestions: BringFilesQuestion[] = [];
  readonly brought: { message: string; conflicts: readonly BroughtConflict[] }[] = [];

  constructor(script: FakeBringScript = {}) {
    super(script);
  }

  pickChoice(): Promise<BringChoice | undefined> {
    return this.pick();
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
    return this.scriptedProgress(task);
  }
}
