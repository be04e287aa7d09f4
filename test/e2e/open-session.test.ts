/**
 * End to end, in a real VS Code (code-server + Chromium): opening sessions. The workspace's session folder
 * holds the demo session and a second one, pi's own folder for the workspace (PI_CODING_AGENT_DIR, a temp
 * folder) a third; Claude Code's folder (CLAUDE_CONFIG_DIR) is an empty temp folder, so nothing outside the
 * test's temp folder is read. "Agent: Open Session…" from the command palette lists them and opens the one
 * picked, and says which files of the folder are no session (an empty file, a folder named `x.jsonl`) and why;
 * the Session Tree's title bar runs Fork Session from its "…" menu, and its Open Session and New
 * Session icons. Every step leaves a screenshot in test-results/e2e/open-session-*.png.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { defaultSessionDir } from "../../src/core/session/paths.js";
import {
  readSession,
  rowIds,
  sessionFiles,
  treeView,
  waitForLeaf,
  writePiSession,
  type AgentWorkbench,
  type SeedMessage,
} from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import {
  clickMenuItem,
  clickViewTitleAction,
  openViewTitleMenu,
  pickQuickItemContaining,
  quickPickRows,
  runCommand,
  screenshot,
  viewTitleActions,
  waitForTitleAction,
  waitUntil,
} from "../util/workbench.js";

const TREE = "Session Tree";
const DEMO_NAME = "Demo: a --verbose flag for the greeting CLI";

/** The second session of the workspace's folder: no name, so the picker labels it by its first message. */
const OTHER: SeedMessage[] = [
  { id: "e0000001", role: "user", text: "Rename the greeting to Hi in src/cli.ts." },
  { id: "e0000002", role: "assistant", text: "Done: the CLI now prints Hi, name!" },
  { id: "e0000003", role: "user", text: "And make it uppercase with --shout." },
  { id: "e0000004", role: "assistant", text: "Added --shout: the greeting is printed in capitals." },
];
/** A session pi wrote in its own folder for the workspace (listed as "pi · …", opened read-only). */
const PI: SeedMessage[] = [
  { id: "f0000001", role: "user", text: "Write a changelog entry for the greeting CLI." },
  { id: "f0000002", role: "assistant", text: "Added CHANGELOG.md with a 1.0.0 entry." },
];

let otherFile: string;
let piFile: string;

// No step chats, so the model URL is never called.
const { demo, step, wb, openAgentTree } = demoWorkbenchSuite({
  name: "open-session",
  isolateOtherTools: true,
  prepare(setup) {
    const now = Date.now();
    // Older than the demo session, so the demo one opens first (the most recent of the workspace).
    otherFile = writePiSession(setup.demo.sessionDir, {
      id: "0b7e52c4-1111-4a5b-9c0d-000000000001",
      cwd: setup.demo.workspace,
      messages: OTHER,
      modified: new Date(now - 3_600_000),
    });
    piFile = writePiSession(defaultSessionDir(setup.demo.workspace, setup.piAgentDir), {
      id: "0b7e52c4-2222-4a5b-9c0d-000000000002",
      cwd: setup.demo.workspace,
      name: "Changelog (pi)",
      messages: PI,
      modified: new Date(now - 7_200_000),
    });
    // Damage in the folder: listed as skipped with a reason, never breaking the list.
    writeFileSync(join(setup.demo.sessionDir, "broken.jsonl"), "");
    mkdirSync(join(setup.demo.sessionDir, "x.jsonl"));
  },
});

function page(): AgentWorkbench["page"] {
  return wb().page;
}

/** Waits until the tree shows exactly `ids` (in any order). */
async function waitForRows(ids: readonly string[], what: string): Promise<void> {
  const want = [...ids].sort().join(",");
  let last = "";
  const t = await treeView(page());
  await waitUntil(async () => {
    last = (await rowIds(t)).sort().join(",");
    return last === want ? true : undefined;
  }, what).catch((err: unknown) => {
    throw new Error(`${err instanceof Error ? err.message : String(err)}; rows: ${last || "none"}`);
  });
}

describe("Opening sessions in VS Code (code-server)", { timeout: 5 * 60_000 }, () => {
  it(
    "opens on the workspace's most recent session",
    step("sidebar", async () => {
      await openAgentTree();
      await screenshot(page(), "open-session-01-sidebar");
    }),
  );

  it(
    '"Agent: Open Session…" lists the sessions and opens the one picked',
    step("palette", async () => {
      await runCommand(page(), "Agent: Open Session…");
      const rows = await quickPickRows(page(), "Open Session");
      await screenshot(page(), "open-session-02-picker");
      const index = (text: string): number => rows.findIndex((r) => r.includes(text));
      const demoRow = index(DEMO_NAME);
      const otherRow = index(OTHER[0].text);
      const piRow = index("Changelog (pi)");
      assert.ok(demoRow >= 0, `the demo session (by its name) is not listed:\n${rows.join("\n")}`);
      assert.match(rows[demoRow], /\(open\)/, "the open session is not marked");
      assert.ok(otherRow >= 0, `the second session (by its first message) is not listed:\n${rows.join("\n")}`);
      assert.match(rows[otherRow], /4 messages/);
      assert.ok(piRow >= 0, `pi's session of the workspace (by its name) is not listed:\n${rows.join("\n")}`);
      assert.match(rows[piRow], /pi · --/, "pi's session does not say where it comes from");
      assert.match(rows[piRow], new RegExp(PI[0].text.replace(/\./g, "\\.")), "pi's first message is not the detail");
      assert.ok(demoRow < piRow && otherRow < piRow, "the workspace's sessions do not come first");
      assert.ok(index("pi sessions of other folders") >= 0, "no entry for pi's other folders");
      const skippedRow = index("not listed: not a session");
      assert.ok(skippedRow >= 0, `no row for the damaged files:\n${rows.join("\n")}`);
      assert.match(rows[skippedRow], /2 files are not listed/);
      assert.match(rows[skippedRow], /broken\.jsonl: the file is empty/);
      assert.match(rows[skippedRow], /x\.jsonl: it is a folder, not a file/);

      await pickQuickItemContaining(page(), "Rename the greeting", OTHER[0].text);
      await waitForRows(
        OTHER.map((m) => m.id),
        "the tree to show the picked session's rows",
      );
      await waitForLeaf(await treeView(page()), OTHER[3].id, "the picked session's last message as the leaf");
      await screenshot(page(), "open-session-03-opened");
    }),
  );

  it(
    'the Session Tree\'s title-bar "…" menu runs Fork Session',
    step("title-menu", async () => {
      const items = await openViewTitleMenu(page(), TREE);
      await screenshot(page(), "open-session-04-title-menu");
      for (const item of ["Fork Session", "Export Session to HTML", "Export Branch…"])
        assert.ok(items.includes(item), `"${item}" is not in the "…" menu: ${items.join(", ")}`);
      const filesBefore = new Set(sessionFiles(demo().sessionDir));
      await clickMenuItem(page(), "Fork Session");
      await pickQuickItemContaining(page(), "prints Hi", OTHER[1].text);
      const forked = await waitUntil(
        async () => sessionFiles(demo().sessionDir).find((f) => !filesBefore.has(f)),
        "a new session file from the fork",
      );
      assert.equal(readSession(forked)[0].parentSession, otherFile, "the fork does not name its parent session");
      await waitForRows([OTHER[0].id, OTHER[1].id], "the tree to show the fork (path up to the picked reply)");
      await screenshot(page(), "open-session-05-forked");
    }),
  );

  it(
    "the title bar's Open Session icon opens pi's session read-only, and New Session starts an empty one",
    step("title-icons", async () => {
      const before = await viewTitleActions(page(), TREE);
      assert.ok(
        before.some((a) => a.startsWith("Open Session")) && before.some((a) => a.startsWith("New Session")),
        `the title bar lacks Open Session / New Session: ${before.join(", ")}`,
      );
      assert.ok(
        !before.some((a) => a.startsWith("Continue in a New Session")),
        `a writable session offers "Continue in a New Session": ${before.join(", ")}`,
      );
      await clickViewTitleAction(page(), TREE, "Open Session");
      // The fork made above is listed as a thread: right below the session it was forked from.
      const rows = await quickPickRows(page(), "Open Session");
      const parentRow = rows.findIndex((r) => r.includes(OTHER[0].text) && !r.includes("fork of"));
      assert.ok(parentRow >= 0, `the forked session is not listed:\n${rows.join("\n")}`);
      assert.match(rows[parentRow + 1] ?? "", /fork of Rename the greeting/, `no fork under it:\n${rows.join("\n")}`);
      await screenshot(page(), "open-session-05b-threads");
      await pickQuickItemContaining(page(), "Changelog", "Changelog (pi)");
      await waitForRows(
        PI.map((m) => m.id),
        "the tree to show pi's session",
      );
      // Read-only: the title bar offers to continue it in a session of the workspace's folder.
      await waitForTitleAction(
        page(),
        TREE,
        "Continue in a New Session",
        true,
        'the "Continue in a New Session" title action for the read-only pi session',
      );
      assert.equal(readSession(piFile).length, 1 + 1 + PI.length, "opening pi's session changed its file");
      await screenshot(page(), "open-session-06-pi-read-only");

      await clickViewTitleAction(page(), TREE, "New Session");
      await waitForRows([], "an empty tree after New Session");
      await waitForTitleAction(
        page(),
        TREE,
        "Continue in a New Session",
        false,
        'the read-only "Continue in a New Session" action to go away',
      );
      await screenshot(page(), "open-session-07-new-session");
    }),
  );
});
