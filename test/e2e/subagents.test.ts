/**
 * End to end, in a real VS Code (code-server + Chromium) with the local fake model: the model calls `subagent`
 * (read-only) → a branch appears under the call's row while it runs (its newest row showing it runs and the tool it
 * runs); a click on it shows it in the chat read-only, the leaf stays; when it ends, the call's tool result holds its
 * answer and its branch's entry id, the parent answers, and the leaf is the parent's answer — never on the subagent's
 * branch. Screenshots in test-results/e2e/subagents-*.png.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import type { FakeReply, FakeRequestBody } from "../util/fake-provider-common.js";
import {
  activeLeafId,
  chatView,
  readSession,
  row,
  sendPrompt,
  sessionFiles,
  type SessionLine,
} from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import { BRANCHES_TIMEOUT_MS, wireMessages } from "../util/explore-ui.js";
import { expectVisible, screenshot, waitUntil } from "../util/workbench.js";

/** The parent delegates; the subagent reads notes.txt, then answers slowly (so it can be watched while it runs). */
function replies(body: FakeRequestBody): FakeReply {
  const messages = wireMessages(body);
  const first = JSON.stringify(messages.find((m) => m.role === "user")?.content ?? "");
  const last = messages.at(-1);
  if (first.includes("SUBTASK")) {
    if (last?.role === "tool") return { text: "The secret word is heron. ".repeat(4), chunks: 40, chunkDelayMs: 250 };
    return {
      text: "Reading the notes.",
      toolCalls: [{ name: "read", args: { path: "notes.txt" } }],
      chunkDelayMs: 200,
    };
  }
  if (first.includes("DELEGATE")) {
    if (last?.role === "tool") return { text: "Parent done: the subagent found it.", chunkDelayMs: 5 };
    return {
      text: "Delegating.",
      toolCalls: [{ name: "subagent", args: { prompt: "SUBTASK: find the secret word in notes.txt", readOnly: true } }],
      chunkDelayMs: 5,
    };
  }
  return { text: "Echo.", chunkDelayMs: 5 };
}

const { demo, step, wb, fake, openAgentTree } = demoWorkbenchSuite({
  name: "subagents",
  model: { chunkDelayMs: 5 },
  settings: { "agentTree.branchSummary.ask": "never" },
  newSession: true,
  files: { "notes.txt": "The secret word is heron.\n" },
});
let page: Page;

function role(l: SessionLine): string | undefined {
  return l.type === "message" ? (l.message as { role?: string }).role : undefined;
}

describe("Subagents as branches in VS Code (code-server)", { timeout: 10 * 60_000 }, () => {
  before(() => {
    page = wb().page;
    fake().setDefault(replies);
  });

  it(
    "the model calls subagent: a branch runs under the call, the result holds its answer, the leaf stays",
    step("subagent", async () => {
      const t = await openAgentTree(520);
      const chat = await chatView(page);
      await sendPrompt(chat, "DELEGATE: ask a subagent for the secret word");
      const file = await waitUntil(
        async () => sessionFiles(demo().sessionDir)[0],
        "the session file",
        BRANCHES_TIMEOUT_MS,
      );
      // While it runs: its branch hangs off the call's entry, and the tree shows it running.
      const { call, branch } = await waitUntil(
        async () => {
          const lines = readSession(file);
          const sub = lines.find((l) => role(l) === "user" && JSON.stringify(l.message).includes("SUBTASK"));
          const parent = lines.find((l) => l.id === sub?.parentId);
          return sub && parent ? { call: parent, branch: sub.id as string } : undefined;
        },
        "the subagent's branch in the file",
        BRANCHES_TIMEOUT_MS,
      );
      assert.equal(role(call), "assistant", "the branch hangs off the assistant message holding the call");
      assert.match(JSON.stringify(call.message), /"name":"subagent"/);
      await expectVisible(row(t, branch), "the subagent's first row under the call");
      const running = t.locator(".running-tag").first();
      await expectVisible(running, "the running subagent's newest row showing it runs", BRANCHES_TIMEOUT_MS);
      await screenshot(page, "subagents-01-running");

      // A click watches it, read-only; the leaf stays on the call.
      await row(t, branch).click();
      const banner = chat.locator(".watch-banner");
      await expectVisible(banner, "the watched subagent's banner");
      assert.match(await banner.innerText(), /Subagent 1 is running — read-only until it finishes/);
      await expectVisible(chat.locator(".msg", { hasText: "SUBTASK: find the secret word" }), "its prompt");
      assert.equal(await activeLeafId(t), call.id, "the leaf did not move to the subagent");
      await screenshot(page, "subagents-02-watch");
      await banner.getByText("Back to my branch").click();
      await banner.waitFor({ state: "detached" });

      // When it ended: the call's result holds its answer and branch id; the parent's answer is the leaf.
      await expectVisible(
        chat.getByText("Parent done: the subagent found it."),
        "the parent's answer",
        BRANCHES_TIMEOUT_MS,
      );
      const lines = readSession(file);
      const result = lines.find((l) => role(l) === "toolResult" && l.parentId === call.id);
      assert.ok(result, "the tool result is the call's other child");
      const resultText = JSON.stringify(result.message);
      assert.match(resultText, /The secret word is heron/);
      assert.ok(resultText.includes(branch), "the result names the subagent's branch");
      const answer = lines.findLast((l) => role(l) === "assistant");
      assert.equal(answer?.parentId, result.id);
      await waitUntil(
        async () => ((await activeLeafId(t)) === answer?.id ? true : undefined),
        "the leaf on the parent's answer",
      );
      await t.locator(".running-tag").first().waitFor({ state: "detached" });
      const below = new Set([branch]);
      for (const l of lines) if (typeof l.parentId === "string" && below.has(l.parentId) && l.id) below.add(l.id);
      assert.ok(!below.has(answer?.id as string), "the leaf is not on the subagent's branch");
      assert.ok(below.size >= 4, "the subagent's prompt, its read, the read's result and its answer");
      await screenshot(page, "subagents-03-done");
    }),
  );
});
