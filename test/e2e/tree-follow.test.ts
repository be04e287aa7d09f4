/**
 * End to end in code-server with the local fake model: a conversation far longer than the Session Tree view (40
 * turns, 80 rows in a view of about 20) keeps its `← active` row inside the tree's viewport after every reply,
 * as the user saw it not do (the tree stuck at the top while the chat moved on below it). Visibility is
 * measured against the tree's scroll viewport inside its webview, not just the row's existence.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FrameLocator } from "playwright-core";
import { chatView, MODEL_TIMEOUT_MS, sendAndAwait } from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import { screenshot, waitUntil } from "../util/workbench.js";

const TURNS = 40;

const { step, page, openAgentTree } = demoWorkbenchSuite({
  name: "tree-follow",
  model: { chunkDelayMs: 1 },
  // A new session: the window opens on an empty tree, and every row is this conversation's.
  newSession: true,
  isolateOtherTools: true,
});

/** The active row against the tree's scroll viewport (coordinates of the tree's frame). */
interface ActiveRow {
  /** The row's text, or null when the active row is not drawn at all. */
  text: string | null;
  top: number;
  bottom: number;
  viewTop: number;
  viewBottom: number;
  /** Rows the whole list spans, and rows the viewport shows. */
  listRows: number;
  viewRows: number;
}

async function activeRow(tree: FrameLocator): Promise<ActiveRow> {
  return tree.locator(".tree-scroll").evaluate((el) => {
    const viewTop = el.getBoundingClientRect().top + el.clientTop;
    const leaf = el.querySelector(".active-leaf");
    const r = leaf === null ? null : leaf.getBoundingClientRect();
    const rowHeight = leaf === null ? 22 : (leaf as HTMLElement).offsetHeight;
    return {
      text: leaf === null ? null : (leaf.textContent ?? ""),
      top: r === null ? NaN : r.top,
      bottom: r === null ? NaN : r.bottom,
      viewTop,
      viewBottom: viewTop + el.clientHeight,
      listRows: (el.querySelector(".tree-spacer") as HTMLElement).offsetHeight / rowHeight,
      viewRows: el.clientHeight / rowHeight,
    };
  });
}

describe("the Session Tree follows a long conversation (code-server)", { timeout: 15 * 60_000 }, () => {
  it(
    `after each of ${TURNS} replies the active row is inside the tree's view`,
    step("forty-turns", async () => {
      const tree = await openAgentTree(400);
      const chat = await chatView(page());
      let last: ActiveRow | undefined;
      for (let turn = 1; turn <= TURNS; turn++) {
        const label = `Turn ${String(turn).padStart(2, "0")}`;
        await sendAndAwait(chat, label, `Echo: ${label}`, `the reply to ${label}`);
        // The reply's row becomes the leaf when its entry is stored: wait for it, then look where it is.
        const shown = await waitUntil(
          async () => {
            const a = await activeRow(tree);
            return a.text?.includes(`Echo: ${label}`) === true ? a : undefined;
          },
          `the reply to ${label} drawn as the active row (it must be in or next to the tree's view)`,
          MODEL_TIMEOUT_MS,
        );
        assert.ok(
          shown.top >= shown.viewTop - 0.5 && shown.bottom <= shown.viewBottom + 0.5,
          `after ${label} the active row (${shown.top}…${shown.bottom}) is inside the tree's view (${shown.viewTop}…${shown.viewBottom})`,
        );
        last = shown;
      }
      assert.ok(last !== undefined);
      assert.ok(
        last.listRows >= 2 * last.viewRows,
        `the conversation (${last.listRows} rows) runs far past the view (${Math.round(last.viewRows)} rows)`,
      );
      await screenshot(page(), "tree-follow-after-40-turns");
    }),
  );
});
