/**
 * Edits reviewed as diffs: when a `write` or `edit` waits for approval, VS Code's diff editor opens with the file
 * as it is and as the tool would leave it (read-only documents of the `agent-tree-edit` scheme, computed by the
 * same code the tools run: src/core/tools/file-change.ts). Accept, Reject and Accept All in This Run answer the
 * approval from the diff editor's title bar as from the chat; an answered or abandoned review closes its diff.
 */
import * as vscode from "vscode";
import { proposedFileChange, type ProposedFileChange } from "../core/tools/file-change.js";
import type { ToolApprovalRequest } from "../core/tools/types.js";
import { EDIT_REVIEW_SCHEME, parseReviewUri, reviewUriParts } from "./edit-review-uri.js";
import { EDIT_TOOLS } from "./tool-approval.js";

/** What the review needs from the host. */
export interface EditReviewDeps {
  cwd: string;
  /** Answers the approval of a tool call (the ApprovalBroker of the current session). */
  answer(toolCallId: string, approved: boolean, allInRun: boolean): void;
  log: vscode.LogOutputChannel;
}

/** See the file comment. */
export class EditReview implements vscode.TextDocumentContentProvider {
  private readonly reviews = new Map<string, ProposedFileChange>();
  /** Newest first: the palette's Accept answers the newest review when no diff editor is active. */
  private readonly order: string[] = [];

  constructor(private readonly d: EditReviewDeps) {}

  /** The document provider; goes into the extension's subscriptions. */
  register(): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(EDIT_REVIEW_SCHEME, this);
  }

  /** Text of one side of a review (empty for a file that does not exist yet, or a review already answered). */
  provideTextDocumentContent(uri: vscode.Uri): string {
    const ref = parseReviewUri(uri);
    const review = ref ? this.reviews.get(ref.toolCallId) : undefined;
    if (!ref || !review) return "";
    return ref.side === "before" ? (review.before ?? "") : review.after;
  }

  /**
   * Opens the diff of a pending write or edit; resolves to the file's workspace path, or undefined for another
   * tool or a call whose result cannot be computed (it will fail with the same message when run).
   */
  async open(request: ToolApprovalRequest): Promise<string | undefined> {
    if (!EDIT_TOOLS.includes(request.toolName)) return undefined;
    // Asked again (the chat view reloaded): the diff is open already, or was closed on purpose.
    const known = this.reviews.get(request.toolCallId);
    if (known) return known.path;
    let review: ProposedFileChange | undefined;
    try {
      review = await proposedFileChange(this.d.cwd, request.toolName, request.args);
    } catch (e) {
      this.d.log.info(`No diff for ${request.toolName}: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
    if (!review) return undefined;
    this.reviews.set(request.toolCallId, review);
    this.order.unshift(request.toolCallId);
    this.updateContext();
    try {
      await this.show(request.toolCallId, review);
    } catch (e) {
      // Without its diff the call is asked about like any other: the approval must reach the user regardless.
      this.d.log.warn(`Opening the diff of ${review.path} failed: ${e instanceof Error ? e.message : String(e)}`);
      await this.close(request.toolCallId);
      return undefined;
    }
    return review.path;
  }

  /** Opens a pending review's diff again (the chat's Open Diff). */
  async reopen(toolCallId: string): Promise<void> {
    const review = this.reviews.get(toolCallId);
    if (review) await this.show(toolCallId, review);
  }

  /** The approval was answered or became moot: forget the review and close its diff. */
  async close(toolCallId: string): Promise<void> {
    if (!this.reviews.delete(toolCallId)) return;
    this.order.splice(this.order.indexOf(toolCallId), 1);
    this.updateContext();
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter(
        (t) =>
          t.input instanceof vscode.TabInputTextDiff && parseReviewUri(t.input.modified)?.toolCallId === toolCallId,
      );
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
  }

  /**
   * Accept, Reject or Accept All in This Run from the diff editor's title bar (`uri`: its document) or the palette
   * (the active diff, else the newest pending review).
   */
  decide(uri: unknown, approved: boolean, allInRun = false): void {
    const toolCallId = this.target(uri);
    if (toolCallId === undefined) {
      void vscode.window.showInformationMessage("No edit is waiting for review.");
      return;
    }
    this.d.answer(toolCallId, approved, allInRun);
  }

  private target(uri: unknown): string | undefined {
    if (uri instanceof vscode.Uri) {
      const ref = parseReviewUri(uri);
      if (ref && this.reviews.has(ref.toolCallId)) return ref.toolCallId;
    }
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (input instanceof vscode.TabInputTextDiff) {
      const ref = parseReviewUri(input.modified);
      if (ref && this.reviews.has(ref.toolCallId)) return ref.toolCallId;
    }
    return this.order[0];
  }

  /** Accept and Reject show in the palette only while a review waits. */
  private updateContext(): void {
    void vscode.commands.executeCommand("setContext", "agentTree.editReviewPending", this.reviews.size > 0);
  }

  private async show(toolCallId: string, review: ProposedFileChange): Promise<void> {
    const left = vscode.Uri.from(reviewUriParts(toolCallId, review.path, "before"));
    const right = vscode.Uri.from(reviewUriParts(toolCallId, review.path, "after"));
    const what = review.before === undefined ? "new file" : "proposed change";
    await vscode.commands.executeCommand("vscode.diff", left, right, `${review.path} (${what}: Accept or Reject)`, {
      preview: false,
    });
  }
}
