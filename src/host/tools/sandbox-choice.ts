/**
 * Where `bash` runs, from the `agentTree.sandbox.*` settings and what the machine has (src/core/tools/sandbox.ts),
 * and what a branch's approval question says about it (docs/parallel.md, "The sandbox"). Pure: the settings and
 * the probe come in as values.
 *
 * Branches: sandboxed where the machine has a working bubblewrap (unless turned off); otherwise their commands run
 * as the main agent's do, and every approval says so. The main agent: not sandboxed unless the user turns it on —
 * its commands are the user's own work in the user's own folder (installing packages, pushing, running services),
 * which a sandbox without network or home folder would break, and each of them is asked about unless the user
 * auto-approves; when turned on and no sandbox is there, its commands are refused rather than run unconfined.
 */
import os from "node:os";
import path from "node:path";
import type { BranchSandbox } from "../../core/parallel/explore.js";
import type { CommandSandbox, SandboxProbe } from "../../core/tools/sandbox.js";

/** The `agentTree.sandbox.*` settings. */
export interface SandboxSettings {
  /** `agentTree.sandbox.branches` (default true). */
  branches: boolean;
  /** `agentTree.sandbox.mainAgent` (default false). */
  mainAgent: boolean;
  /** `agentTree.sandbox.allowNetwork` (default false). */
  network: boolean;
  /** `agentTree.sandbox.readOnlyPaths`: absolute folders (`~/` expanded), others left out. */
  readOnly: string[];
}

/** Parses the raw setting values; anything malformed takes the safe default. */
export function parseSandboxSettings(raw: {
  branches: unknown;
  mainAgent: unknown;
  allowNetwork: unknown;
  readOnlyPaths: unknown;
}): SandboxSettings {
  const paths = Array.isArray(raw.readOnlyPaths) ? raw.readOnlyPaths : [];
  return {
    branches: raw.branches !== false,
    mainAgent: raw.mainAgent === true,
    network: raw.allowNetwork === true,
    readOnly: paths
      .filter((p): p is string => typeof p === "string")
      .map((p) => (p === "~" || p.startsWith("~/") ? path.join(os.homedir(), p.slice(1)) : p))
      .filter((p) => path.isAbsolute(p)),
  };
}

/** A branch's `bash`: in this sandbox, or not sandboxed for this reason. */
export type BranchBashPlace = { sandbox: BranchSandbox } | { unsandboxed: string };

/** Where the branches' `bash` runs. */
export function branchBashPlace(settings: SandboxSettings, probe: SandboxProbe): BranchBashPlace {
  if (!settings.branches) return { unsandboxed: "the sandbox is turned off (agentTree.sandbox.branches)" };
  if (!probe.available) return { unsandboxed: probe.reason };
  return {
    sandbox: {
      bwrap: probe.bwrap,
      network: settings.network,
      ...(settings.readOnly.length > 0 ? { readOnly: settings.readOnly } : {}),
    },
  };
}

/** Where the main agent's `bash` runs in `cwd`: as it is (undefined), sandboxed, or refused. */
export function mainBashSandbox(
  settings: SandboxSettings,
  probe: SandboxProbe,
  cwd: string,
): CommandSandbox | undefined {
  if (!settings.mainAgent) return undefined;
  if (!probe.available)
    return {
      kind: "refused",
      reason:
        `agentTree.sandbox.mainAgent is on, but there is no sandbox: ${probe.reason}. ` +
        "Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) or turn the setting off.",
    };
  return {
    kind: "bubblewrap",
    bwrap: probe.bwrap,
    policy: {
      writable: [cwd],
      network: settings.network,
      ...(settings.readOnly.length > 0 ? { readOnly: settings.readOnly } : {}),
    },
  };
}

/** The tools that run in a branch's copy and cannot leave it (the path guard confines them). */
const CONFINED_TOOLS = new Set(["read", "write", "edit", "grep", "find", "ls"]);

/**
 * The approval question for a branch's tool call (`summary`: summarizeToolCall's line): where it runs, said as it
 * is — the copy for the confined tools and a sandboxed `bash`; the whole machine for an unsandboxed `bash`; the
 * server's process for an MCP tool (or any other tool).
 */
export function branchApprovalText(branch: string, toolName: string, summary: string, place: BranchBashPlace): string {
  if (CONFINED_TOOLS.has(toolName)) return `${branch} wants to run ${toolName} in its copy: ${summary}`;
  if (toolName === "bash") {
    if ("sandbox" in place) {
      const network = place.sandbox.network ? "with network access" : "no network";
      return (
        `${branch} wants to run bash in its copy, sandboxed (it can change only its copy, cannot see your ` +
        `workspace, ${network}): ${summary}`
      );
    }
    return (
      `${branch} wants to run bash: ${summary}. Not sandboxed (${place.unsandboxed}): the command starts in the ` +
      `branch's copy but can read and change the rest of this machine, your workspace included, and use the network.`
    );
  }
  return (
    `${branch} wants to run ${toolName}: ${summary}. It runs in its MCP server's process, outside the branch's ` +
    `copy: it reaches whatever that server can, your workspace included.`
  );
}
