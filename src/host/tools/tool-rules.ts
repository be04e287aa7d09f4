/**
 * The workspace's tool rules: the setting `agentTree.tools.rules` (`allow` and `deny` lists, written to the
 * workspace's scope) and, in a trusted workspace, Claude Code's `.claude/settings.json` and
 * `.claude/settings.local.json`. Answers the approval broker (`current`, `add`) and Agent: Show Tool Rules (`list`,
 * `remove`). Pure: the setting is reached through `RulesSettingStore` (tool-rules-ui.ts has VS Code's).
 */
import { readClaudeRules, type ClaudeRules, type SourcedRule } from "../../core/tools/rules/claude-settings.js";
import { parseRule, type RuleListName, type RuleSet } from "../../core/tools/rules/tool-rules.js";
import type { ApprovalRules } from "./tool-approval.js";

/** Where the setting's rules come from, as Show Tool Rules says. */
export const SETTING_SOURCE = "setting agentTree.tools.rules";

/** The setting's value, as VS Code keeps it. */
export interface RulesSettingValue {
  allow: string[];
  deny: string[];
}

/** The setting, reached through VS Code (or a test's fake). */
export interface RulesSettingStore {
  /** The value in force (workspace over user; in an untrusted workspace VS Code ignores the workspace's). */
  effective(): unknown;
  /** The value written in the workspace's settings, if any. */
  workspace(): unknown;
  /** Writes the workspace's value. */
  writeWorkspace(value: RulesSettingValue): Promise<void>;
}

/** One rule as Show Tool Rules lists it. */
export interface ListedRule extends SourcedRule {
  /** Only the setting's workspace rules are removed from here; Claude Code's files are edited by hand. */
  removable: boolean;
  /** Why the rule does nothing (malformed, a specifier the tool does not take). */
  problem?: string;
}

/** Anything malformed reads as no rules (the setting's JSON schema tells the user in the editor). */
export function parseRulesSetting(value: unknown): RulesSettingValue {
  const list = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((r): r is string => typeof r === "string" && r.trim() !== "").map((r) => r.trim()) : [];
  if (typeof value !== "object" || value === null) return { allow: [], deny: [] };
  const o = value as Record<string, unknown>;
  return { allow: list(o.allow), deny: list(o.deny) };
}

/** Dependencies of WorkspaceToolRules. */
export interface WorkspaceToolRulesDeps {
  store: RulesSettingStore;
  /** The workspace folder; undefined when no folder is open (rules cannot be kept then). */
  cwd: string | undefined;
  /** Whether the workspace is trusted (Claude Code's files are read, rules are added, only then). */
  trusted(): boolean;
  /** Reports what could not be read in Claude Code's files (once per distinct text). */
  warn?(message: string): void;
}

/** See the file comment. */
export class WorkspaceToolRules implements ApprovalRules {
  private readonly warned = new Set<string>();

  constructor(private readonly d: WorkspaceToolRulesDeps) {}

  private async claude(): Promise<ClaudeRules> {
    if (!this.d.trusted() || this.d.cwd === undefined) return { rules: [], issues: [] };
    const found = await readClaudeRules(this.d.cwd);
    for (const issue of found.issues) {
      if (this.warned.has(issue)) continue;
      this.warned.add(issue);
      this.d.warn?.(`Claude Code's rules not read: ${issue}`);
    }
    return found;
  }

  /** The setting's rules and Claude Code's, merged (deny, ask and allow lists). */
  async current(): Promise<RuleSet> {
    const setting = parseRulesSetting(this.d.store.effective());
    const claude = (await this.claude()).rules;
    const of = (list: RuleListName): string[] => claude.filter((r) => r.list === list).map((r) => r.rule);
    return {
      allow: [...setting.allow, ...of("allow")],
      deny: [...setting.deny, ...of("deny")],
      ask: of("ask"),
    };
  }

  canAdd(): boolean {
    return this.d.cwd !== undefined && this.d.trusted();
  }

  /** Appends allow rules to the workspace's setting (each once). */
  async add(rules: readonly string[]): Promise<void> {
    if (!this.canAdd()) throw new Error("rules are kept only in a trusted workspace with a folder open");
    const value = parseRulesSetting(this.d.store.workspace());
    const allow = [...value.allow];
    for (const r of rules) if (!allow.includes(r)) allow.push(r);
    await this.d.store.writeWorkspace({ allow, deny: value.deny });
  }

  /** Every rule in force, deny first, each with where it was written. */
  async list(): Promise<ListedRule[]> {
    const workspace = parseRulesSetting(this.d.store.workspace());
    const effective = parseRulesSetting(this.d.store.effective());
    const out: ListedRule[] = [];
    const push = (rule: string, list: RuleListName, source: string, removable: boolean): void => {
      const problem = parseRule(rule).problem;
      out.push({ rule, list, source, removable, ...(problem ? { problem } : {}) });
    };
    const claude = (await this.claude()).rules;
    for (const list of ["deny", "ask", "allow"] as const) {
      if (list !== "ask")
        for (const rule of effective[list]) push(rule, list, SETTING_SOURCE, workspace[list].includes(rule));
      for (const r of claude) if (r.list === list) push(r.rule, list, r.source, false);
    }
    return out;
  }

  /** Removes a rule from the workspace's setting; false when it was not there. */
  async remove(rule: string, list: "allow" | "deny"): Promise<boolean> {
    const value = parseRulesSetting(this.d.store.workspace());
    if (!value[list].includes(rule)) return false;
    await this.d.store.writeWorkspace({ ...value, [list]: value[list].filter((r) => r !== rule) });
    return true;
  }
}
