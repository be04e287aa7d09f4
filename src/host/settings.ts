/** Reads the extension's settings (contributes.configuration in package.json). */
import * as vscode from "vscode";
import { DEFAULT_CHECKPOINT_LIMITS } from "../core/checkpoints/types.js";
import type { QueuedKind } from "../core/agent/prompt-queue.js";
import { DEFAULT_MAX_CONCURRENT_SUBAGENTS } from "../core/agent/subagent-tool.js";
import type { AskSetting } from "./navigate-flow.js";
import type { RestoreOnSwitchSetting } from "./restore-on-switch.js";
import { parseSandboxSettings, type SandboxSettings } from "./sandbox-choice.js";
import { parseAutoApprove, type AutoApprove } from "./tool-approval.js";

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
