/** Reads the extension's settings (contributes.configuration in package.json). */
import * as vscode from "vscode";
import { DEFAULT_CHECKPOINT_LIMITS } from "../../core/checkpoints/types.js";
import type { CompactionSettings } from "../../core/compaction/settings.js";
import type { VsCodeModelSettings } from "../../core/providers/pi-settings.js";
import { isThinkingLevel } from "../../core/providers/thinking-levels.js";
import type { QueuedKind } from "../../core/agent/prompt-queue.js";
import { DEFAULT_MAX_CONCURRENT_SUBAGENTS } from "../../core/agent/subagent-tool.js";
import type { AskSetting } from "../tree/navigate-flow.js";
import type { RestoreOnSwitchSetting } from "../checkpoints/restore-on-switch.js";
import { parseSandboxSettings, type SandboxSettings } from "../tools/sandbox-choice.js";
import { parseAutoApprove, type AutoApprove } from "../tools/tool-approval.js";

const SECTION = "agentTree";

function cfg(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SECTION);
}

/** `agentTree.sessionDirectory`, or undefined for pi's folder of the workspace. */
export function sessionDirectorySetting(): string | undefined {
  const v = cfg().get<unknown>("sessionDirectory");
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

/** A positive number of seconds of a setting, in milliseconds; undefined (the core's default) otherwise. */
function secondsSetting(key: string, minimum: number): number | undefined {
  const v = cfg().get<unknown>(key);
  return typeof v === "number" && Number.isFinite(v) && v >= minimum ? Math.round(v * 1000) : undefined;
}

/** `agentTree.session.lockHeartbeatSeconds` and `lockTakeOverAfterSeconds`, in ms (undefined: the defaults). */
export function lockTimingSettings(): { heartbeatMs?: number; staleAfterMs?: number } {
  return {
    heartbeatMs: secondsSetting("session.lockHeartbeatSeconds", 0.5),
    staleAfterMs: secondsSetting("session.lockTakeOverAfterSeconds", 2),
  };
}

/** `agentTree.branchSummary.ask`. */
export function askSetting(): AskSetting {
  const v = cfg().get<unknown>("branchSummary.ask");
  return v === "always" || v === "never" ? v : "ask";
}

/** `agentTree.checkpoints.restoreOnSwitch`. */
export function restoreOnSwitchSetting(): RestoreOnSwitchSetting {
  const v = cfg().get<unknown>("checkpoints.restoreOnSwitch");
  return v === "always" || v === "never" ? v : "ask";
}

/** `agentTree.checkpoints.maxFileSizeMB` in bytes (files above it are not recorded); unset: the engine's cap. */
export function checkpointMaxFileBytes(): number {
  const v = cfg().get<unknown>("checkpoints.maxFileSizeMB");
  return typeof v === "number" && Number.isFinite(v) && v > 0
    ? Math.round(v * 1024 * 1024)
    : DEFAULT_CHECKPOINT_LIMITS.maxFileBytes;
}

/** `agentTree.subagents.maxConcurrent`: how many subagents of a session run at once (1–16; default 4). */
export function maxConcurrentSubagentsSetting(): number {
  const v = cfg().get<unknown>("subagents.maxConcurrent");
  return typeof v === "number" && Number.isFinite(v) && v >= 1
    ? Math.min(MAX_CONCURRENT_SUBAGENTS_LIMIT, Math.floor(v))
    : DEFAULT_MAX_CONCURRENT_SUBAGENTS;
}

/** The highest `agentTree.subagents.maxConcurrent` taken (package.json's maximum). */
const MAX_CONCURRENT_SUBAGENTS_LIMIT = 16;

/** `agentTree.tools.autoApprove`. */
export function autoApproveSetting(): AutoApprove {
  return parseAutoApprove(cfg().get<unknown>("tools.autoApprove"));
}

/**
 * `agentTree.models.custom` as raw JSON values; the core validates them. `api` defaults to the
 * OpenAI-compatible wire format, which every local server speaks.
 */
export function customModelsSetting(): unknown[] {
  const v = cfg().get<unknown>("models.custom");
  if (!Array.isArray(v)) return [];
  return v.map((m: unknown) =>
    typeof m === "object" && m !== null && !("api" in m) ? { ...m, api: "openai-completions" } : m,
  );
}

/** `agentTree.model` (`provider/id`, or empty). */
export function defaultModelSetting(): string {
  const v = cfg().get<unknown>("model");
  return typeof v === "string" ? v.trim() : "";
}

/**
 * The model settings a user set in VS Code, over pi's settings.json (`mergeModelSettings`): `agentTree.model`,
 * `agentTree.thinkingLevel`, `agentTree.models.enabled` (the short list) and `agentTree.compaction.*`. Only values
 * set somewhere (user, workspace) count: a default leaves pi's value in force.
 */
export function vsCodeModelSettings(): VsCodeModelSettings {
  const c = cfg();
  const set = <T>(key: string, valid: (v: unknown) => v is T): T | undefined => {
    const i = c.inspect<unknown>(key);
    const v = i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
    return valid(v) ? v : undefined;
  };
  const isCount = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;
  const out: VsCodeModelSettings = { model: defaultModelSetting() };
  const level = set("thinkingLevel", isThinkingLevel);
  if (level) out.thinkingLevel = level;
  const enabled = set("models.enabled", (v): v is unknown[] => Array.isArray(v));
  const patterns = enabled?.filter((p): p is string => typeof p === "string" && p.trim() !== "");
  if (patterns && patterns.length > 0) out.enabledModels = patterns;
  const compaction: Partial<CompactionSettings> = {};
  const enabledCompaction = set("compaction.enabled", (v): v is boolean => typeof v === "boolean");
  if (enabledCompaction !== undefined) compaction.enabled = enabledCompaction;
  const reserve = set("compaction.reserveTokens", isCount);
  if (reserve !== undefined) compaction.reserveTokens = reserve;
  const keep = set("compaction.keepRecentTokens", isCount);
  if (keep !== undefined) compaction.keepRecentTokens = keep;
  if (Object.keys(compaction).length > 0) out.compaction = compaction;
  return out;
}

/** `agentTree.hooks.loadWorkspaceHooks`. */
export function loadWorkspaceHooksSetting(): boolean {
  return cfg().get<boolean>("hooks.loadWorkspaceHooks") !== false;
}

/** `agentTree.systemPrompt.append`: text added to the system prompt ("" when unset). */
export function systemPromptAppendSetting(): string {
  const v = cfg().get<unknown>("systemPrompt.append");
  return typeof v === "string" ? v : "";
}

/**
 * The `agentTree.sandbox.*` settings (machine scope). Only the user's own values count: a workspace's
 * `.vscode/settings.json` (a cloned repository's) can neither turn the sandbox off nor open the network or folders.
 */
export function sandboxSettings(): SandboxSettings {
  const c = cfg();
  const user = (key: string): unknown => {
    const i = c.inspect<unknown>(`sandbox.${key}`);
    return i?.globalValue ?? i?.defaultValue;
  };
  return parseSandboxSettings({
    branches: user("branches"),
    mainAgent: user("mainAgent"),
    allowNetwork: user("allowNetwork"),
    readOnlyPaths: user("readOnlyPaths"),
  });
}

/** `agentTree.chat.enterWhileRunning`: what Enter queues while the agent works (Alt+Enter queues the other). */
export function enterWhileRunningSetting(): QueuedKind {
  return cfg().get<unknown>("chat.enterWhileRunning") === "steer" ? "steer" : "followUp";
}

/** True when a configuration change touches one of our settings under `key`. */
export function affects(e: vscode.ConfigurationChangeEvent, key: string): boolean {
  return e.affectsConfiguration(`${SECTION}.${key}`);
}
