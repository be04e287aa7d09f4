/**
 * What "Compare with Current Branch", "Agent: Compare Branches…", "Bring Conclusions Here" and "Go to Source" do.
 * Like HostActions: they run through the operations table, whose guards checked what each needs; each reports
 * failures as messages and never throws to its caller.
 */
import { treeRows } from "../../core/rows/tree-row.js";
import * as vscode from "vscode";
import type { Notify } from "../common/notifier.js";
import type { CheckpointActions } from "../checkpoints/checkpoint-actions.js";
import type { SessionController } from "../session/session-controller.js";
import type { AgentWebviewView } from "../views/webview-view.js";
import { BROUGHT_MESSAGE, runBringFlow } from "./bring-flow.js";
import { branchPickRows, type BranchPickRow } from "./compare-picks.js";
import type { ComparePanels } from "./compare-panel.js";
import { vscodeBringUi } from "./vscode-bring-ui.js";
import { pickValue, type ValueItem } from "../common/pick-value.js";

/** What the compare actions need. */
export interface CompareActionDeps {
  controller: SessionController;
  notify: Notify;
  tree: AgentWebviewView;
  panels: ComparePanels;
  /** The files part of Bring Conclusions Here. */
  files: Pick<CheckpointActions, "bringFiles" | "filesBrought">;
  log: vscode.LogOutputChannel;
}

/** See the file comment. */
export class CompareActions {
  constructor(private readonly d: CompareActionDeps) {}

  /** Compare the path to `entryId` with the path to the current leaf (left: the current branch). */
  compareWithCurrent(entryId: string): void {
    const { sm } = this.d.controller.requireSession();
    const leaf = sm.getLeafId();
    if (leaf === null) return this.d.notify.info("The current branch is empty: there is nothing to compare with.");
    if (leaf === entryId)
      return this.d.notify.info("That is the current leaf: choose a node on another branch to compare with.");
    this.open(leaf, entryId);
  }

  /** Pick two nodes (branch tips first) and compare their paths. */
  async compareBranches(): Promise<void> {
    const first = await this.pickEnd("Compare Branches (1/2): the first branch", undefined);
    if (first === undefined) return;
    const second = await this.pickEnd("Compare Branches (2/2): compare it with", first);
    if (second === undefined) return;
    this.open(first, second);
  }

  /** Summarize the branch of `entryId` and add the summary at the current leaf. */
  async bringConclusions(entryId: string): Promise<void> {
    const { controller, tree, notify } = this.d;
    const { sm, agent } = controller.requireSession();
    const ui = vscodeBringUi(
      (busy, message) =>
        tree.post(busy && message ? { type: "tree/busy", busy, message } : { type: "tree/busy", busy }),
      (text, kind) => notify.status(text, kind),
      (message, conflicts) => this.d.files.filesBrought(message, conflicts),
    );
    const commonAncestor = (id: string): string | null => {
      const leaf = sm.getLeafId();
      return leaf === null ? null : sm.findCommonAncestor(leaf, id);
    };
    const target = {
      isOnCurrentBranch: (id: string) => commonAncestor(id) === id,
      commonAncestor,
      bringConclusions: agent.bringConclusions.bind(agent),
    };
    const outcome = await runBringFlow(target, ui, entryId, await this.d.files.bringFiles(sm));
    this.d.log.info(
      `bring conclusions from ${entryId}: ${outcome.kind}${outcome.kind === "moved" ? ` (files: ${outcome.files})` : ""}`,
    );
    if (outcome.kind === "aborted") notify.status("Bringing conclusions cancelled; nothing changed.");
    if (outcome.kind !== "moved") return;
    controller.pushChat();
    tree.post({ type: "tree/reveal", entryId: outcome.summaryEntry.id });
    if (outcome.files === "none") notify.status(BROUGHT_MESSAGE);
  }

  /** Select, in the tree, the node a branch summary came from. */
  goToSource(entryId: string): void {
    const entry = this.d.controller.sessionManager?.getEntry(entryId);
    if (entry?.type !== "branch_summary" || !this.d.controller.hasEntry(entry.fromId)) return;
    this.d.tree.post({ type: "tree/reveal", entryId: entry.fromId });
  }

  /** Show an entry of session `sessionId` in the tree (from a compare tab). */
  async revealInTree(sessionId: string, entryId: string): Promise<void> {
    const sm = this.d.controller.sessionManager;
    if (sm?.getSessionId() !== sessionId || !sm.hasEntry(entryId))
      return this.d.notify.info("The session of this comparison is no longer open.");
    await this.d.tree.reveal();
    this.d.tree.post({ type: "tree/reveal", entryId });
  }

  private open(leftId: string, rightId: string): void {
    const { sm } = this.d.controller.requireSession();
    try {
      this.d.panels.show(sm, leftId, rightId);
    } catch (e) {
      this.d.notify.error("Cannot compare", e);
    }
  }

  /** Quick pick of one end; resolves to an entry id. */
  private async pickEnd(title: string, exclude: string | undefined): Promise<string | undefined> {
    const sm = this.d.controller.sessionManager;
    if (!sm) return undefined;
    const rows = branchPickRows(treeRows(sm), sm.getLeafId(), exclude);
    if (!rows.some((r) => "value" in r)) return void this.d.notify.info("The session has nothing to compare yet.");
    return pickValue(rows.map(toItem), {
      title,
      placeholder: "Branch tips first; type to filter by text or label",
      matchOnDetail: true,
    });
  }
}

function toItem(row: BranchPickRow): ValueItem<string> {
  if ("separator" in row) return { label: row.separator, kind: vscode.QuickPickItemKind.Separator };
  return { label: row.label, description: row.description, detail: row.detail, value: row.value };
}
