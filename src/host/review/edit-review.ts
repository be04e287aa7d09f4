/**
 * Edits reviewed as diffs: when a `write` or `edit` waits for approval, VS Code's diff editor opens with the file
 * as it is and as the tool would leave it (read-only documents of the `agent-tree-edit` scheme, computed by the
 * same code the tools run: src/core/tools/file-change.ts). Accept, Reject and Accept All in This Run answer the
 * approval from the diff editor's title bar as from the chat; an answered or abandoned review closes its diff.
 * An approval carries what the diff showed (`reviewed`), so the tool writes only onto that file; when the file
 * changed meanwhile the call asks again (`request.changed`) and a new review, under a new URI, shows the new diff.
 */
import * as vscode from "vscode";
import { proposedFileChange, type ProposedFileChange } from "../../core/tools/file-change.js";
import type { ReviewedFile } from "../../core/tools/reviewed-file.js";
import type { ToolApprovalRequest } from "../../core/tools/types.js";
import { EDIT_REVIEW_SCHEME, parseReviewUri, reviewUriParts } from "./edit-review-uri.js";
import { PendingReviews, type PendingReview } from "./pending-reviews.js";
import { EDIT_TOOLS } from "../tools/tool-approval.js";
import { errorText } from "../../core/error-text.js";

/** What the review needs from the host. */
export interface EditReviewDeps {
  cwd: string;
  /** Answers the approval of a tool call (the ApprovalBroker of the current session). */
  answer(toolCallId: string, approved: boolean, allInRun: boolean): void;
  log: vscode.LogOutputChannel;
}

/** A change under review, and whether it is shown again because the file changed after an earlier diff. */
interface Review {
  change: ProposedFileChange;
  changed: boolean;
}

/** See the file comment. */
export class EditReview implements vscode.TextDocumentContentProvider {
  private readonly reviews = new PendingReviews<Review>();

  constructor(private readonly d: EditReviewDeps) {}

  /** The document provider; goes into the extension's subscriptions. */
  register(): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(EDIT_REVIEW_SCHEME, this);
  }

  /** Text of one side of a review (empty for a file that does not exist yet, or a review already answered). */
  provideTextDocumentContent(uri: vscode.Uri): string {
    const ref = parseReviewUri(uri);
    const review = ref ? this.reviews.get(ref.reviewId) : undefined;
    if (!ref || !review) return "";
    return ref.side === "before" ? (review.value.change.before ?? "") : review.value.change.after;
  }

  /**
   * Opens the diff of a pending write or edit; resolves to the file's workspace path, or undefined for another
   * tool or a call whose result cannot be computed (it will fail with the same message when run).
   */
  async open(request: ToolApprovalRequest): Promise<string | undefined> {
    if (!EDIT_TOOLS.includes(request.toolName)) return undefined;
    // Asked again (the chat view reloaded): the diff is open already, or was closed on purpose.
    const known = this.reviews.ofCall(request.toolCallId);
    if (known) return known.value.change.path;
    let change: ProposedFileChange | undefined;
    try {
      change = await proposedFileChange(this.d.cwd, request.toolName, request.args);
    } catch (e) {
      this.d.log.info(`No diff for ${request.toolName}: ${errorText(e)}`);
      return undefined;
    }
    if (!change) return undefined;
    const changed = request.changed !== undefined;
    if (changed) this.d.log.warn(`${request.toolName} ${change.path}: ${request.changed} Showing the new diff.`);
    const review = this.reviews.add(request.toolCallId, { change, changed });
    this.updateContext();
    try {
      await this.show(review);
    } catch (e) {
      // Without its diff the call is asked about like any other: the approval must reach the user regardless.
      this.d.log.warn(`Opening the diff of ${change.path} failed: ${errorText(e)}`);
      await this.close(request.toolCallId);
      return undefined;
    }
    return change.path;
  }

  /** Opens a pending review's diff again (the chat's Open Diff). */
  async reopen(toolCallId: string): Promise<void> {
    const review = this.reviews.ofCall(toolCallId);
    if (review) await this.show(review);
  }

  /**
   * What the pending review of a call showed, for its approval (the tool then writes only onto that file);
   * undefined when no diff was shown.
   */
  reviewed(toolCallId: string): ReviewedFile | undefined {
    return this.reviews.ofCall(toolCallId)?.value.change.reviewed;
  }

  /** The approval was answered or became moot: forget the review and close its diff. */
  async close(toolCallId: string): Promise<void> {
    const review = this.reviews.remove(toolCallId);
    if (!review) return;
    this.updateContext();
    // Its diff, and a side opened on its own (Open Editor Side): they show documents nobody answers any more.
    const ofReview = (uri: vscode.Uri): boolean => parseReviewUri(uri)?.reviewId === review.reviewId;
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter(
        (t) =>
          (t.input instanceof vscode.TabInputTextDiff && ofReview(t.input.modified)) ||
          (t.input instanceof vscode.TabInputText && ofReview(t.input.uri)),
      );
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
  }

  /**
   * Accept, Reject or Accept All in This Run from the diff editor's title bar (`uri`: its document) or the palette
   * (the active diff, else the newest pending review). A diff no longer under review answers nothing: its call
   * was answered, or shows a newer diff.
   */
  decide(uri: unknown, approved: boolean, allInRun = false): void {
    const target = this.target(uri);
    if (target === "stale") {
      const text =
        "This diff is no longer waiting for review (it was answered, or the file changed and a new diff opened).";
      this.d.log.info(text);
      void vscode.window.showInformationMessage(text);
      return;
    }
    if (target === undefined) {
      void vscode.window.showInformationMessage("No edit is waiting for review.");
      return;
    }
    this.d.answer(target, approved, allInRun);
  }

  /** The call a decision answers: the diff named (or active), else the newest review; "stale": an old diff. */
  private target(uri: unknown): string | "stale" | undefined {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const named =
      uri instanceof vscode.Uri && uri.scheme === EDIT_REVIEW_SCHEME
        ? uri
        : input instanceof vscode.TabInputTextDiff && input.modified.scheme === EDIT_REVIEW_SCHEME
          ? input.modified
          : undefined;
    if (named) {
      const ref = parseReviewUri(named);
      return (ref && this.reviews.get(ref.reviewId)?.toolCallId) ?? "stale";
    }
    return this.reviews.newest()?.toolCallId;
  }

  /** Accept and Reject show in the palette only while a review waits. */
  private updateContext(): void {
    void vscode.commands.executeCommand("setContext", "agentTree.editReviewPending", this.reviews.size > 0);
  }

  private async show(review: PendingReview<Review>): Promise<void> {
    const { change, changed } = review.value;
    const left = vscode.Uri.from(reviewUriParts(review.reviewId, change.path, "before"));
    const right = vscode.Uri.from(reviewUriParts(review.reviewId, change.path, "after"));
    const what = change.before === undefined ? "new file" : "proposed change";
    const again = changed ? ", the file changed since the last diff" : "";
    await vscode.commands.executeCommand(
      "vscode.diff",
      left,
      right,
      `${change.path} (${what}${again}: Accept or Reject)`,
      {
        preview: false,
      },
    );
  }
}
