/**
 * The tree keeps the active row in view while the leaf moves, in real Chromium: a reply appended, a queued message
 * delivered, a branch switch (with and without a summary), a compaction and Adopt This Branch, each as the host's
 * tree sync (src/host/tree/tree-sync.ts) posts it for a real SessionManager. It scrolls only as far as needed, never
 * while the pointer is over the rows (they must not move under it), and not when the user has just scrolled the
 * active row out of view: then the "active" control and Shift+A bring it back.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { SessionManager } from "../../src/core/session/session-manager.js";
import { SessionManager as Sessions } from "../../src/core/session/session-manager.js";
import { TreeSync } from "../../src/host/tree/tree-sync.js";
import type { HostToWebview } from "../../src/shared/protocol.js";
import { FOLLOW_HOLD_MS } from "../../webview/tree/tree-follow.js";
import { assistant, toolResult, user } from "../util/session-builder.js";
import { applyTheme, settle, webviewRig, withPage, type ViewPage } from "./harness.js";
import { press } from "./tree-page.js";

const rig = webviewRig();

/** A chat in memory and the tree sync the host runs on it. */
interface ChatHost {
  sm: SessionManager;
  /** Per turn: the user message's id and the reply's. */
  turns: { user: string; reply: string }[];
  sync: TreeSync;
  posted: HostToWebview[];
}

/** `turns` user/assistant turns, then `more` on the session before the view opens. */
function chatHost(turns: number, more?: (sm: SessionManager, ids: ChatHost["turns"]) => void): ChatHost {
  const sm = Sessions.inMemory("/tmp");
  const ids: ChatHost["turns"] = [];
  for (let t = 1; t <= turns; t++)
    ids.push({ user: sm.appendMessage(user(`question ${t}`)), reply: sm.appendMessage(assistant(`answer ${t}`)) });
  more?.(sm, ids);
  const posted: HostToWebview[] = [];
  return { sm, turns: ids, sync: new TreeSync(sm, (m) => posted.push(m)), posted };
}

/** A side bar's tree: about eleven rows tall, so a chat of 40 turns runs far below it. */
async function openChat(host: ChatHost): Promise<ViewPage> {
  const vp = await rig.openView({ view: "tree", width: 400, height: 300 });
  await vp.send(host.sync.snapshot());
  return vp;
}

/**
 * Does `action` on the session in one tick, as the host does, and hands the view what the tree sync posts for it:
 * one `tree/update` that moves the leaf (checked, so each test drives the message its move really produces).
 */
async function hostDoes(vp: ViewPage, host: ChatHost, action: (sm: SessionManager) => void): Promise<string> {
  action(host.sm);
  host.sync.flush();
  const msgs = host.posted.splice(0);
  assert.equal(msgs.length, 1, "one tree message per move");
  const [update] = msgs;
  assert.ok(update.type === "tree/update" && typeof update.leafId === "string", "a tree update moving the leaf");
  await vp.send(update);
  return update.leafId;
}

/** The active row against the tree's scroll viewport (page coordinates); NaN when the row is not drawn. */
interface ActiveView {
  id: string | null;
  top: number;
  bottom: number;
  viewTop: number;
  viewBottom: number;
  scrollTop: number;
  selected: boolean;
}

async function activeView(vp: ViewPage): Promise<ActiveView> {
  return vp.page.$eval(".tree-scroll", (el) => {
    const viewTop = el.getBoundingClientRect().top + el.clientTop;
    const leaf = el.querySelector(".active-leaf");
    const r = leaf === null ? null : leaf.getBoundingClientRect();
    return {
      id: leaf === null ? null : leaf.getAttribute("data-entry-id"),
      top: r === null ? NaN : r.top,
      bottom: r === null ? NaN : r.bottom,
      viewTop,
      viewBottom: viewTop + el.clientHeight,
      scrollTop: el.scrollTop,
      selected: leaf !== null && leaf.getAttribute("aria-selected") === "true",
    };
  });
}

/**
 * The row of `leafId` is the active row and lies wholly inside the tree's viewport; `edge` says where a scroll
 * that went only as far as needed leaves it (at the bottom edge when it came from below, the top from above).
 */
async function assertActiveInView(vp: ViewPage, leafId: string, what: string, edge?: "top" | "bottom"): Promise<void> {
  const v = await activeView(vp);
  assert.equal(v.id, leafId, `${what}: the active row is drawn`);
  assert.ok(
    v.top >= v.viewTop - 0.5 && v.bottom <= v.viewBottom + 0.5,
    `${what}: the active row (${v.top}…${v.bottom}) is inside the view (${v.viewTop}…${v.viewBottom})`,
  );
  if (edge === "bottom") assert.ok(Math.abs(v.bottom - v.viewBottom) < 1, `${what}: scrolled just far enough down`);
  if (edge === "top") assert.ok(Math.abs(v.top - v.viewTop) < 1, `${what}: scrolled just far enough up`);
}

/** Whether the active row is drawn wholly inside the tree's viewport. */
async function inView(vp: ViewPage): Promise<boolean> {
  const v = await activeView(vp);
  return v.id !== null && v.top >= v.viewTop - 0.5 && v.bottom <= v.viewBottom + 0.5;
}

/** The control that brings the active row back. */
function goToActive(vp: ViewPage): ReturnType<ViewPage["page"]["getByRole"]> {
  return vp.page.getByRole("button", { name: "Go to the active row" });
}

/** Waits until the tree's scroll position holds still (a wheel scroll may run over a few frames). */
async function scrollSettled(vp: ViewPage): Promise<number> {
  let last = -1;
  for (let i = 0; i < 60; i++) {
    await settle(vp.page);
    const now = await vp.page.$eval(".tree-scroll", (el) => el.scrollTop);
    if (now === last) return now;
    last = now;
  }
  throw new Error("the tree kept scrolling");
}

/** Scrolls the tree with the mouse wheel, as a user does, then takes the pointer off the rows (to the toolbar). */
async function wheel(vp: ViewPage, dy: number): Promise<number> {
  await vp.page.mouse.move(200, 200);
  await vp.page.mouse.wheel(0, dy);
  const top = await scrollSettled(vp);
  await vp.page.mouse.move(1, 1);
  await settle(vp.page);
  return top;
}

test("a reply appended: the tree scrolls just far enough to keep the active row in view, and the selection follows", () => {
  const host = chatHost(40);
  return withPage(openChat(host), async (vp) => {
    await vp.page.mouse.move(1, 1);
    await assertActiveInView(vp, host.turns[39].reply, "after the snapshot", "bottom");
    for (let t = 41; t <= 43; t++) {
      const asked = await hostDoes(vp, host, (sm) => sm.appendMessage(user(`question ${t}`)));
      await assertActiveInView(vp, asked, `question ${t} sent`, "bottom");
      const answered = await hostDoes(vp, host, (sm) => sm.appendMessage(assistant(`answer ${t}`)));
      await assertActiveInView(vp, answered, `answer ${t} arrived`, "bottom");
      assert.ok((await activeView(vp)).selected, "the selection stayed on the active row");
    }
    assert.equal(await goToActive(vp).count(), 0, "no control while the active row is in view");
    assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
  });
});

test("a queued message delivered: steering after the reply's tool calls, a follow-up when the run ends", () => {
  const host = chatHost(40);
  return withPage(openChat(host), async (vp) => {
    await vp.page.mouse.move(1, 1);
    // The reply with its tool call and result, and the steering message delivered right after them.
    const steered = await hostDoes(vp, host, (sm) => {
      sm.appendMessage(user("run the tests"));
      sm.appendMessage(assistant("Running them.", ["bash"]));
      sm.appendMessage(toolResult("12 passed"));
      sm.appendMessage(user("also check the linter"));
    });
    await assertActiveInView(vp, steered, "the steering message delivered", "bottom");
    // The run's last reply and the follow-up queued meanwhile, sent as its own request.
    const followed = await hostDoes(vp, host, (sm) => {
      sm.appendMessage(assistant("Tests and linter pass."));
      sm.appendMessage(user("now write the changelog"));
    });
    await assertActiveInView(vp, followed, "the follow-up delivered", "bottom");
  });
});

test("a branch switch, with and without a summary, brings the new active row into view", () => {
  const host = chatHost(40);
  return withPage(openChat(host), async (vp) => {
    await vp.page.mouse.move(1, 1);
    // Far up: the leaf marker's row (hidden) and the leaf on an early reply.
    const early = await hostDoes(vp, host, (sm) => sm.branch(host.turns[4].reply));
    assert.equal(early, host.turns[4].reply);
    await assertActiveInView(vp, early, "switched to answer 5", "top");
    assert.ok((await activeView(vp)).selected, "the selection followed the leaf");
    // Back down with a summary of the branch left: the summary is the new leaf, at the end of the tree.
    const summary = await hostDoes(vp, host, (sm) =>
      sm.branchWithSummary(host.turns[39].reply, "Tried answer 5 again."),
    );
    await assertActiveInView(vp, summary, "switched back with a summary", "bottom");
    // With a summary to an early reply: the summary starts a branch there, drawn after the branch it sits beside.
    const beside = await hostDoes(vp, host, (sm) => sm.branchWithSummary(host.turns[9].reply, "Back at answer 10."));
    await assertActiveInView(vp, beside, "switched to answer 10 with a summary");
  });
});

test("a compaction: its row becomes the active row and stays in view", () => {
  const host = chatHost(40);
  return withPage(openChat(host), async (vp) => {
    await vp.page.mouse.move(1, 1);
    const compaction = await hostDoes(vp, host, (sm) =>
      sm.appendCompaction("The first thirty turns, condensed.", host.turns[30].user, 120_000),
    );
    await assertActiveInView(vp, compaction, "compacted", "bottom");
    assert.match((await vp.page.getAttribute(".active-leaf", "class")) ?? "", /kind-compaction/);
  });
});

test("Adopt This Branch: the host's move brings the adopted branch's newest row into view; its reveal selects it", () => {
  let tip = "";
  // Explore in Parallel ran a branch from answer 30 (its rows hang beside the leaf); the user chatted on meanwhile.
  const host = chatHost(30, (sm, turns) => {
    let at = turns[29].reply;
    for (let i = 1; i <= 2; i++) {
      at = sm.appendMessageAt(at, user(`explore step ${i}`));
      at = sm.appendMessageAt(at, assistant(`explored ${i}`));
    }
    tip = at;
    for (let t = 31; t <= 40; t++) {
      turns.push({ user: sm.appendMessage(user(`question ${t}`)), reply: sm.appendMessage(assistant(`answer ${t}`)) });
    }
  });
  return withPage(openChat(host), async (vp) => {
    await vp.page.mouse.move(1, 1);
    await assertActiveInView(vp, host.turns[39].reply, "before the adoption", "bottom");
    // The move without a summary (agent.navigateTree), then the reveal the adoption posts.
    assert.equal(await hostDoes(vp, host, (sm) => sm.branch(tip)), tip);
    await assertActiveInView(vp, tip, "adopted", "top");
    const top = (await activeView(vp)).scrollTop;
    await vp.send({ type: "tree/reveal", entryId: tip });
    await assertActiveInView(vp, tip, "revealed");
    const after = await activeView(vp);
    assert.ok(after.selected, "the adopted row is selected");
    assert.equal(after.scrollTop, top, "the reveal had nothing left to scroll");
  });
});

test("the user scrolled the active row away: no jump; the control, its key and Tab + Enter bring it back", () => {
  const host = chatHost(40);
  return withPage(openChat(host), async (vp) => {
    await applyTheme(vp.page, "vscode-dark", {
      "--vscode-foreground": "#cccccc",
      "--vscode-button-background": "#0078d4",
      "--vscode-button-foreground": "#ffffff",
      "--vscode-button-hoverBackground": "#026ec1",
      "--vscode-focusBorder": "#0078d4",
    });
    const away = await wheel(vp, -400);
    assert.ok(!(await inView(vp)), "the active row left the view");
    const control = goToActive(vp);
    assert.equal(await control.count(), 1, "the control shows while the active row is out of view");
    assert.match((await control.textContent()) ?? "", /active/);
    assert.equal(await control.locator(".codicon").count(), 1, "with a codicon");
    const colours = await control.evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]);
    assert.deepEqual(colours, ["rgb(0, 120, 212)", "rgb(255, 255, 255)"], "in the theme's button colours");

    // A reply arrives: the view stays where the user put it.
    let leaf = await hostDoes(vp, host, (sm) => sm.appendMessage(user("question 41")));
    assert.equal((await activeView(vp)).scrollTop, away, "no jump");
    assert.equal(await control.count(), 1);
    await control.click();
    await settle(vp.page);
    await assertActiveInView(vp, leaf, "after the control", "bottom");
    assert.equal(await control.count(), 0, "the control is gone once the row is in view");
    assert.equal(await vp.page.evaluate(() => document.activeElement?.getAttribute("role")), "tree");
    assert.ok((await activeView(vp)).selected, "the active row is selected");

    // Again, and Shift+A in the tree.
    const away2 = await wheel(vp, -400);
    leaf = await hostDoes(vp, host, (sm) => sm.appendMessage(assistant("answer 41")));
    assert.equal((await activeView(vp)).scrollTop, away2, "no jump");
    await press(vp, "Shift+A");
    await assertActiveInView(vp, leaf, "after Shift+A", "bottom");
    assert.equal(
      await vp.page.evaluate(() => document.activeElement?.getAttribute("role")),
      "tree",
      "Shift+A did not start a search",
    );

    // Again, from the keyboard alone: Tab from the tree reaches the control.
    await wheel(vp, -400);
    leaf = await hostDoes(vp, host, (sm) => sm.appendMessage(user("question 42")));
    await vp.page.focus('[role="tree"]');
    await vp.page.keyboard.press("Tab");
    assert.equal(
      await vp.page.evaluate(() => document.activeElement?.getAttribute("aria-label")),
      "Go to the active row",
    );
    await vp.page.keyboard.press("Enter");
    await settle(vp.page);
    await assertActiveInView(vp, leaf, "after Tab and Enter", "bottom");
    assert.equal(await vp.page.evaluate(() => document.activeElement?.getAttribute("role")), "tree");

    // Scrolled back to the active row: the tree follows the next reply again.
    await wheel(vp, -400);
    await wheel(vp, 4000);
    leaf = await hostDoes(vp, host, (sm) => sm.appendMessage(assistant("answer 42")));
    await assertActiveInView(vp, leaf, "after scrolling back down", "bottom");
    assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
  });
});

test("the control had the focus when the row came back into view: the tree takes the focus, not the page", () => {
  const host = chatHost(40);
  return withPage(openChat(host), async (vp) => {
    await wheel(vp, -400);
    await vp.page.focus('[role="tree"]');
    await vp.page.keyboard.press("Tab");
    assert.equal(
      await vp.page.evaluate(() => document.activeElement?.getAttribute("aria-label")),
      "Go to the active row",
    );
    // Scrolled back by hand: the control goes, and the focus with it would be lost.
    await wheel(vp, 4000);
    assert.ok(await inView(vp));
    assert.equal(await goToActive(vp).count(), 0);
    assert.equal(await vp.page.evaluate(() => document.activeElement?.getAttribute("role")), "tree");
  });
});

test("the hold lasts a few seconds: a leaf move after it brings the active row back", () => {
  const host = chatHost(40);
  return withPage(openChat(host), async (vp) => {
    const away = await wheel(vp, -400);
    await vp.page.waitForTimeout(FOLLOW_HOLD_MS + 500);
    assert.equal((await activeView(vp)).scrollTop, away, "nothing moved by itself");
    const leaf = await hostDoes(vp, host, (sm) => sm.appendMessage(user("question 41")));
    await assertActiveInView(vp, leaf, "a reply after the hold", "bottom");
  });
});

test("rows never move under the pointer: a leaf move waits until the pointer leaves the rows", () => {
  const host = chatHost(40);
  return withPage(openChat(host), async (vp) => {
    const underPointer = (): Promise<string | null> =>
      vp.page.evaluate(
        () => document.elementFromPoint(200, 150)?.closest('[role="treeitem"]')?.getAttribute("data-entry-id") ?? null,
      );
    await vp.page.mouse.move(200, 150);
    await settle(vp.page);
    const hovered = await underPointer();
    assert.notEqual(hovered, null);
    const before = (await activeView(vp)).scrollTop;
    const leaf = await hostDoes(vp, host, (sm) => sm.appendMessage(user("question 41")));
    assert.equal((await activeView(vp)).scrollTop, before, "nothing scrolled under the pointer");
    assert.equal(await underPointer(), hovered, "the same row is under the pointer");
    assert.equal(await goToActive(vp).count(), 1, "the control says where the active row went");
    await vp.page.mouse.move(1, 1);
    await settle(vp.page);
    await assertActiveInView(vp, leaf, "once the pointer left", "bottom");
  });
});
