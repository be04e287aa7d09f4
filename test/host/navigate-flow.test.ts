/** The navigate flow against a scripted navigator (decision logic); see navigate-flow-real.test.ts for the core. */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { NavigateTreeOptions, TreeMoveResult } from "../../src/core/agent/navigate-types.js";
import { ALREADY_HERE, movedMessage, runNavigateFlow, type TreeNavigator } from "../../src/host/tree/navigate-flow.js";
import { FakeNavigateUi } from "./fake-navigate-ui.js";

class ScriptedNavigator implements TreeNavigator {
  readonly seen: { targetId: string; options?: NavigateTreeOptions }[] = [];
  constructor(
    private readonly leaf: string | null,
    private readonly answer: (o?: NavigateTreeOptions) => TreeMoveResult | Promise<TreeMoveResult>,
  ) {}
  getLeafId(): string | null {
    return this.leaf;
  }
  async navigateTree(targetId: string, options?: NavigateTreeOptions): Promise<TreeMoveResult> {
    this.seen.push({ targetId, options });
    return this.answer(options);
  }
}

test("navigating to the leaf says so and asks nothing", async () => {
  const nav = new ScriptedNavigator("leaf", () => ({ kind: "moved" }));
  const ui = new FakeNavigateUi({ choice: "summarize" });
  assert.deepEqual(await runNavigateFlow(nav, ui, "leaf", "ask", "ask"), { kind: "noop" });
  assert.deepEqual(ui.infos, [ALREADY_HERE]);
  assert.deepEqual(ui.calls, []);
  assert.equal(nav.seen.length, 0);
});

test("setting 'never' switches without asking; 'always' summarizes without asking", async () => {
  const nav = new ScriptedNavigator("old", () => ({ kind: "moved" }));
  const ui = new FakeNavigateUi();
  const r = await runNavigateFlow(nav, ui, "t", "ask", "never");
  assert.deepEqual(r, { kind: "moved" });
  assert.deepEqual(ui.calls, []);
  assert.equal(nav.seen[0].options?.summarize, false);

  const ui2 = new FakeNavigateUi();
  await runNavigateFlow(nav, ui2, "t", "ask", "always");
  assert.deepEqual(ui2.calls, ["progress"]);
  assert.equal(nav.seen[1].options?.summarize, true);
  assert.ok(nav.seen[1].options?.signal instanceof AbortSignal);
});

test("'choose' mode asks even when the setting says never", async () => {
  const nav = new ScriptedNavigator("old", () => ({ kind: "moved" }));
  const ui = new FakeNavigateUi({ choice: "none" });
  await runNavigateFlow(nav, ui, "t", "choose", "never");
  assert.deepEqual(ui.calls, ["pick"]);
});

test("custom prompt passes the focus to the summarizer", async () => {
  const summaryEntry = {
    type: "branch_summary" as const,
    id: "s1",
    parentId: "t",
    timestamp: "",
    fromId: "old",
    summary: "x",
  };
  const nav = new ScriptedNavigator("old", () => ({ kind: "moved", editorText: "retry this", summaryEntry }));
  const ui = new FakeNavigateUi({ choice: "custom", focus: "  the API design  " });
  const r = await runNavigateFlow(nav, ui, "t", "ask", "ask");
  assert.deepEqual(ui.calls, ["pick", "input", "progress"]);
  assert.equal(nav.seen[0].options?.customInstructions, "the API design");
  assert.deepEqual(r, { kind: "moved", editorText: "retry this", summaryEntry });
  assert.ok(r.kind === "moved");
  assert.match(movedMessage(r), /summarized.*chat input/);
  assert.deepEqual(ui.busy, [true, false]);
});

test("dismissing the question or the input box changes nothing", async () => {
  const nav = new ScriptedNavigator("old", () => ({ kind: "moved" }));
  assert.deepEqual(await runNavigateFlow(nav, new FakeNavigateUi({}), "t", "ask", "ask"), { kind: "dismissed" });
  const ui = new FakeNavigateUi({ choice: "custom" });
  assert.deepEqual(await runNavigateFlow(nav, ui, "t", "ask", "ask"), { kind: "dismissed" });
  assert.equal(nav.seen.length, 0);
});

test("once the questions close (answered or dismissed), the UI hears it, before the summary runs; not when none was asked", async () => {
  const nav = new ScriptedNavigator("old", () => ({ kind: "moved" }));
  const answered = new FakeNavigateUi({ choice: "custom", focus: "x" });
  await runNavigateFlow(nav, answered, "t", "ask", "ask");
  assert.deepEqual(answered.questionsClosedAfter, [["pick", "input"]]);
  const dismissed = new FakeNavigateUi({});
  await runNavigateFlow(nav, dismissed, "t", "ask", "ask");
  assert.deepEqual(dismissed.questionsClosedAfter, [["pick"]]);
  const unasked = new FakeNavigateUi();
  await runNavigateFlow(nav, unasked, "t", "ask", "always");
  assert.deepEqual(unasked.questionsClosedAfter, []);
});

test("cancelling the progress aborts the signal the core sees", async () => {
  const nav = new ScriptedNavigator("old", (o) =>
    o?.signal?.aborted === true ? { kind: "aborted" } : { kind: "moved" },
  );
  const ui = new FakeNavigateUi({ choice: "summarize", cancelProgress: true });
  assert.deepEqual(await runNavigateFlow(nav, ui, "t", "ask", "ask"), { kind: "aborted" });
  assert.deepEqual(ui.errors, []);
});

test("failures show an error; a thrown error does not escape", async () => {
  const failing = new ScriptedNavigator("old", () => ({ kind: "failed", error: "model said 401" }));
  const ui = new FakeNavigateUi({ choice: "summarize" });
  assert.deepEqual(await runNavigateFlow(failing, ui, "t", "ask", "ask"), { kind: "failed", error: "model said 401" });
  assert.match(ui.errors[0], /model said 401/);

  const throwing = new ScriptedNavigator("old", () => {
    throw new Error("disk full");
  });
  const ui2 = new FakeNavigateUi();
  assert.deepEqual(await runNavigateFlow(throwing, ui2, "t", "none", "ask"), { kind: "failed", error: "disk full" });
  assert.match(ui2.errors[0], /disk full/);
  assert.deepEqual(ui2.busy, [true, false]);
});

test("a hook cancel is silent; a core no-op reports 'Already at this point.'", async () => {
  const cancelled = new ScriptedNavigator("old", () => ({ kind: "cancelled" }));
  const ui = new FakeNavigateUi();
  assert.deepEqual(await runNavigateFlow(cancelled, ui, "t", "none", "ask"), { kind: "cancelled" });
  assert.deepEqual([...ui.errors, ...ui.infos], []);
  const noop = new ScriptedNavigator("old", () => ({ kind: "noop" }));
  const ui2 = new FakeNavigateUi();
  assert.deepEqual(await runNavigateFlow(noop, ui2, "t", "none", "ask"), { kind: "noop" });
  assert.deepEqual(ui2.infos, [ALREADY_HERE]);
});
