/** The extension activates, registers its commands and views, and returns the hook API. */
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { COMMAND_IDS } from "../../src/host/common/command-ids.js";
import { activateApi, EXTENSION_ID } from "./helpers.js";

describe("Agent Tree: activation", () => {
  it("activates and returns { hooks, onDidChangeSession, getSessionManager }", async () => {
    const api = await activateApi();
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)?.isActive, true);
    for (const fn of ["on", "registerCommand", "sendMessage", "appendEntry", "getCommands"] as const) {
      assert.equal(typeof api.hooks[fn], "function", `hooks.${fn}`);
    }
    assert.equal(typeof api.onDidChangeSession, "function");
    assert.equal(typeof api.getSessionManager, "function");
  });

  it("registers every contributed command", async () => {
    await activateApi();
    const all = new Set(await vscode.commands.getCommands(true));
    const missing = COMMAND_IDS.filter((id) => !all.has(id));
    assert.deepEqual(missing, []);
  });

  it("contributes the Agent container with the tree and chat views", () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
      contributes: {
        views: Record<string, { id: string; type: string }[]>;
        viewsContainers: { activitybar: { id: string }[] };
      };
    };
    assert.deepEqual(
      pkg.contributes.viewsContainers.activitybar.map((c) => c.id),
      ["agentTree"],
    );
    assert.deepEqual(
      pkg.contributes.views.agentTree.map((v) => [v.id, v.type]),
      [
        ["agentTree.tree", "webview"],
        ["agentTree.chat", "webview"],
      ],
    );
  });
});
