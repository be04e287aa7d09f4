/**
 * Serves one compare panel: the overview when it says `compare/ready` (again after a reload of the tab), pages of
 * turns as its window needs them, the files section when the host has one, and its requests to show an entry or
 * open a file's diff. Pure: no `vscode` import, so it runs under plain Node in tests.
 */
import type { BranchComparison } from "../../core/compare/compare-branches.js";
import type { CompareFileChange, CompareFilesProvider } from "../../core/compare/compare-types.js";
import type { CompareToHost, HostToCompare } from "../../shared/protocol.js";
import { errorText } from "../../core/error-text.js";

/** The files section's host side: the changed files (core interface) and opening one in a diff editor. */
export interface CompareFilesHost extends CompareFilesProvider {
  openDiff(leftId: string, rightId: string, path: string): Promise<void>;
}

/** What a feed needs. */
export interface CompareFeedDeps {
  comparison: BranchComparison;
  post(msg: HostToCompare): void;
  /** Shown in the panel's header. */
  sessionName?: string;
  /** The files section's source, when the host records workspace checkpoints. */
  files?: CompareFilesHost;
  /** Show an entry in the session tree. */
  reveal(entryId: string): void;
  /** Failures nobody else reports. */
  warn(message: string): void;
}

/** See the file comment. */
export class CompareFeed {
  private files: CompareFileChange[] | undefined;

  constructor(private readonly d: CompareFeedDeps) {}

  /** Handle one validated message of the panel. Never throws. */
  async handle(msg: CompareToHost): Promise<void> {
    const { comparison, post } = this.d;
    const { left, right } = comparison.overview;
    try {
      switch (msg.type) {
        case "compare/ready": {
          const snapshot: HostToCompare = { type: "compare/snapshot", overview: comparison.overview };
          if (this.d.sessionName !== undefined) snapshot.sessionName = this.d.sessionName;
          post(snapshot);
          if (this.d.files) {
            this.files ??= await this.d.files.changedFiles(left.entryId, right.entryId);
            if (this.files) post({ type: "compare/files", files: this.files });
          }
          return;
        }
        case "compare/requestTurns":
          post({ type: "compare/turns", turns: comparison.turns(msg.start, msg.count) });
          return;
        case "compare/reveal":
          this.d.reveal(msg.entryId);
          return;
        case "compare/openFile":
          // Only a file the section listed: the path comes from the webview.
          if (this.d.files && this.files?.some((f) => f.path === msg.path))
            await this.d.files.openDiff(left.entryId, right.entryId, msg.path);
          return;
        default: {
          const never: never = msg;
          return never;
        }
      }
    } catch (e) {
      const text = `Compare: ${msg.type} failed: ${errorText(e)}`;
      this.d.warn(text);
      post({ type: "status", text, kind: "error" });
    }
  }
}
