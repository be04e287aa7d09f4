/**
 * Tool approvals (docs/tools.md): the rules in force (the workspace's setting and, when trusted, Claude Code's
 * files) and how a question is asked — a card in the chat, with a write's or edit's diff opened first, and a
 * notification too when the chat is hidden or shows a watched branch (whichever answers first wins).
 */
import * as vscode from "vscode";
import type { ToolApprovalRequest } from "../../core/tools/types.js";
import type { HostServices } from "../common/services.js";
import type { BranchViews } from "../parallel/create-parallel.js";
import type { EditReview } from "../review/edit-review.js";
import type { ApprovalOffer, ApprovalUi } from "./tool-approval.js";
import { WorkspaceToolRules } from "./tool-rules.js";
import { settingsStore, ToolRulesUi } from "./tool-rules-ui.js";

/** The answer that adds the offered rules to the workspace's setting (docs/tools.md). */
const ALWAYS_IN_WORKSPACE = "Always Allow in This Workspace";

/** The rules, the questions' UI and Agent: Show Tool Rules. */
export function createApprovals(
  s: HostServices,
  review: Pick<EditReview, "open" | "close" | "reviewed">,
  branches: Pick<BranchViews, "postMainChat" | "watch">,
): { rules: WorkspaceToolRules; ui: ApprovalUi; rulesUi: ToolRulesUi } {
  const rules = new WorkspaceToolRules({
    store: settingsStore(),
    cwd: s.folderPath,
    trusted: () => vscode.workspace.isTrusted,
    warn: (m) => s.log.warn(m),
  });
  const ask = async (r: ToolApprovalRequest, summary: string, offer: ApprovalOffer): Promise<void> => {
    const approvals = () => s.controller.get().approvals;
    // A write or edit opens its diff first, so the chat offers Accept and Reject next to it.
    const edited = await review.open(r);
    if (
      !approvals()
        ?.pendingRequests()
        .some((p) => p.toolCallId === r.toolCallId)
    ) {
      void review.close(r.toolCallId);
      return;
    }
    branches.postMainChat({
      type: "chat/approval",
      toolCallId: r.toolCallId,
      toolName: r.toolName,
      summary,
      ...(edited === undefined ? {} : { edit: { path: edited } }),
      ...(offer.rules.length > 0 ? { rules: offer.rules } : {}),
      ...(offer.local === undefined ? {} : { local: offer.local }),
    });
    const { chat } = s.views;
    if (chat.isReady && chat.isVisible && !branches.watch.active) return;
    // The chat is hidden, or shows a watched branch (the card is easy to miss there): ask in a notification too;
    // whichever answers first wins. An edit's diff is open and answers from its title bar.
    if (edited !== undefined) return;
    // A local address is allowed for this call only; a rule is offered when one can cover the call.
    const choices =
      offer.local !== undefined
        ? ["Allow", "Deny"]
        : ["Allow", "Allow Always", ...(offer.rules.length > 0 ? [ALWAYS_IN_WORKSPACE] : []), "Deny"];
    const local = offer.local === undefined ? "" : ` (${offer.local})`;
    void vscode.window
      .showWarningMessage(`Agent wants to run ${r.toolName}: ${summary}${local}`, ...choices)
      .then((choice) => {
        if (choice)
          approvals()?.answer(
            r.toolCallId,
            choice !== "Deny",
            choice === "Allow Always",
            false,
            choice === ALWAYS_IN_WORKSPACE,
          );
      });
  };
  const ui: ApprovalUi = {
    ask: (r, summary, offer) => void ask(r, summary, offer),
    done: (id) => {
      branches.postMainChat({ type: "chat/approvalDone", toolCallId: id });
      void review.close(id);
    },
    reviewed: (id) => review.reviewed(id),
  };
  return { rules, ui, rulesUi: new ToolRulesUi(rules, s.folderPath) };
}
