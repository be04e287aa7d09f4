/**
 * Agent: Show Tool Rules — a quick pick of every approval rule in force (deny, ask, allow), each with where it is
 * written. A rule of the workspace's setting has a Remove button (picking it asks first); a rule of Claude Code's
 * files opens that file. Also VS Code's side of the setting (`settingsStore`).
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { errorText } from "../../core/error-text.js";
import { CLAUDE_SETTINGS_FILES } from "../../core/tools/rules/claude-settings.js";
import { iconButton, type ValueItem } from "../common/pick-value.js";
import {
  SETTING_SOURCE,
  type ListedRule,
  type RulesSettingStore,
  type RulesSettingValue,
  type WorkspaceToolRules,
} from "./tool-rules.js";

const KEY = "tools.rules";

/** The setting through VS Code: read in force, written to the workspace's scope. */
export function settingsStore(): RulesSettingStore {
  const cfg = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration("agentTree");
  return {
    effective: () => cfg().get<unknown>(KEY),
    workspace: () => cfg().inspect<unknown>(KEY)?.workspaceValue,
    writeWorkspace: async (value: RulesSettingValue) => {
      await cfg().update(KEY, value, vscode.ConfigurationTarget.Workspace);
    },
  };
}

const LIST_ICON: Record<ListedRule["list"], string> = {
  allow: "$(check)",
  ask: "$(question)",
  deny: "$(circle-slash)",
};

/** A row: a rule's (the rule as the value), or a note (none). */
type RuleItem = ValueItem<ListedRule>;

const REMOVE = iconButton("trash", "Remove");
const OPEN = iconButton("go-to-file", "Open the file");

/** The row of one rule. */
export function ruleItem(r: ListedRule): RuleItem {
  return {
    label: `${LIST_ICON[r.list]} ${r.rule}`,
    description: `${r.list} · ${r.source}`,
    ...(r.problem ? { detail: `Not used: ${r.problem}` } : {}),
    buttons: [r.removable ? REMOVE : OPEN],
    value: r,
  };
}

/** See the file comment. */
export class ToolRulesUi {
  constructor(
    private readonly rules: WorkspaceToolRules,
    private readonly cwd: string | undefined,
  ) {}

  private async items(): Promise<RuleItem[]> {
    const listed = await this.rules.list();
    const items: RuleItem[] = listed.map(ruleItem);
    if (listed.length === 0)
      items.push({
        label: "No tool rules",
        detail:
          "Answer an approval with Always Allow in This Workspace, or write rules in agentTree.tools.rules (or Claude Code's .claude/settings.json).",
      });
    if (!vscode.workspace.isTrusted)
      items.push({
        label: "$(shield) Claude Code's rules are not read",
        detail: `This workspace is not trusted, so ${CLAUDE_SETTINGS_FILES.join(" and ")} are ignored, and no rule is added.`,
      });
    return items;
  }

  /** Shows the list until it is closed. */
  async show(): Promise<void> {
    const qp = vscode.window.createQuickPick<RuleItem>();
    qp.title = "Tool Rules";
    qp.placeholder = "Rules that allow or deny tool calls without asking; pick one to remove it (or open its file)";
    qp.matchOnDescription = true;
    // The removal's question is a modal: the list stays open behind it.
    qp.ignoreFocusOut = true;
    const refresh = async (): Promise<void> => {
      qp.items = await this.items();
    };
    await refresh();
    qp.onDidTriggerItemButton(({ item }) => void this.act(item, refresh));
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0];
      if (item) void this.act(item, refresh);
    });
    qp.onDidHide(() => qp.dispose());
    qp.show();
  }

  /** Remove a setting's rule (asked first), or open a Claude Code file. */
  private async act(item: RuleItem, refresh: () => Promise<void>): Promise<void> {
    const r = item.value;
    if (!r) return;
    try {
      if (!r.removable) {
        if (r.source === SETTING_SOURCE) {
          await vscode.commands.executeCommand("workbench.action.openSettings", "agentTree.tools.rules");
        } else if (this.cwd !== undefined) {
          await vscode.window.showTextDocument(vscode.Uri.file(path.join(this.cwd, r.source)));
        }
        return;
      }
      const choice = await vscode.window.showWarningMessage(
        `Remove the ${r.list} rule ${r.rule} from this workspace's settings?`,
        { modal: true },
        "Remove",
      );
      if (choice !== "Remove" || r.list === "ask") return;
      await this.rules.remove(r.rule, r.list);
      await refresh();
    } catch (e) {
      void vscode.window.showErrorMessage(errorText(e));
    }
  }
}
