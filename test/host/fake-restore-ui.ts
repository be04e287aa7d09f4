/** A scripted RestoreUi for host tests: answers from a script, keeps "editors" in memory, records what was shown. */
import fs from "node:fs";
import type {
  DirtyAnswer,
  RestoreAnswer,
  RestoreQuestion,
  RestoreUi,
} from "../../src/host/checkpoints/file-restore.js";
import { FakeUiRecord } from "./fake-ui-record.js";

/** Script for one run. */
export interface FakeRestoreScript {
  /** The answer to the restore question (undefined: the user dismissed it). */
  answer?: RestoreAnswer;
  /** The answer about unsaved files (undefined: cancel). */
  dirty?: DirtyAnswer;
  /** Abort the signal of cancellable progress as soon as its task starts (the user pressed Cancel). */
  cancelProgress?: boolean;
  /** Like cancelProgress, only for the progress whose title starts with this. */
  cancelProgressTitled?: string;
}

/** See the file comment. `editors` maps an absolute path to the unsaved text of its open, dirty document. */
export class FakeRestoreUi extends FakeUiRecord implements RestoreUi {
  readonly questions: RestoreQuestion[] = [];
  readonly dirtyAsked: string[][] = [];
  readonly reverted: string[] = [];
  readonly restoredMessages: string[] = [];
  readonly progressTitles: string[] = [];
  readonly editors = new Map<string, string>();

  constructor(public script: FakeRestoreScript = {}) {
    super();
  }

  dirtyPaths(): string[] {
    return [...this.editors.keys()];
  }

  async confirmRestore(question: RestoreQuestion): Promise<RestoreAnswer | undefined> {
    this.calls.push("confirm");
    this.questions.push(question);
    return this.script.answer;
  }

  async askDirty(paths: readonly string[]): Promise<DirtyAnswer | undefined> {
    this.calls.push("dirty");
    this.dirtyAsked.push([...paths]);
    return this.script.dirty;
  }

  /** Saving writes the editor's text to disk, as VS Code does. */
  async saveDocuments(paths: readonly string[]): Promise<boolean> {
    this.calls.push("save");
    for (const p of paths) {
      const text = this.editors.get(p);
      if (text === undefined) continue;
      fs.writeFileSync(p, text);
      this.editors.delete(p);
    }
    return true;
  }

  /** Reverting drops the editor's unsaved text. */
  async revertDocuments(paths: readonly string[]): Promise<void> {
    for (const p of paths) {
      this.reverted.push(p);
      this.editors.delete(p);
    }
  }

  async withProgress<T>(title: string, cancellable: boolean, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.calls.push("progress");
    this.progressTitles.push(title);
    const titled = this.script.cancelProgressTitled;
    const cancel = this.script.cancelProgress === true || (titled !== undefined && title.startsWith(titled));
    return this.runProgress(cancellable && cancel, task);
  }

  restored(message: string): void {
    this.restoredMessages.push(message);
  }
}
