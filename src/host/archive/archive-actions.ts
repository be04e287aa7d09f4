/**
 * Archive Branch, Unarchive Branch and Delete Branch Permanently… (docs/archive.md): the context-menu items, the
 * commands and the tree's Delete / Shift+Delete keys. When the branch holds the current position, the user is
 * asked where to move first (a step of the operation: its guards found nothing at work in the branch). The
 * operations table checked the session is open, writable and idle there, and picked the entry from the palette;
 * failures are reported as messages, never thrown.
 */
import * as vscode from "vscode";
import { treeRows } from "../../core/rows/tree-row.js";
import type { SessionManager } from "../../core/session/session-manager.js";
import type { HostActions } from "../tree/actions.js";
import { nodeRows } from "../common/pick-items.js";
import { pickValue } from "../common/pick-value.js";
import type { SessionController } from "../session/session-controller.js";
import type { Notify } from "../common/notifier.js";

/** What the archive actions need. */
export interface ArchiveDeps {
  controller: SessionController;
  /** The branch switch (moving out of the branch first). */
  actions: Pick<HostActions, "navigate">;
  notify: Notify;
}

/** True when `entryId` is `branchId` or below it. */
export function inBranch(sm: Pick<SessionManager, "getEntryHead">, entryId: string | null, branchId: string): boolean {
  let id = entryId;
  for (let guard = 0; id !== null && guard < 1_000_000; guard++) {
    if (id === branchId) return true;
    id = sm.getEntryHead(id)?.parentId ?? null;
  }
  return false;
}

/** The confirmation of a permanent deletion: how many entries go, and why more than the branch. */
export function deletionQuestion(plan: { removed: number; branch: number }): string {
  const entries = (n: number): string => (n === 1 ? "1 entry" : `${n} entries`);
  const others = plan.removed - plan.branch;
  const why =
    others > 0
      ? ` (${entries(plan.branch)} of the branch, and ${others} that point into it: labels and summaries)`
      : "";
  return (
    `Delete this branch permanently? ${entries(plan.removed)} will be removed from the session file${why}. ` +
    "This cannot be undone; a backup of the file is kept until the session is next opened."
  );
}

/** See the file comment. */
export class ArchiveActions {
  constructor(private readonly d: ArchiveDeps) {}

  /** Archive Branch: hide the branch starting at the entry. */
  async archive(id: string): Promise<void> {
    const { sm } = this.d.controller.requireSession();
    if (sm.isArchived(id)) return this.d.notify.info("This branch is archived already.");
    if (!(await this.moveOutOf(sm, id, "archiving"))) return;
    try {
      sm.archiveBranch(id);
      this.d.notify.status("Branch archived: it is hidden until you show archived branches in the tree.");
    } catch (e) {
      this.d.notify.error("Cannot archive the branch", e);
    }
  }

  /** Unarchive Branch: bring back the archived branch holding the entry. */
  unarchive(id: string): void {
    const { sm } = this.d.controller.requireSession();
    try {
      const lines = sm.unarchiveBranch(id);
      if (lines.length === 0) return this.d.notify.info("This branch is not archived.");
      this.d.notify.status("Branch unarchived.");
    } catch (e) {
      this.d.notify.error("Cannot unarchive the branch", e);
    }
  }

  /** Delete Branch Permanently…: confirm with the count, move out of the branch if needed, rewrite the file. */
  async deletePermanently(id: string): Promise<void> {
    const { sm } = this.d.controller.requireSession();
    let question: string;
    try {
      question = deletionQuestion(sm.planBranchDeletion(id));
    } catch (e) {
      return this.d.notify.error("Cannot delete the branch", e);
    }
    const go = await vscode.window.showWarningMessage(question, { modal: true }, "Delete Permanently");
    if (go !== "Delete Permanently") return;
    if (!(await this.moveOutOf(sm, id, "deleting"))) return;
    try {
      const r = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: "Deleting the branch…" },
        () => sm.deleteBranch(id),
      );
      this.d.controller.pushChat();
      this.d.notify.status(`Branch deleted: ${r.removed === 1 ? "1 entry" : `${r.removed} entries`} removed.`);
    } catch (e) {
      this.d.notify.error("Cannot delete the branch; the file was left as it was", e);
    }
  }

  /**
   * When the current position is in the branch, ask where to go (the branch point, or a picked entry outside
   * the branch) and go there. True when the position is outside the branch now.
   */
  private async moveOutOf(sm: SessionManager, id: string, doing: string): Promise<boolean> {
    if (!inBranch(sm, sm.getLeafId(), id)) return true;
    const parent = sm.getEntryHead(id)?.parentId ?? null;
    const toParent = "Move to the Branch Point";
    const choose = "Choose Where…";
    const answer = await vscode.window.showWarningMessage(
      `The current position is in this branch. Where should it move before ${doing} the branch?`,
      { modal: true },
      ...(parent !== null ? [toParent] : []),
      choose,
    );
    let target: string | undefined;
    if (answer === toParent) target = parent ?? undefined;
    else if (answer === choose) target = await this.pickOutside(sm, id);
    if (target === undefined) return false;
    await this.d.actions.navigate(target, "none");
    return !inBranch(sm, sm.getLeafId(), id);
  }

  /** Quick pick of the entries outside the branch that are not archived. */
  private pickOutside(sm: SessionManager, branchId: string): Promise<string | undefined> {
    const hidden = sm.getArchivedIds();
    const inside = sm.getSubtreeIds(branchId);
    const rows = nodeRows(treeRows(sm), sm.getLeafId()).filter((r) => !hidden.has(r.value) && !inside.has(r.value));
    if (rows.length === 0) {
      this.d.notify.info("There is no other entry to move to.");
      return Promise.resolve(undefined);
    }
    return pickValue(rows, { title: "Move to…" });
  }

  /** Quick pick of the first entries of the archived branches (Unarchive Branch's picker). */
  pickArchived(): Promise<string | undefined> {
    const sm = this.d.controller.sessionManager;
    if (!sm) return Promise.resolve(undefined);
    const roots = new Set(sm.getArchivedBranches());
    if (roots.size === 0) {
      this.d.notify.info("No branch of this session is archived.");
      return Promise.resolve(undefined);
    }
    const rows = nodeRows(treeRows(sm), sm.getLeafId()).filter((r) => roots.has(r.value));
    return pickValue(rows, { title: "Unarchive Branch" });
  }
}
