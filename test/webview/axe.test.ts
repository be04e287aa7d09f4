/**
 * axe-core's rules over the tree and the chat in real Chromium, in the states a keyboard or screen-reader user
 * meets: rows with labels and badges, an empty tree, a run with a tool call, an approval, a queued message and
 * markdown. Rules about a whole page are left out — a view is a pane of the workbench, which has the document's
 * title, the main landmark and the headings — and so is the one that disallows role="combobox" on a textarea (the
 * message box is multi-line and owns the `@` / `/` list; ARIA 1.2 allows the role on inputs only, screen readers
 * announce it either way).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { settle, webviewRig, withPage, type ViewPage } from "./harness.js";
import { chatSnapshot, GPT, openChatView, toolTurn } from "./chat-fixtures.js";
import { treeRow, treeSnapshot } from "./tree-fixtures.js";

const rig = webviewRig();
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const PAGE_RULES = ["document-title", "landmark-one-main", "page-has-heading-one", "region", "aria-allowed-role"];

/** axe's violations in the page, one line each: rule, impact and the first offending elements. */
async function violations(vp: ViewPage): Promise<string[]> {
  // Evaluated, not a script tag: the page's CSP admits only its own scripts.
  await vp.page.evaluate(`${AXE};0`);
  return (await vp.page.evaluate(`(async () => {
    const rules = Object.fromEntries(${JSON.stringify(PAGE_RULES)}.map((id) => [id, { enabled: false }]));
    const r = await axe.run(document, { rules, resultTypes: ["violations"] });
    return r.violations.map((v) => v.id + " (" + v.impact + "): " + v.nodes.slice(0, 2).map((n) => n.html.slice(0, 120)).join(" | "));
  })()`)) as string[];
}

test("axe finds nothing in the tree: rows with labels, badges and checks, then an empty tree", () =>
  withPage(rig.openView({ view: "tree" }), async (vp) => {
    await vp.send(
      treeSnapshot(
        [
          treeRow("u1", null, "user", { preview: "Hello" }),
          treeRow("a1", "u1", "assistant", { preview: "Hi", label: "greeting", changedFiles: 2 }),
          treeRow("u2", "u1", "user", { preview: "Other", check: { state: "failed", title: "npm test failed" } }),
        ],
        "a1",
      ),
    );
    await settle(vp.page);
    assert.deepEqual(await violations(vp), []);
    await vp.send(treeSnapshot([], null));
    await settle(vp.page);
    assert.deepEqual(await violations(vp), [], "an empty tree");
    assert.equal(await vp.page.getAttribute('[role="tree"]', "aria-describedby"), "tree-empty");
    assert.equal(await vp.page.textContent("#tree-empty"), "No entries yet.");
  }));

test("axe finds nothing in the chat during a run: a tool call, an approval, a queued message, markdown", () =>
  withPage(
    openChatView(
      rig,
      chatSnapshot(toolTurn("Answer with **bold**, `code` and\n\n```js\nrun();\n```"), { streaming: true, model: GPT }),
    ),
    async (vp) => {
      await vp.send({ type: "chat/approval", toolCallId: "k1", toolName: "bash", summary: "ls" });
      await vp.send({ type: "chat/queue", items: [{ id: "q1", kind: "steer", text: "go on" }] });
      await settle(vp.page);
      assert.deepEqual(await violations(vp), []);
    },
  ));
