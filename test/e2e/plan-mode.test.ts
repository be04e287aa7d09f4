/**
 * End to end in code-server with the local fake model: plan mode. Agent: Toggle Plan Mode → the chat shows the plan
 * mode badge and the request's tools lack `write`; the answer shows Approve Plan (Keep Planning keeps plan mode and
 * focuses the input); a click on Approve Plan → the next request offers
 * `write` and carries the carry-out message, the badge goes; `/plan` turns it on again. The session file records each
 * change as a plan-mode line, and a window reload shows plan mode again. Screenshots in test-results/e2e/plan-mode-*.png.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { FrameLocator } from "playwright-core";
import {
  chatInput,
  chatView,
  MODEL_TIMEOUT_MS,
  modelRequest,
  readSession,
  sendPrompt,
  sessionFiles,
} from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import type { FakeRequestBody } from "../util/fake-openai-server.js";
import {
  expectVisible,
  openViewContainer,
  reloadWorkbench,
  runCommand,
  screenshot,
  waitUntil,
  WEBVIEW_TIMEOUT_MS,
} from "../util/workbench.js";

const { demo, fake, step, page, wb, openChat } = demoWorkbenchSuite({
  name: "plan-mode",
  model: { chunkDelayMs: 2 },
  newSession: true,
  isolateOtherTools: true,
});

let chat: FrameLocator;

/** The request number `count` (1-based), once the model received it. */
const request = (count: number): Promise<FakeRequestBody> => modelRequest(fake(), count);

function toolNames(body: FakeRequestBody): string[] {
  const tools = Array.isArray(body.tools) ? (body.tools as { function?: { name?: string } }[]) : [];
  return tools.map((t) => t.function?.name ?? "");
}

function lastUserText(body: FakeRequestBody): string {
  const messages = (body.messages ?? []) as { role: string; content: unknown }[];
  const last = messages.filter((m) => m.role === "user").at(-1)?.content;
  return typeof last === "string" ? last : JSON.stringify(last);
}

/** The `enabled` of each plan-mode line of the session file, in file order. */
function planLines(): unknown[] {
  const [file] = sessionFiles(demo().sessionDir);
  return readSession(file).flatMap((l) =>
    l.type === "custom" && l.customType === "agent-tree/plan-mode" ? [(l.data as { enabled?: unknown }).enabled] : [],
  );
}

describe("Plan mode (code-server)", { timeout: 10 * 60_000 }, () => {
  before(async () => {
    chat = await openChat(420);
  });

  it(
    "Toggle Plan Mode: the badge shows, the request offers no `write`, the plan shows Approve Plan",
    step("plan", async () => {
      await runCommand(page(), "Agent: Toggle Plan Mode");
      await expectVisible(chat.locator(".chat-plan-mode"), "the plan mode badge above the input");
      const before = fake().requests.length;
      fake().enqueue({ text: "The plan: 1. Create notes.txt. 2. Check it." });
      await sendPrompt(chat, "plan a notes file");
      const sent = await request(before + 1);
      assert.ok(toolNames(sent).includes("read"), `read is offered: ${toolNames(sent).join(", ")}`);
      for (const name of ["write", "edit", "bash"])
        assert.equal(toolNames(sent).includes(name), false, `${name} is not offered in plan mode`);
      await expectVisible(chat.getByRole("button", { name: "Approve Plan" }), "Approve Plan under the plan");
      await expectVisible(chat.getByRole("button", { name: "Keep Planning" }), "Keep Planning beside it");
      await screenshot(page(), "plan-mode-plan");
    }),
  );

  it(
    "Keep Planning: plan mode stays, the input takes the focus; the next plan shows Approve Plan again",
    step("keep", async () => {
      await chat.getByRole("button", { name: "Keep Planning" }).click();
      await waitUntil(
        async () => ((await chat.getByRole("button", { name: "Approve Plan" }).count()) === 0 ? true : undefined),
        "the plan's buttons to go",
      );
      await waitUntil(
        async () => ((await chatInput(chat).evaluate((el) => el === document.activeElement)) ? true : undefined),
        "the input to take the focus",
      );
      assert.equal(await chat.locator(".chat-plan-mode").count(), 1, "still in plan mode");
      const before = fake().requests.length;
      fake().enqueue({ text: "A shorter plan: 1. Create notes.txt." });
      await sendPrompt(chat, "make it shorter");
      const sent = await request(before + 1);
      assert.equal(toolNames(sent).includes("write"), false, "still no write");
      await expectVisible(chat.getByRole("button", { name: "Approve Plan" }), "Approve Plan under the new plan");
    }),
  );

  it(
    "Approve Plan: the next request offers `write` and carries the carry-out message; the badge goes",
    step("approve", async () => {
      const before = fake().requests.length;
      fake().enqueue({ text: "Carried out." });
      await chat.getByRole("button", { name: "Approve Plan" }).click();
      const sent = await request(before + 1);
      assert.ok(toolNames(sent).includes("write"), `write is offered again: ${toolNames(sent).join(", ")}`);
      assert.equal(lastUserText(sent), "Carry out the plan above.");
      await expectVisible(chat.getByText("Carried out."), "the reply", MODEL_TIMEOUT_MS);
      await waitUntil(
        async () => ((await chat.locator(".chat-plan-mode").count()) === 0 ? true : undefined),
        "the badge to go",
      );
      assert.equal(await chat.getByRole("button", { name: "Approve Plan" }).count(), 0);
      assert.deepEqual(planLines(), [true, false]);
    }),
  );

  it(
    "/plan turns plan mode on again from the chat input; the file records it",
    step("slash", async () => {
      await sendPrompt(chat, "/plan");
      await expectVisible(chat.locator(".chat-plan-mode"), "the badge again");
      await waitUntil(async () => (planLines().length === 3 ? true : undefined), "the line recorded");
      assert.deepEqual(planLines(), [true, false, true]);
      await screenshot(page(), "plan-mode-slash");
    }),
  );

  it(
    "a window reload shows plan mode again: the reopened session's path says so",
    step("reload", async () => {
      const { url } = wb();
      await reloadWorkbench(page(), url);
      await openViewContainer(page(), "Agent");
      chat = await chatView(page());
      await expectVisible(chat.getByText("Carried out."), "the same session after the reload", WEBVIEW_TIMEOUT_MS);
      await expectVisible(chat.locator(".chat-plan-mode"), "the badge after the reload");
    }),
  );
});
