/**
 * End to end, in a real VS Code (code-server + Chromium): two windows on one workspace, each with its own
 * extension host, writing one session file. Window A holds the writer lock; its page then stops answering
 * (the renderer is paused, as when a code-server tab is gone and its extension host lingers), so A's lock
 * is no longer refreshed. Window B finds the lock unresponsive and offers "Take Over"; after it, B writes.
 * When A's page answers again, A finds its lock taken, turns read-only and says so, and writes nothing.
 * Then B's extension host is killed: A opens the session again and takes the dead holder's lock at once.
 * Lock timings are shortened through the settings agentTree.session.lockHeartbeatSeconds / lockTakeOverAfterSeconds.
 * Every step leaves a screenshot in test-results/e2e/lock-*.png.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CDPSession, Page } from "playwright-core";
import { DEMO_IDS } from "../../demo/generate-demo.js";
import { pidAlive } from "../../src/core/session/processes.js";
import { readSession, treeView, waitForLeaf } from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import {
  answerInputBox,
  expectVisible,
  notificationsText,
  openViewContainer,
  openWorkbench,
  pickQuickItemContaining,
  quickInput,
  quickPickRows,
  runCommand,
  screenshot,
  viewPaneHeader,
  waitUntil,
} from "../util/workbench.js";

const HEARTBEAT_MS = 1000;
const STALE_MS = 4000;
/** The reconnection of a page that was paused, and a new extension host, can take a while on a busy machine. */
const SLOW_MS = 90_000;
const DEMO_NAME = "Demo: a --verbose flag for the greeting CLI";

const suite = demoWorkbenchSuite({
  name: "lock",
  settings: {
    "agentTree.session.lockHeartbeatSeconds": HEARTBEAT_MS / 1000,
    "agentTree.session.lockTakeOverAfterSeconds": STALE_MS / 1000,
  },
});
const { demo, wb } = suite;
let pageB: Page | undefined;
let pausedA: CDPSession | undefined;
let holderA = 0;
let holderB = 0;

/** A test step: on failure, window B's page is saved too (window A's may be paused and give no picture). */
function step(name: string, fn: () => Promise<void>): () => Promise<void> {
  return suite.step(name, async () => {
    try {
      await fn();
    } catch (err) {
      if (pageB) await screenshot(pageB, `FAILED-lock-${name}-window-b`).catch(() => undefined);
      // Window A's picture (taken next) needs its page running.
      await pausedA?.send("Debugger.resume").catch(() => undefined);
      throw err;
    }
  });
}

function pageA(): Page {
  return wb().page;
}

/** The session's lock as the store wrote it: the holder's pid and when it was last refreshed. */
function lockState(): { pid: number; refreshed: number } | undefined {
  const dir = `${realpathSync(demo().sessionFile)}.lock`;
  try {
    const [entry] = readdirSync(dir);
    if (!entry) return undefined;
    const file = join(dir, entry);
    return { pid: (JSON.parse(readFileSync(file, "utf8")) as { pid: number }).pid, refreshed: statSync(file).mtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * Open the Agent side bar. A new window restores the layout of the first one while it starts, and a click on
 * an activity-bar entry that just became active closes the side bar again: click until the tree is there.
 */
async function openAgent(page: Page): Promise<void> {
  const header = viewPaneHeader(page, "Session Tree");
  for (let attempt = 0; attempt < 3; attempt++) {
    await openViewContainer(page, "Agent");
    const shown = await header.waitFor({ state: "visible", timeout: 10_000 }).then(
      () => true,
      () => false,
    );
    if (shown) return;
  }
  await expectVisible(header, "the Agent side bar");
}

/** Labels in the session file (label entries), by their text. */
function labels(): string[] {
  return readSession(demo().sessionFile)
    .filter((l) => l.type === "label")
    .map((l) => String(l.label));
}

/**
 * "Agent: Label Entry…" from the command palette: pick the entry whose text contains `entryText`, then (when
 * the session is writable) type `label`. The palette's quick picks are steadier than a context menu opened
 * while a window is busy starting.
 */
async function labelFromPalette(page: Page, entryText: string, label?: string): Promise<void> {
  await runCommand(page, "Agent: Label Entry…");
  await quickPickRows(page, "Label Entry");
  await pickQuickItemContaining(page, entryText, entryText);
  if (label === undefined) return;
  // The input box replaces the quick pick in the same widget: wait for its prompt, not just an input.
  await expectVisible(
    quickInput(page).locator(".quick-input-message", { hasText: "A short name" }),
    "the label input box",
  );
  await answerInputBox(page, label);
}

/** The notification (toast or centre) whose text matches, with its buttons. */
async function notification(page: Page, text: RegExp, what: string, timeoutMs = SLOW_MS): Promise<string> {
  return waitUntil(
    async () => {
      const all = await notificationsText(page);
      return text.test(all) ? all : undefined;
    },
    what,
    timeoutMs,
  );
}

describe(
  "Two windows on one session: takeover after asking, the old holder turns read-only",
  { timeout: 10 * 60_000 },
  () => {
    after(async () => {
      await pausedA?.send("Debugger.resume").catch(() => undefined);
    });

    it(
      "window A opens the session for writing and keeps its lock refreshed",
      step("a-holds", async () => {
        await openAgent(pageA());
        await waitForLeaf(await treeView(pageA()), DEMO_IDS.leaf, "the demo session's leaf in window A");
        const first = await waitUntil(async () => lockState(), "window A's writer lock");
        holderA = first.pid;
        await waitUntil(
          async () => ((lockState()?.refreshed ?? 0) > first.refreshed ? true : undefined),
          "window A to refresh its lock",
        );
        await screenshot(pageA(), "lock-01-a-holds");
      }),
    );

    it(
      "window A's page stops answering: its lock is no longer refreshed, and window B takes it over after asking",
      step("b-takes-over", async () => {
        // The renderer stops running script: A's extension host lives on, but its round trips get no answer.
        pausedA = await wb().context.newCDPSession(pageA());
        await pausedA.send("Debugger.enable");
        await pausedA.send("Debugger.pause");
        await waitUntil(
          async () => {
            const s = lockState();
            return s && s.pid === holderA && Date.now() - s.refreshed > STALE_MS + HEARTBEAT_MS ? true : undefined;
          },
          "window A's lock to go unrefreshed",
          60_000,
        );
        pageB = await wb().context.newPage();
        await openWorkbench(pageB, wb().url);
        await openAgent(pageB);
        await notification(pageB, /has not refreshed its lock/, 'window B\'s "Take Over" question');
        await screenshot(pageB, "lock-02-b-asks");
        const takeOver = pageB.locator(".notification-list-item .monaco-button", { hasText: "Take Over" }).first();
        await expectVisible(takeOver, 'the "Take Over" button');
        await takeOver.click();
        await waitForLeaf(await treeView(pageB), DEMO_IDS.leaf, "the demo session's leaf in window B", SLOW_MS);
        const now = await waitUntil(async () => {
          const s = lockState();
          return s && s.pid !== holderA ? s : undefined;
        }, "window B to hold the lock");
        holderB = now.pid;
        await labelFromPalette(pageB, "Option C", "written by window B");
        await waitUntil(
          async () => (labels().includes("written by window B") ? true : undefined),
          "window B's label in the file",
        );
        await screenshot(pageB, "lock-03-b-writes");
      }),
    );

    it(
      "window A answers again: it finds its lock taken, says so, shows the session read-only and writes nothing",
      step("a-lost", async () => {
        // (Already running if an earlier step failed and resumed it for its picture.)
        await pausedA?.send("Debugger.resume").catch(() => undefined);
        await pausedA?.detach();
        pausedA = undefined;
        await pageA().bringToFront();
        await notification(pageA(), /was taken over by process \d+/, "window A's lost-lock notification");
        const chatNotice = await waitUntil(
          async () => {
            const frames = pageA().frames();
            for (const f of frames) {
              const text = await f
                .locator("body")
                .innerText({ timeout: 1000 })
                .catch(() => "");
              if (/took this session over/.test(text)) return text;
            }
            return undefined;
          },
          "the read-only reason in window A's chat",
          SLOW_MS,
        );
        assert.match(chatNotice, /read-only/);
        await screenshot(pageA(), "lock-04-a-read-only");
        // A write in window A is refused with a read-only notice before anything is asked (the operations table's
        // "writable" need: no entry or label is asked for); the file keeps what B wrote.
        const before = readFileSync(demo().sessionFile, "utf8");
        await runCommand(pageA(), "Agent: Label Entry…");
        await notification(pageA(), /stopped writing to it: it is read-only/, "window A's read-only notice", 30_000);
        assert.equal(readFileSync(demo().sessionFile, "utf8"), before, "window A wrote after losing its lock");
        for (const line of readSession(demo().sessionFile)) assert.ok(line.type, "a broken line");
        assert.equal(lockState()?.pid, holderB, "window A's lock came back");
      }),
    );

    it(
      "window B's extension host is killed: window A opens the session again and takes the dead holder's lock at once",
      step("b-killed", async () => {
        process.kill(holderB, "SIGKILL");
        await waitUntil(async () => (pidAlive(holderB) ? undefined : true), "window B's extension host to die");
        await pageB?.close();
        pageB = undefined;
        assert.equal(lockState()?.pid, holderB, "the killed holder's lock is not there to take over");
        await runCommand(pageA(), "Agent: Open Session…");
        await quickPickRows(pageA(), "Open Session");
        await pickQuickItemContaining(pageA(), "verbose flag", DEMO_NAME);
        const mine = await waitUntil(async () => {
          const s = lockState();
          return s && s.pid === holderA ? s : undefined;
        }, "window A to hold the lock again");
        assert.equal(mine.pid, holderA);
        await waitForLeaf(await treeView(pageA()), DEMO_IDS.leaf, "the session in window A");
        await labelFromPalette(pageA(), "Option A", "written by window A after the kill");
        await waitUntil(
          async () => (labels().includes("written by window A after the kill") ? true : undefined),
          "window A's label in the file",
        );
        assert.ok(labels().includes("written by window B"), "window B's label was lost");

        await screenshot(pageA(), "lock-05-a-writes-again");
      }),
    );
  },
);
