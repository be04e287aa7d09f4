/**
 * End to end, in a real VS Code (code-server + Chromium) with the local fake model: **Replay with Model…** on the
 * first user row of a two-turn path (the first turn writes a file: a tool call in the middle). The user checks a
 * second model instead of the current one, keeps the thinking level and no check: a new branch under where the
 * first turn started holds both user messages again, in order, each after the turn before it ended; the fake model
 * saw them with the chosen model (through the real OpenAI SDK); the run lines say `replay`; the workspace is
 * untouched; and the compare tab opens on the original path and the replay. Screenshots in
 * test-results/e2e/replay-*.png.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import type { FakeReply, FakeRequestBody } from "../util/fake-provider-common.js";
import {
  activeLeafId,
  chatView,
  pickFromRowMenu,
  readSession,
  row,
  sendPrompt,
  sessionFiles,
  type SessionLine,
} from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import { answerInputBox, expectVisible, findWebview, quickInput, screenshot, waitUntil } from "../util/workbench.js";

const MODEL_TIMEOUT_MS = 90_000;
const REPLAY_MODEL = { id: "replay-model", name: "Replay model (second)" };

/** The text of a message's content. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return Array.isArray(content)
    ? content.map((c: { type?: string; text?: string }) => (c.type === "text" ? (c.text ?? "") : "")).join("")
    : "";
}

/** TURN-ONE writes notes.txt with the model's id, then answers; TURN-TWO gets an answer naming the model. */
function replies(body: FakeRequestBody): FakeReply {
  const messages = body.messages as { role: string; content: unknown }[];
  const last = messages.at(-1);
  const model = String(body.model);
  if (last?.role === "tool") return { text: `Wrote it (${model}).`, chunkDelayMs: 20 };
  const text = textOf(last?.content);
  if (text.includes("TURN-ONE"))
    return {
      text: "Writing notes.",
      toolCalls: [{ name: "write", args: { path: "notes.txt", content: `by ${model}\n` } }],
      chunkDelayMs: 20,
    };
  if (text.includes("TURN-TWO")) return { text: `Second answer from ${model}.`, chunkDelayMs: 20 };
  return { text: `Echo: ${text.slice(0, 40)}`, chunkDelayMs: 5 };
}

const { demo, step, wb, fake, workspaceText, openAgentTree } = demoWorkbenchSuite({
  name: "replay",
  model: { chunkDelayMs: 5 },
  settings: { "agentTree.tools.autoApprove": ["write"], "agentTree.branchSummary.ask": "never" },
  newSession: true,
  files: { "notes.txt": "the notes\n" },
  // A second model on the same fake server, to replay with.
  prepare: ({ demo: d }) => {
    const file = path.join(d.workspace, ".vscode", "settings.json");
    const settings = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
    const models = settings["agentTree.models.custom"] as Record<string, unknown>[];
    models.push({ ...models[0], ...REPLAY_MODEL });
    fs.writeFileSync(file, JSON.stringify(settings, null, 2) + "\n");
  },
});
let page: Page;

/** The user messages' texts on the path from the root to `id`. */
function userPath(lines: SessionLine[], id: string): string[] {
  const byId = new Map(lines.filter((l) => l.id).map((l) => [l.id as string, l]));
  const out: string[] = [];
  for (let at = byId.get(id); at; at = at.parentId ? byId.get(at.parentId) : undefined) {
    const message = at.message as { role?: string; content?: unknown } | undefined;
    if (at.type === "message" && message?.role === "user") out.unshift(textOf(message.content));
  }
  return out;
}

/** The newest message entry below `branchId`, in file order. */
function newestBelow(lines: SessionLine[], branchId: string): string {
  const below = new Set([branchId]);
  let newest = branchId;
  for (const l of lines)
    if (typeof l.parentId === "string" && below.has(l.parentId) && l.id) {
      below.add(l.id);
      if (l.type === "message") newest = l.id;
    }
  return newest;
}

describe("Replay with Model in VS Code (code-server)", { timeout: 10 * 60_000 }, () => {
  before(() => {
    page = wb().page;
    fake().setDefault(replies);
  });

  it(
    "replays a two-turn path with the chosen model on a new branch, then compares it with the original",
    step("replay", async () => {
      const t = await openAgentTree(520);
      const chat = await chatView(page);
      const leafSaying = (text: string) => async () => {
        const id = await activeLeafId(t);
        return id !== undefined && (await row(t, id).innerText()).includes(text) ? id : undefined;
      };
      await sendPrompt(chat, "TURN-ONE: write the notes");
      await waitUntil(leafSaying("Wrote it"), "the first turn's answer to become the leaf", MODEL_TIMEOUT_MS);
      await sendPrompt(chat, "TURN-TWO: and then?");
      const originalLeaf = await waitUntil(
        leafSaying("Second answer"),
        "the second turn's answer to become the leaf",
        MODEL_TIMEOUT_MS,
      );
      assert.equal(workspaceText("notes.txt"), "by fake-model\n", "the original turn wrote the workspace's file");
      const sessionFile = sessionFiles(demo().sessionDir)[0];
      const before = readSession(sessionFile);
      const firstUser = before.find(
        (l) => l.type === "message" && textOf((l.message as { content?: unknown }).content).startsWith("TURN-ONE"),
      ) as SessionLine;
      const turnStart = firstUser.parentId;
      const requestsBefore = fake().requests.length;

      await pickFromRowMenu(page, t, firstUser.id as string, "Replay with Model…", "replay-00-menu");
      // The models: check the second model, uncheck the current one.
      await expectVisible(quickInput(page).getByText("which models replay the path"), "the models question");
      const option = (name: string) =>
        quickInput(page).locator(".quick-input-list .monaco-list-row", { hasText: name }).first();
      await option(REPLAY_MODEL.name).click();
      await option("Local fake model (demo)").click();
      await screenshot(page, "replay-01-models");
      await quickInput(page).locator(".quick-input-box input").press("Enter");
      await expectVisible(quickInput(page).getByText("the thinking level"), "the thinking level question");
      await quickInput(page).locator(".quick-input-box input").press("Enter");
      await expectVisible(quickInput(page).getByText("a check when each branch finishes"), "the check question");
      await answerInputBox(page, "");

      const runLines = (): SessionLine[] =>
        readSession(sessionFile).filter((l) => l.type === "custom" && l.customType === "agent-tree/branch-run");
      const branchId = await waitUntil(
        async () => {
          const ended = runLines().filter((l) => (l.data as { state?: string }).state !== "running");
          return ended.length === 1 ? (ended[0].parentId as string) : undefined;
        },
        "the replay to end",
        MODEL_TIMEOUT_MS,
      );
      const lines = readSession(sessionFile);
      const data = runLines().map((l) => l.data as { kind: string; state: string; model: { modelId: string } });
      assert.deepEqual(
        data.map((d) => [d.kind, d.state, d.model.modelId]),
        [
          ["replay", "running", REPLAY_MODEL.id],
          ["replay", "done", REPLAY_MODEL.id],
        ],
      );
      // The branch starts where the first turn started and holds both user messages again, in order.
      assert.equal(lines.find((l) => l.id === branchId)?.parentId, turnStart);
      const tip = newestBelow(lines, branchId);
      assert.deepEqual(userPath(lines, tip), ["TURN-ONE: write the notes", "TURN-TWO: and then?"]);
      assert.equal(
        textOf((lines.find((l) => l.id === tip)?.message as { content?: unknown }).content),
        `Second answer from ${REPLAY_MODEL.id}.`,
      );
      // The fake model saw them with the chosen model: the write, the answer after it, then the second message.
      const replayed = fake()
        .requests.slice(requestsBefore)
        .filter((b) => b.model === REPLAY_MODEL.id);
      assert.equal(replayed.length, 3, "three model calls with the chosen model");
      assert.equal(
        fake()
          .requests.slice(requestsBefore)
          .filter((b) => b.model !== REPLAY_MODEL.id).length,
        0,
        "the current model was not asked",
      );
      const usersOf = (b: FakeRequestBody): string[] =>
        (b.messages as { role: string; content: unknown }[])
          .filter((m) => m.role === "user")
          .map((m) => textOf(m.content));
      assert.deepEqual(usersOf(replayed[0]), ["TURN-ONE: write the notes"]);
      assert.deepEqual(usersOf(replayed[2]), ["TURN-ONE: write the notes", "TURN-TWO: and then?"]);
      const roles = (replayed[2].messages as { role: string }[]).map((m) => m.role);
      assert.ok(roles.indexOf("tool") < roles.lastIndexOf("user"), "the first turn's tool call ended before");
      // The replay wrote its copy, not the workspace; the leaf stayed.
      assert.equal(workspaceText("notes.txt"), "by fake-model\n");
      assert.equal(await activeLeafId(t), originalLeaf);

      // Compare opens on the original path and the replay.
      await expectVisible(
        page.locator(".part.editor .tab", { hasText: "Compare:" }),
        "the compare tab",
        MODEL_TIMEOUT_MS,
      );
      const view = await findWebview(page, ".cmp-list");
      await waitUntil(
        async () => {
          const text = await view.locator(".compare-app").innerText();
          return text.includes(`Second answer from ${REPLAY_MODEL.id}.`) &&
            text.includes("Second answer from fake-model.")
            ? true
            : undefined;
        },
        "both paths' answers in the compare tab",
        MODEL_TIMEOUT_MS,
      );
      await screenshot(page, "replay-02-compare");
    }),
  );
});
