/**
 * Where `bash` runs and what a branch's approval says about it (src/host/tools/sandbox-choice.ts): sandboxed branches
 * say so; without a sandbox (none on the machine, or turned off) the question says plainly that the command can
 * reach the rest of the machine; MCP tools say they run in their server's process, outside the copy. The settings
 * default to the safe side: branches sandboxed, no network, the main agent as it is; the main agent's sandbox
 * turned on without one refuses its commands.
 */
import assert from "node:assert/strict";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import {
  branchApprovalText,
  branchBashPlace,
  mainBashSandbox,
  parseSandboxSettings,
} from "../../src/host/tools/sandbox-choice.js";
import { summarizeToolCall } from "../../src/host/tools/tool-approval.js";

const UNSET = { branches: undefined, mainAgent: undefined, allowNetwork: undefined, readOnlyPaths: undefined };
const DEFAULTS = parseSandboxSettings(UNSET);
const NONE = { available: false as const, reason: "bubblewrap (bwrap) is not installed" };
const BWRAP = { available: true as const, bwrap: "/usr/bin/bwrap" };

describe("the sandbox choice and the branches' approval text", () => {
  it("defaults: branches sandboxed, no network, the main agent not sandboxed", () => {
    assert.deepEqual(DEFAULTS, { branches: true, mainAgent: false, network: false, readOnly: [] });
    assert.deepEqual(branchBashPlace(DEFAULTS, BWRAP), { sandbox: { bwrap: "/usr/bin/bwrap", network: false } });
    assert.equal(mainBashSandbox(DEFAULTS, BWRAP, "/ws"), undefined);
    const odd = parseSandboxSettings({ branches: "no", mainAgent: 1, allowNetwork: "yes", readOnlyPaths: [3, "rel"] });
    assert.deepEqual(odd, DEFAULTS, "malformed values take the safe default");
    const paths = parseSandboxSettings({ ...UNSET, readOnlyPaths: ["~/.nvm", "/opt/tools"] }).readOnly;
    assert.deepEqual(paths, [path.join(os.homedir(), ".nvm"), "/opt/tools"]);
  });

  it("without a sandbox, a branch's bash question says it can reach the rest of the machine", () => {
    const summary = summarizeToolCall("bash", { command: "rm -rf build" });
    for (const [place, why] of [
      [branchBashPlace(DEFAULTS, NONE), "bubblewrap \\(bwrap\\) is not installed"],
      [branchBashPlace({ ...DEFAULTS, branches: false }, BWRAP), "turned off \\(agentTree\\.sandbox\\.branches\\)"],
    ] as const) {
      const text = branchApprovalText("Branch 2 of 3", "bash", summary, place);
      assert.ok(!text.includes("in its copy"), text);
      assert.match(text, /^Branch 2 of 3 wants to run bash: Run: rm -rf build\. Not sandboxed \(/);
      assert.match(text, new RegExp(why));
      assert.match(text, /can read and change the rest of this machine, your workspace included, and use the network/);
    }
  });

  it("with the sandbox, the question says what the command can and cannot do", () => {
    const place = branchBashPlace(DEFAULTS, BWRAP);
    assert.equal(
      branchApprovalText("Branch 1 of 2", "bash", "Run: make", place),
      "Branch 1 of 2 wants to run bash in its copy, sandboxed (it can change only its copy, cannot see your " +
        "workspace, no network): Run: make",
    );
    const open = branchBashPlace({ ...DEFAULTS, network: true }, BWRAP);
    assert.match(branchApprovalText("Branch 1 of 2", "bash", "Run: make", open), /with network access/);
  });

  it("file tools run in the copy; MCP tools say they run in their server's process, outside it", () => {
    const place = branchBashPlace(DEFAULTS, BWRAP);
    assert.equal(
      branchApprovalText("Branch 1 of 2", "write", "Write a.txt (3 characters)", place),
      "Branch 1 of 2 wants to run write in its copy: Write a.txt (3 characters)",
    );
    const mcp = branchApprovalText("Branch 1 of 2", "mcp__files__write_file", "files/write_file {}", place);
    assert.ok(!mcp.includes("in its copy"), mcp);
    assert.match(mcp, /runs in its MCP server's process, outside the branch's copy/);
  });

  it("the main agent's sandbox: the workspace writable; turned on without a sandbox, commands are refused", () => {
    const on = { ...DEFAULTS, mainAgent: true };
    assert.deepEqual(mainBashSandbox(on, BWRAP, "/ws"), {
      kind: "bubblewrap",
      bwrap: "/usr/bin/bwrap",
      policy: { writable: ["/ws"], network: false },
    });
    const refused = mainBashSandbox(on, NONE, "/ws");
    assert.equal(refused?.kind, "refused");
    assert.match(refused?.kind === "refused" ? refused.reason : "", /mainAgent is on, but there is no sandbox/);
  });
});
