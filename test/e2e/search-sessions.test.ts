/**
 * End to end, in a real VS Code (code-server + Chromium): "Agent: Search Sessions…". The workspace's folder
 * holds the demo session; pi's own folder for the workspace (PI_CODING_AGENT_DIR, a temp folder) holds a
 * session where a word occurs only in a branch that was abandoned (the file's last line continues another
 * branch). Searching the word lists that entry with its session and branch; picking it opens pi's session
 * read-only with the entry selected in the tree. Claude Code's folder (CLAUDE_CONFIG_DIR) is an empty temp
 * folder, so nothing outside the test's temp folder is read. Screenshots: test-results/e2e/search-*.png.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { defaultSessionDir } from "../../src/core/session/paths.js";
import { row, rowIds, treeView, waitForLeaf, type AgentWorkbench } from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import { expectVisible, quickInput, runCommand, screenshot, waitForTitleAction, waitUntil } from "../util/workbench.js";

const NEEDLE = "zanzibar";
const TREE = "Session Tree";

let piFile: string;
let piText: string;

// No step chats, so the model URL is never called.
const { step, wb, openAgentTree } = demoWorkbenchSuite({
  name: "search",
  isolateOtherTools: true,
  prepare({ demo, piAgentDir }) {
    piFile = writeBranchedPiSession(defaultSessionDir(demo.workspace, piAgentDir), demo.workspace);
    piText = readFileSync(piFile, "utf8");
  },
});

function page(): AgentWorkbench["page"] {
  return wb().page;
}

/**
 * u1 → a1 → u2 (the needle) → a2        (abandoned)
 *          ↘ u3 → a3                     (the file's last line: pi resumes here)
 */
function writeBranchedPiSession(dir: string, cwd: string): string {
  const start = Date.now() - 7_200_000;
  const at = (i: number): string => new Date(start + i * 1000).toISOString();
  const msg = (id: string, parentId: string | null, i: number, role: "user" | "assistant", text: string) => ({
    type: "message",
    id,
    parentId,
    timestamp: at(i),
    message:
      role === "user"
        ? { role, content: text, timestamp: start + i * 1000 }
        : {
            role,
            content: [{ type: "text", text }],
            api: "openai-completions",
            provider: "local",
            model: "fake-model",
            usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: {} },
            stopReason: "stop",
            timestamp: start + i * 1000,
          },
  });
  const lines = [
    { type: "session", version: 3, id: "0b7e52c4-3333-4a5b-9c0d-000000000003", timestamp: at(0), cwd },
    msg("c0000001", null, 1, "user", "How should the deploy script pick its target?"),
    msg("c0000002", "c0000001", 2, "assistant", "Either a flag or an environment variable."),
    msg("c0000003", "c0000002", 3, "user", `Use the ${NEEDLE} mirror as the default target.`),
    msg("c0000004", "c0000003", 4, "assistant", "Done: the mirror is the default."),
    msg("c0000005", "c0000002", 5, "user", "Use an environment variable instead."),
    msg("c0000006", "c0000005", 6, "assistant", "Done: DEPLOY_TARGET picks it."),
  ];
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${at(0).replace(/[:.]/g, "-")}_0b7e52c4-3333-4a5b-9c0d-000000000003.jsonl`);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const old = new Date(start);
  utimesSync(file, old, old);
  return file;
}

describe("Searching every session in VS Code (code-server)", { timeout: 5 * 60_000 }, () => {
  it(
    "opens on the workspace's own session",
    step("sidebar", async () => {
      await openAgentTree();
    }),
  );

  it(
    "lists the entry of an abandoned branch in another session, with its session and branch",
    step("results", async () => {
      await runCommand(page(), "Agent: Search Sessions…");
      const widget = quickInput(page());
      await expectVisible(
        widget.locator(".quick-input-title", { hasText: "Search Sessions" }),
        "the search quick pick",
      );
      await widget.locator(".quick-input-box input").fill(`Zanzibar MIRROR`);
      const hit = widget.locator(".quick-input-list .monaco-list-row", { hasText: NEEDLE });
      await expectVisible(hit, "the search result");
      await waitUntil(
        async () =>
          /Search Sessions — 1 in 1 session$/.test(await widget.locator(".quick-input-title").innerText())
            ? true
            : undefined,
        "the search to finish with one result",
      );
      const text = (await hit.first().innerText()).replace(/\s+/g, " ");
      await screenshot(page(), "search-01-results");
      assert.match(text, /Use the zanzibar mirror as the default target\./);
      assert.match(text, /How should the deploy script pick its target\?/, "the session is not named");
      assert.match(text, /pi · --/, "the result does not say the session is pi's");
      assert.match(text, /“Use the zanzibar mirror as the default target\.” \(abandoned branch\)/);
      // The quick pick highlights the words found.
      const highlighted = await hit.first().locator(".highlight").allInnerTexts();
      assert.ok(
        highlighted.some((h) => /zanzibar/i.test(h)),
        `no highlight on the match: ${JSON.stringify(highlighted)}`,
      );
    }),
  );

  it(
    "picking the result opens that session read-only with the entry selected",
    step("opened", async () => {
      const widget = quickInput(page());
      await widget.locator(".quick-input-list .monaco-list-row", { hasText: NEEDLE }).first().click();
      const tree = await treeView(page());
      await waitForLeaf(tree, "c0000006", "pi's session at its own leaf (the other branch)");
      await waitUntil(
        async () => ((await row(tree, "c0000003").getAttribute("aria-selected")) === "true" ? true : undefined),
        "the found entry to be selected in the tree",
      );
      await expectVisible(row(tree, "c0000003"), "the found entry's row on screen");
      assert.deepEqual((await rowIds(tree)).filter((id) => id.startsWith("c")).sort(), [
        "c0000001",
        "c0000002",
        "c0000003",
        "c0000004",
        "c0000005",
        "c0000006",
      ]);
      await waitForTitleAction(
        page(),
        TREE,
        "Continue in a New Session",
        true,
        "the read-only pi session's Continue in a New Session action",
      );
      assert.equal(readFileSync(piFile, "utf8"), piText, "opening pi's session changed its file");
      await screenshot(page(), "search-02-opened");
    }),
  );
});
